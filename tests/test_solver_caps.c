/* What the library answers from its solvers' capability records (src/core/solver_caps.h), never
 * from their names: the LU cost of a factorization event (mbdae_solver_lu_cost, `mbdae bench`'s
 * %LU share) and the storage AUTO resolves to (mbdae_linsys_resolve).
 *
 * Unit costs of 1 (real LU) and 10 (complex LU) make each count visible: radau5 and radau factor
 * a real and a complex matrix per event (radau at s = 3, its lowest order), so 11; ida, bdf and
 * spm 1.  Before the capabilities `mbdae bench` chose by name (strcmp with "radau5") and gave
 * radau 1, understating its LU share: that rule fails the radau check below. */
#include <string.h>

#include "check.h"
#include "mbdae/mbdae.h"

static int dummy_integrate(const mbdae_problem *p, const mbdae_options *opt, double *y, double *yp,
                           mbdae_result *r)
{
  (void)p, (void)opt, (void)y, (void)yp, (void)r;
  return 0;
}

static void check_lu_cost(void)
{
  const mbdae_unit_costs c = {
      .size = sizeof c, .res = 0.5, .jac = 0.25, .lu_real = 1.0, .lu_complex = 10.0};
  const struct {
    const char *id;
    double cost;
  } want[] = {{"ida", 1.0}, {"radau5", 11.0}, {"radau", 11.0},
              {"bdf", 1.0}, {"spm", 1.0},     {"mebdf", 1.0}};
  CHECK(mbdae_solver_count() == (int)(sizeof want / sizeof want[0]), "%d built-in solvers",
        mbdae_solver_count());
  for (size_t i = 0; i < sizeof want / sizeof want[0]; i++) {
    const mbdae_solver_type *type = mbdae_solver_find(want[i].id);
    CHECK(type != NULL, "built-in solver %s", want[i].id);
    double cost = mbdae_solver_lu_cost(type, &c);
    CHECK(cost == want[i].cost, "%s: one factorization event costs %g, want %g", want[i].id, cost,
          want[i].cost);
  }
  /* A type of the caller's own, even one named like a built-in, has no capability record: one
   * real factorization per event. */
  const mbdae_solver_type mine = {sizeof(mbdae_solver_type), "radau5", "not the built-in radau5",
                                  dummy_integrate, NULL};
  CHECK(mbdae_solver_lu_cost(&mine, &c) == 1.0, "a caller's type: %g",
        mbdae_solver_lu_cost(&mine, &c));
  CHECK(mbdae_solver_lu_cost(NULL, &c) == 1.0, "no type: %g", mbdae_solver_lu_cost(NULL, &c));
  CHECK(mbdae_solver_lu_cost(mbdae_solver_find("radau"), NULL) == 0.0, "no unit costs");
}

/* AUTO on a dense problem of at most 64 equations: CONDENSED for the solvers that condense
 * (radau5, radau, bdf), the pattern's DENSE for ida, spm and an unknown name; a kind asked for
 * is returned as it is; a banded problem's AUTO is BAND for every solver. */
static void check_linsys(void)
{
  mbdae_problem *dense = NULL, *band = NULL;
  char msg[256];
  CHECK(mbdae_problem_create("pendulum", &dense, msg, sizeof msg) == 0, "%s", msg);
  CHECK(mbdae_problem_create("chain:n=40,form=index1", &band, msg, sizeof msg) == 0, "%s", msg);
  if (!dense || !band) {
    mbdae_problem_destroy(dense);
    mbdae_problem_destroy(band);
    return;
  }
  mbdae_jac_pattern pat;
  mbdae_problem_jac_pattern(band, &pat);
  CHECK(pat.kind == MBDAE_JAC_BAND, "chain:n=40's pattern is %s", mbdae_jac_kind_name(pat.kind));
  const char *ids[] = {"ida", "radau5", "radau", "bdf", "spm", "mebdf", "euler"};
  const int condensed[] = {0, 1, 1, 1, 0, 1, 0};
  for (size_t i = 0; i < sizeof ids / sizeof ids[0]; i++) {
    int got = mbdae_linsys_resolve(dense, ids[i], MBDAE_JAC_AUTO);
    int want = condensed[i] ? MBDAE_JAC_CONDENSED : MBDAE_JAC_DENSE;
    CHECK(got == want, "%s on the pendulum: %s, want %s", ids[i], mbdae_jac_kind_name(got),
          mbdae_jac_kind_name(want));
    CHECK(mbdae_linsys_resolve(dense, ids[i], MBDAE_JAC_DENSE) == MBDAE_JAC_DENSE, "%s, dense",
          ids[i]);
    got = mbdae_linsys_resolve(band, ids[i], MBDAE_JAC_AUTO);
    CHECK(got == MBDAE_JAC_BAND, "%s on chain:n=40: %s", ids[i], mbdae_jac_kind_name(got));
  }
  mbdae_problem_destroy(dense);
  mbdae_problem_destroy(band);
}

int main(void)
{
  check_lu_cost();
  check_linsys();
  return check_summary("test_solver_caps");
}
