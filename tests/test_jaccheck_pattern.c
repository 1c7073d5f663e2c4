/* The Jacobian check over a non-dense pattern (mbdae_check_jac with mbdae_functions.pattern):
 * a user's banded problem (ml = 1, mu = 2) passes with its analytic values; negating or doubling
 * any one nonzero entry is flagged; a pattern that leaves out one true nonzero is flagged; the
 * check differences column groups (residual evaluations independent of the size: 1 + 4 per group
 * and matrix) and runs at a size a dense check could not store.
 *
 * The problem: F_i = m_i y_i' - c_i (y_{i-1} - 2 y_i + y_{i+1}) (1 + y_i^2 / 10)
 *                    - y_{i+2} y_i' / 20 (the last term for i + 2 < n). */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "mbdae/mbdae.h"

/* The problem's size, its stated pattern, and a count of its residual evaluations. */
typedef struct band {
  int n;
  int *colptr, *rowind;
  long nres;
  int *index; /* all 1: differential */
} band;

static double coupling(int i) { return 1.0 + 0.01 * i; }
static double mass(int i) { return 2.0 + 0.1 * i; }
static double far(const double *y, int n, int i) { return i + 2 < n ? y[i + 2] : 0.0; }

static double laplacian(const double *y, int n, int i)
{
  return (i ? y[i - 1] : 0.0) - 2.0 * y[i] + (i + 1 < n ? y[i + 1] : 0.0);
}

static int band_res(void *ctx, double t, const double *y, const double *yp, double *r)
{
  band *b = ctx;
  (void)t;
  b->nres++;
  for (int i = 0; i < b->n; i++) {
    double s = 1.0 + 0.1 * y[i] * y[i];
    r[i] = mass(i) * yp[i] - coupling(i) * laplacian(y, b->n, i) * s - far(y, b->n, i) * yp[i] / 20;
  }
  return 0;
}

static int band_init(void *ctx, double *y0, double *yp0)
{
  band *b = ctx;
  for (int i = 0; i < b->n; i++) {
    y0[i] = sin(0.3 * (i + 1));
    yp0[i] = cos(0.7 * (i + 1));
  }
  return 0;
}

/* dF_i/dy_j (m = 0) or dF_i/dy'_j (m = 1). */
static double entry(const band *b, const double *y, const double *yp, int m, int i, int j)
{
  double s = 1.0 + 0.1 * y[i] * y[i], c = coupling(i);
  if (m == 1) {
    return i == j ? mass(i) - far(y, b->n, i) / 20 : 0.0;
  }
  if (j == i) {
    return -c * (-2.0 * s + laplacian(y, b->n, i) * 0.2 * y[i]);
  }
  if (j == i - 1 || j == i + 1) {
    return -c * s;
  }
  return j == i + 2 ? -yp[i] / 20 : 0.0;
}

static int band_values(void *ctx, double t, const double *y, const double *yp, double *dfdy,
                       double *dfdyp)
{
  band *b = ctx;
  (void)t;
  for (int j = 0; j < b->n; j++) {
    for (int e = b->colptr[j]; e < b->colptr[j + 1]; e++) {
      if (dfdy) {
        dfdy[e] = entry(b, y, yp, 0, b->rowind[e], j);
      }
      if (dfdyp) {
        dfdyp[e] = entry(b, y, yp, 1, b->rowind[e], j);
      }
    }
  }
  return 0;
}

/* Column j: rows j - 2 .. j + 1, leaving out the entry (skip_row, skip_col) (-1: none). */
static void band_alloc(band *b, int n, int skip_row, int skip_col)
{
  b->n = n;
  b->nres = 0;
  b->colptr = malloc(sizeof(int) * ((size_t)n + 1));
  b->rowind = malloc(sizeof(int) * 4 * (size_t)n);
  b->index = malloc(sizeof(int) * (size_t)n);
  int k = 0;
  for (int j = 0; j < n; j++) {
    b->colptr[j] = k;
    b->index[j] = 1;
    for (int i = j - 2; i <= j + 1; i++) {
      if (i >= 0 && i < n && !(i == skip_row && j == skip_col)) {
        b->rowind[k++] = i;
      }
    }
  }
  b->colptr[n] = k;
}

static void band_free(band *b) { free(b->colptr), free(b->rowind), free(b->index); }

static mbdae_problem *band_problem(band *b, mbdae_problem_type *t)
{
  *t = (mbdae_problem_type){.size = sizeof(mbdae_problem_type),
                            .id = "band",
                            .title = "banded",
                            .neq = b->n,
                            .t0 = 0,
                            .tend = 1,
                            .index = b->index,
                            .init = band_init,
                            .res = band_res,
                            .jac_kind = MBDAE_JAC_BAND,
                            .jac_colptr = b->colptr,
                            .jac_rowind = b->rowind,
                            .jac_values = band_values};
  mbdae_problem *p = NULL;
  char msg[256];
  int rc = mbdae_problem_from_type(t, b, &p, msg, sizeof msg);
  CHECK(rc == 0, "%s", msg);
  return p;
}

/* One entry of the stated values scaled by factor (a wrong Jacobian). */
typedef struct mutant {
  mbdae_functions inner;
  int matrix;
  int index; /* position in the pattern's order */
  double factor;
} mutant;

static int mutant_res(void *ctx, double t, const double *y, const double *yp, double *r)
{
  mutant *m = ctx;
  return m->inner.res(m->inner.ctx, t, y, yp, r);
}

