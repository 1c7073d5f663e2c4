/* The constraint check in O(nnz) (mbdae_problem_constraint_pattern): the chain states where its
 * hidden constraints g and g' depend on y, and every entry of d(g, g')/dy differenced densely at
 * random states lies inside that pattern (an entry outside it would let the check difference two
 * coupled columns together); problems and forms that state none say so; and the constraint check
 * over column groups gives bit for bit what the check gives one column at a time (the same
 * functions behind a callback of the test's own, which the check cannot group). */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "mbdae/mbdae.h"

static const char *const FORMS[] = {"index3", "index2", "ggl", "index1", "baumgarte"};
enum { NFORMS = sizeof FORMS / sizeof FORMS[0] };

static mbdae_problem *create(const char *spec)
{
  mbdae_problem *p = NULL;
  char msg[256];
  int rc = mbdae_problem_create(spec, &p, msg, sizeof msg);
  CHECK(rc == 0, "%s: %s", spec, msg);
  return p;
}

/* xorshift64: a uniform number in [-1, 1]. */
static double uniform(uint64_t *s)
{
  *s ^= *s << 13;
  *s ^= *s >> 7;
  *s ^= *s << 17;
  return 2.0 * (double)(*s >> 11) / 9007199254740992.0 - 1.0;
}

/* 1 when (k, j) is an entry of the pattern. */
static int inside(const int *colptr, const int *rowind, int j, int k)
{
  for (int e = colptr[j]; e < colptr[j + 1]; e++) {
    if (rowind[e] == k) {
      return 1;
    }
  }
  return 0;
}

/* Entries of d(g, g')/dy, differenced column by column at (t, y, y'), outside the pattern; *found
 * counts the nonzero ones. */
static int outside_entries(const mbdae_problem *p, double t, double *y, const double *yp,
                           const int *colptr, const int *rowind, int *found)
{
  int n = mbdae_problem_neq(p), nc = mbdae_problem_nconstraints(p), outside = 0;
  double *g = malloc(sizeof(double) * 4 * (size_t)nc);
  *found = 0;
  for (int j = 0; g && j < n; j++) {
    double yj = y[j], h = 1e-3 * (fabs(yj) + 1.0);
    y[j] = yj + h;
    int rc = mbdae_problem_constraints(p, t, y, yp, g, g + nc, NULL);
    y[j] = yj - h;
    rc |= mbdae_problem_constraints(p, t, y, yp, g + 2 * nc, g + 3 * nc, NULL);
    y[j] = yj;
    CHECK(rc == 0, "constraints at column %d", j);
    for (int k = 0; k < nc; k++) {
      int nonzero = g[k] != g[2 * nc + k] || g[nc + k] != g[3 * nc + k];
      *found += nonzero;
      if (nonzero && !inside(colptr, rowind, j, k)) {
        outside++;
        fprintf(stderr, "  d(g, g')_%d / dy_%d is not zero, and not in the pattern\n", k, j);
      }
    }
  }
  free(g);
  return outside;
}

/* The chain's pattern at random states of each Cartesian form. */
static void test_pattern_holds(int links)
{
  for (int f = 0; f < NFORMS; f++) {
    char spec[64];
    snprintf(spec, sizeof spec, "chain:n=%d,form=%s,theta=0.3,omega=0.7", links, FORMS[f]);
    mbdae_problem *p = create(spec);
    if (!p) {
      continue;
    }
    int n = mbdae_problem_neq(p), nc = mbdae_problem_nconstraints(p);
    int *colptr = malloc(sizeof(int) * ((size_t)n + 1));
    CHECK(mbdae_problem_constraint_pattern(p, colptr, NULL) == 0, "%s: a pattern", spec);
    int *rowind = malloc(sizeof(int) * ((size_t)colptr[n] + 1));
    CHECK(mbdae_problem_constraint_pattern(p, colptr, rowind) == 0, "%s: its rows", spec);
    CHECK(colptr[n] < n * nc, "%s: sparse (%d of %d entries)", spec, colptr[n], n * nc);
    double *y = malloc(sizeof(double) * 2 * (size_t)n), *yp = y + n;
    CHECK(mbdae_problem_init(p, y, yp) == 0, "%s: init", spec);
    uint64_t seed = 0x9e3779b97f4a7c15ULL + (uint64_t)f;
    for (int point = 0; point < 3; point++) {
      for (int j = 0; j < n; j++) {
        y[j] += 0.3 * uniform(&seed) * (fabs(y[j]) + 1.0);
        yp[j] = uniform(&seed);
      }
      int found = 0, outside = outside_entries(p, 0.5 * point, y, yp, colptr, rowind, &found);
      CHECK(outside == 0, "%s: %d nonzero entries outside the pattern", spec, outside);
      CHECK(found > 2 * nc, "%s: %d nonzero entries found", spec, found);
    }
    free(y);
    free(rowind);
    free(colptr);
    mbdae_problem_destroy(p);
  }
}

