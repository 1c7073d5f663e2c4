/* The references mbdae computes itself.
 * - The committed data files are exactly what the generators print (`mbdae refsol ...`).
 * - The pendulum's exact solution (Jacobi elliptic functions, refsol/pendulum_ref.c) agrees with an
 *   independent evaluation: the angle equation theta'' = -g sin(theta) integrated by the classical
 *   Runge-Kutta method in long double with a small step (error ~ h^4 ~ 1e-16), at several times.
 * - The pendulum's exact state satisfies the DAE of problems/pendulum.c.
 * - The chain generator (refsol/chain_ref.c) reproduces the committed files of n = 1 and 2 links
 *   (the others take minutes), and its one-link chain at t = 10 is the pendulum's exact solution
 *   there. */
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "mbdae/mbdae.h"
#include "refsol.h"

static char *slurp(FILE *f, size_t *len)
{
  size_t cap = 1 << 14, used = 0, got;
  char *buf = malloc(cap);
  while ((got = fread(buf + used, 1, cap - used, f)) > 0) {
    used += got;
    if (used == cap) {
      cap *= 2;
      buf = realloc(buf, cap);
    }
  }
  *len = used;
  return buf;
}

/* The chain generator on chain:n=<links> (its canonical spec and names), as `mbdae refsol`. */
static int chain_links;
static int write_chain(FILE *out)
{
  char spec[32], msg[256] = "";
  snprintf(spec, sizeof spec, "chain:n=%d", chain_links);
  mbdae_problem *p = NULL;
  CHECK(mbdae_problem_create(spec, &p, NULL, 0) == 0, "%s", spec);
  const char *names[40];
  for (int i = 0; i < mbdae_problem_neq(p); i++) {
    names[i] = mbdae_problem_component(p, i);
  }
  int rc =
      refsol_chain_write(out, mbdae_problem_spec(p), mbdae_problem_neq(p), names, msg, sizeof msg);
  CHECK(rc == 0, "chain generator: %s", msg);
  mbdae_problem_destroy(p);
  return rc;
}

static void generator_matches_file(const char *name, int (*write)(FILE *))
{
  char path[512];
  snprintf(path, sizeof path, "%s/%s.txt", MBDAE_REFSOL_DIR, name);
  FILE *committed = fopen(path, "rb"), *generated = tmpfile();
  CHECK(committed && generated, "open %s", path);
  if (!committed || !generated) {
    return;
  }
  CHECK(write(generated) == 0, "%s generator", name);
  rewind(generated);
  size_t la = 0, lb = 0;
  char *a = slurp(committed, &la), *b = slurp(generated, &lb);
  CHECK(la == lb && memcmp(a, b, la) == 0,
        "refsol/%s.txt differs from what `mbdae refsol %s` prints", name, name);
  free(a);
  free(b);
  fclose(committed);
  fclose(generated);
}

/* theta'' = -g sin(theta), theta(0) = pi/2, theta'(0) = 0, by RK4 in long double. */
static void angle_by_rk4(long double tend, long double *theta, long double *omega)
{
  const long double g = 9.81L, h = 2e-5L;
  long double th = 1.5707963267948966192313216916397514L, om = 0.0L;
  long nsteps = (long)(tend / h + 0.5L);
  long double step = tend / (long double)nsteps;
  for (long k = 0; k < nsteps; k++) {
    long double k1t = om, k1o = -g * sinl(th);
    long double k2t = om + 0.5L * step * k1o, k2o = -g * sinl(th + 0.5L * step * k1t);
    long double k3t = om + 0.5L * step * k2o, k3o = -g * sinl(th + 0.5L * step * k2t);
    long double k4t = om + step * k3o, k4o = -g * sinl(th + step * k3t);
    th += step / 6.0L * (k1t + 2.0L * k2t + 2.0L * k3t + k4t);
    om += step / 6.0L * (k1o + 2.0L * k2o + 2.0L * k3o + k4o);
  }
  *theta = th;
  *omega = om;
}

static void pendulum_against_rk4(void)
{
  static const double times[] = {0.25, 1.0, 2.5, 4.0};
  for (size_t k = 0; k < sizeof times / sizeof times[0]; k++) {
    long double th, om;
    angle_by_rk4(times[k], &th, &om);
    /* theta from the downward vertical: x = sin(theta), y = cos(theta) (y points down) */
    double expect[5] = {(double)sinl(th), (double)cosl(th), (double)(om * cosl(th)),
                        (double)(-om * sinl(th)), (double)(3.0L * 9.81L * cosl(th))};
    double y[5], yp[5];
    refsol_pendulum_state(times[k], y, yp);
    for (int i = 0; i < 5; i++) {
      CHECK(fabs(y[i] - expect[i]) <= 1e-11 * (1.0 + fabs(expect[i])),
            "pendulum at t = %g: y%d = %.17g, RK4 gives %.17g", times[k], i + 1, y[i], expect[i]);
    }
  }
}

static void pendulum_state_solves_dae(void)
{
  mbdae_problem *p = NULL;
  CHECK(mbdae_problem_create("pendulum", &p, NULL, 0) == 0, "pendulum");
  double y[5], yp[5], res[5], yref[5];
  for (double t = 0.0; t <= 100.0; t += 7.3) {
    refsol_pendulum_state(t, y, yp);
    mbdae_problem_res(p, t, y, yp, res);
    for (int i = 0; i < 5; i++) {
      CHECK(fabs(res[i]) < 1e-12, "pendulum residual of the exact state at t = %g: F%d = %.3e", t,
            i + 1, res[i]);
    }
  }
  refsol_pendulum_state(100.0, y, yp);
  mbdae_problem_ref(p, yref);
  for (int i = 0; i < 5; i++) {
    CHECK(fabs(y[i] - yref[i]) <= 4e-16 * fabs(yref[i]) + 1e-300,
          "pendulum yref_%d = %.17g, exact %.17g", i + 1, yref[i], y[i]);
  }
  mbdae_problem_destroy(p);
}

/* chain:n=1 at t = 10 (its committed reference) against the exact pendulum solution there. */
static void one_link_is_the_exact_pendulum(void)
{
  mbdae_problem *p = NULL;
  CHECK(mbdae_problem_create("chain:n=1", &p, NULL, 0) == 0, "chain:n=1");
  double yref[5], y[5], yp[5];
  CHECK(mbdae_problem_ref(p, yref) == 0, "chain:n=1 reference");
  refsol_pendulum_state(10.0, y, yp);
  for (int i = 0; i < 5; i++) {
    CHECK(fabs(yref[i] - y[i]) <= 4e-16 * fabs(y[i]), "chain:n=1 %s = %.17g, exact %.17g",
          mbdae_problem_component(p, i), yref[i], y[i]);
  }
  mbdae_problem_destroy(p);
}

int main(void)
{
  generator_matches_file("pendulum", refsol_pendulum_write);
  generator_matches_file("dpendulum", refsol_dpendulum_write);
  for (chain_links = 1; chain_links <= 2; chain_links++) {
    char name[32];
    snprintf(name, sizeof name, "chain_n%d", chain_links);
    generator_matches_file(name, write_chain);
  }
  one_link_is_the_exact_pendulum();
  pendulum_against_rk4();
  pendulum_state_solves_dae();
  return check_summary("test_refsol");
}