static int mutant_values(void *ctx, double t, const double *y, const double *yp, double *dfdy,
                         double *dfdyp)
{
  mutant *m = ctx;
  int rc = m->inner.jac_values(m->inner.ctx, t, y, yp, dfdy, dfdyp);
  double *target = m->matrix == 0 ? dfdy : dfdyp;
  if (rc == 0 && target) {
    target[m->index] *= m->factor;
  }
  return rc;
}

/* 1 when the check fails at some check point; *outside: the largest noutside seen. */
static int flagged(const mbdae_functions *f, const mbdae_check_points *pts, int *outside)
{
  size_t n = (size_t)f->neq;
  int bad = 0;
  *outside = 0;
  for (int k = 0; k < pts->npoints; k++) {
    mbdae_jac_check c = MBDAE_JAC_CHECK_INIT;
    int rc =
        mbdae_check_jac(f, pts->t[k], pts->y + k * n, pts->yp + k * n, pts->ytyp, pts->yptyp, &c);
    bad |= rc != 0 || !c.ok;
    *outside = c.noutside > *outside ? c.noutside : *outside;
  }
  return bad;
}

static void test_entries_flagged(void)
{
  band b;
  band_alloc(&b, 30, -1, -1);
  mbdae_problem_type t;
  mbdae_problem *p = band_problem(&b, &t);
  mbdae_check_points pts = MBDAE_CHECK_POINTS_INIT;
  CHECK(mbdae_problem_check_points(p, &pts) == 0, "check points");
  mutant m;
  mbdae_problem_functions(p, &m.inner);
  CHECK(m.inner.pattern.kind == MBDAE_JAC_BAND, "the problem's pattern is in its functions");
  mbdae_functions f = m.inner;
  f.res = mutant_res;
  f.jac_values = mutant_values;
  f.ctx = &m;
  m.factor = 1.0;
  int outside = 0;
  CHECK(!flagged(&f, &pts, &outside) && outside == 0, "the right Jacobian passes");
  double *values = malloc(sizeof(double) * 2 * m.inner.pattern.nnz);
  band_values(&b, pts.t[0], pts.y, pts.yp, values, values + m.inner.pattern.nnz);
  int tried = 0, caught = 0;
  for (m.matrix = 0; m.matrix < 2; m.matrix++) {
    for (m.index = 0; m.index < (int)m.inner.pattern.nnz; m.index++) {
      if (values[(size_t)m.matrix * m.inner.pattern.nnz + (size_t)m.index] == 0.0) {
        continue;
      }
      for (int s = 0; s < 2; s++) {
        m.factor = s == 0 ? -1.0 : 2.0;
        tried++;
        caught += flagged(&f, &pts, &outside);
      }
    }
  }
  CHECK(tried > 200 && caught == tried, "negated or doubled entries flagged: %d of %d", caught,
        tried);
  free(values);
  mbdae_check_points_free(&pts);
  mbdae_problem_destroy(p);
  band_free(&b);
}

/* Each true nonzero left out of the pattern in turn (values stay right everywhere else). */
static void test_missing_entry_flagged(void)
{
  int n = 12, tried = 0, caught = 0, outside_seen = 0;
  for (int j = 0; j < n; j++) {
    for (int i = j - 2; i <= j + 1; i++) {
      if (i < 0 || i >= n) {
        continue;
      }
      band b;
      band_alloc(&b, n, i, j);
      mbdae_problem_type t;
      mbdae_problem *p = band_problem(&b, &t);
      mbdae_check_points pts = MBDAE_CHECK_POINTS_INIT;
      mbdae_functions f;
      mbdae_problem_functions(p, &f);
      int outside = 0;
      CHECK(mbdae_problem_check_points(p, &pts) == 0, "check points");
      tried++;
      caught += flagged(&f, &pts, &outside);
      outside_seen += outside > 0;
      mbdae_check_points_free(&pts);
      mbdae_problem_destroy(p);
      band_free(&b);
    }
  }
  CHECK(caught == tried, "patterns missing one nonzero flagged: %d of %d", caught, tried);
  CHECK(outside_seen > 0, "some flagged as a nonzero outside the pattern: %d", outside_seen);
}

/* A size whose dense matrices (4 n^2 doubles, 12.8 GB) a check could not hold: groups only. */
static void test_large(void)
{
  band b;
  band_alloc(&b, 20000, -1, -1);
  mbdae_problem_type t;
  mbdae_problem *p = band_problem(&b, &t);
  mbdae_check_points pts = MBDAE_CHECK_POINTS_INIT;
  CHECK(mbdae_problem_check_points(p, &pts) == 0, "check points");
  mbdae_functions f;
  mbdae_problem_functions(p, &f);
  mbdae_jac_check c = MBDAE_JAC_CHECK_INIT;
  b.nres = 0;
  int rc = mbdae_check_jac(&f, pts.t[0], pts.y, pts.yp, pts.ytyp, pts.yptyp, &c);
  CHECK(rc == 0 && c.ok && c.noutside == 0, "rc %d ok %d err %g", rc, c.ok, c.err);
  /* ml + mu + 1 = 4 groups: 1 residual at the point, 4 per group and matrix */
  CHECK(b.nres == 1 + 4 * 4 * 2, "residual evaluations %ld", b.nres);
  double rabs = 0.0, rrel = 0.0;
  CHECK(mbdae_problem_residual_size(p, pts.t[0], pts.y, pts.yp, &rabs, &rrel) == 0,
        "residual size");
  mbdae_check_points_free(&pts);
  mbdae_problem_destroy(p);
  band_free(&b);
}

int main(void)
{
  test_entries_flagged();
  test_missing_entry_flagged();
  test_large();
  return check_summary("test_jaccheck_pattern");
}