/* Problems and forms whose constraints have no stated pattern. */
static void test_no_pattern(void)
{
  const char *specs[] = {"pendulum",           "dpendulum", "chain:n=1",
                         "chain:n=4,form=ssf", "caraxis",   "fekete:n=5"};
  for (size_t s = 0; s < sizeof specs / sizeof specs[0]; s++) {
    mbdae_problem *p = create(specs[s]);
    int colptr[64];
    CHECK(p && mbdae_problem_constraint_pattern(p, colptr, NULL) == MBDAE_ERR_UNSUPPORTED,
          "%s: no constraint pattern", specs[s]);
    mbdae_problem_destroy(p);
  }
}

/* The problem's own constraints behind a callback the check does not know: one column at a time. */
static int own_constraints(void *ctx, double t, const double *y, const double *yp, double *gpos,
                           double *gvel, double *gacc)
{
  return mbdae_problem_constraints(ctx, t, y, yp, gpos, gvel, gacc);
}

static int same_check(const mbdae_constraint_check *a, const mbdae_constraint_check *b)
{
  return a->err == b->err && a->ok == b->ok && a->level == b->level && a->index == b->index &&
         a->value == b->value && a->fd == b->fd;
}

/* The constraint check over column groups against the one over single columns, at every check
 * point. */
static void test_grouped_equals_dense(int links)
{
  for (int f = 0; f < NFORMS; f++) {
    char spec[64];
    snprintf(spec, sizeof spec, "chain:n=%d,form=%s", links, FORMS[f]);
    mbdae_problem *p = create(spec);
    mbdae_check_points pts = MBDAE_CHECK_POINTS_INIT;
    if (!p || mbdae_problem_check_points(p, &pts) != 0) {
      CHECK(0, "%s: check points", spec);
      mbdae_problem_destroy(p);
      continue;
    }
    mbdae_functions grouped, dense;
    mbdae_problem_functions(p, &grouped);
    dense = grouped;
    dense.constraints = own_constraints;
    int n = grouped.neq;
    for (int k = 0; k < pts.npoints; k++) {
      mbdae_constraint_check a = MBDAE_CONSTRAINT_CHECK_INIT, b = MBDAE_CONSTRAINT_CHECK_INIT;
      int rc =
          mbdae_check_constraints(&grouped, pts.t[k], pts.y + k * n, pts.yp + k * n, pts.ytyp, &a);
      rc |= mbdae_check_constraints(&dense, pts.t[k], pts.y + k * n, pts.yp + k * n, pts.ytyp, &b);
      CHECK(rc == 0 && same_check(&a, &b),
            "%s, %s: grouped err %.17g fd %.17g, by columns err %.17g fd %.17g", spec, pts.label[k],
            a.err, a.fd, b.err, b.fd);
      CHECK(a.ok, "%s, %s: the check passes", spec, pts.label[k]);
    }
    mbdae_check_points_free(&pts);
    mbdae_problem_destroy(p);
  }
}

int main(void)
{
  test_pattern_holds(5);
  test_no_pattern();
  test_grouped_equals_dense(5);
  test_grouped_equals_dense(20);
  return check_summary("test_check_scaling");
}
