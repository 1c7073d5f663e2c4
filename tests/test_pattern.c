/* The Jacobian structure of the public API (mbdae_jac_pattern): built-in dense problems give the
 * same values through both calls; a user's problem stating a pattern is differenced over column
 * groups (fewer residuals, the same Jacobian as its analytic one to differencing accuracy); bad
 * patterns are refused; column groups never put two columns that share a row together. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "jac_pattern.h"
#include "mbdae/mbdae.h"

/* A nonlinear heat-like chain: F_i = y_i' - c_i (y_{i-1} - 2 y_i + y_{i+1}) (1 + y_i^2 / 10). */
enum { NB = 40 };
static const int chain_index[NB];

static double coupling(int i) { return 1.0 + 0.01 * i; }

static int band_res(void *ctx, double t, const double *y, const double *yp, double *r)
{
  (void)ctx, (void)t;
  for (int i = 0; i < NB; i++) {
    double lap = (i ? y[i - 1] : 0.0) - 2.0 * y[i] + (i + 1 < NB ? y[i + 1] : 0.0);
    r[i] = yp[i] - coupling(i) * lap * (1.0 + 0.1 * y[i] * y[i]);
  }
  return 0;
}

static int band_init(void *ctx, double *y0, double *yp0)
{
  for (int i = 0; i < NB; i++) {
    y0[i] = sin(0.3 * (i + 1));
  }
  double r[NB];
  memset(yp0, 0, sizeof(double) * NB);
  band_res(ctx, 0.0, y0, yp0, r);
  for (int i = 0; i < NB; i++) {
    yp0[i] = -r[i];
  }
  return 0;
}

/* The analytic dense Jacobian, to compare the differenced values with. */
static int band_jac(void *ctx, double t, const double *y, const double *yp, double *dy, double *dyp)
{
  (void)ctx, (void)t, (void)yp;
  memset(dy, 0, sizeof(double) * NB * NB);
  memset(dyp, 0, sizeof(double) * NB * NB);
  for (int i = 0; i < NB; i++) {
    double lap = (i ? y[i - 1] : 0.0) - 2.0 * y[i] + (i + 1 < NB ? y[i + 1] : 0.0);
    double s = 1.0 + 0.1 * y[i] * y[i], c = coupling(i);
    dyp[i + i * NB] = 1.0;
    dy[i + i * NB] = -c * (-2.0 * s + lap * 0.2 * y[i]);
    if (i) {
      dy[i + (i - 1) * NB] = -c * s;
    }
    if (i + 1 < NB) {
      dy[i + (i + 1) * NB] = -c * s;
    }
  }
  return 0;
}

static int colptr[NB + 1], rowind[3 * NB];

static void tridiagonal_pattern(void)
{
  int k = 0;
  for (int j = 0; j < NB; j++) {
    colptr[j] = k;
    for (int i = j - 1; i <= j + 1; i++) {
      if (i >= 0 && i < NB) {
        rowind[k++] = i;
      }
    }
  }
  colptr[NB] = k;
}

static mbdae_problem_type band_type(void)
{
  return (mbdae_problem_type){.size = sizeof(mbdae_problem_type),
                              .id = "band",
                              .title = "tridiagonal",
                              .neq = NB,
                              .t0 = 0,
                              .tend = 1,
                              .index = chain_index,
                              .init = band_init,
                              .res = band_res,
                              .jac_colptr = colptr,
                              .jac_rowind = rowind};
}

static void test_builtin_dense(void)
{
  const char *specs[] = {"caraxis", "andrews", "crank", "pendulum", "dpendulum"};
  for (size_t s = 0; s < sizeof specs / sizeof specs[0]; s++) {
    mbdae_problem *p = NULL;
    CHECK(mbdae_problem_create(specs[s], &p, NULL, 0) == 0, "%s", specs[s]);
    mbdae_jac_pattern pat;
    mbdae_problem_jac_pattern(p, &pat);
    int n = mbdae_problem_neq(p);
    CHECK(pat.kind == MBDAE_JAC_DENSE && pat.neq == n && pat.nnz == (size_t)n * n && !pat.colptr &&
              pat.ml == n - 1 && pat.mu == n - 1,
          "%s: dense pattern", specs[s]);
    double *y = malloc(sizeof(double) * (2 * n + 4 * n * n)), *yp = y + n;
    double *j1 = yp + n, *m1 = j1 + n * n, *j2 = m1 + n * n, *m2 = j2 + n * n;
    mbdae_problem_init(p, y, yp);
    mbdae_problem_jac(p, 0.0, y, yp, j1, m1);
    mbdae_problem_jac_values(p, 0.0, y, yp, j2, m2);
    CHECK(memcmp(j1, j2, sizeof(double) * n * n) == 0 &&
              memcmp(m1, m2, sizeof(double) * n * n) == 0,
          "%s: values equal the dense call", specs[s]);
    free(y);
    mbdae_problem_destroy(p);
  }
}

static void test_user_band(void)
{
  tridiagonal_pattern();
  mbdae_problem_type t = band_type();
  mbdae_problem *p = NULL;
  char msg[256];
  CHECK(mbdae_problem_from_type(&t, NULL, &p, msg, sizeof msg) == 0, "%s", msg);
  if (!p) {
    return;
  }
  mbdae_jac_pattern pat;
  mbdae_problem_jac_pattern(p, &pat);
  CHECK(pat.kind == MBDAE_JAC_BAND && pat.ml == 1 && pat.mu == 1 && pat.nnz == 3 * NB - 2,
        "kind %d ml %d mu %d nnz %zu", pat.kind, pat.ml, pat.mu, pat.nnz);
  CHECK(mbdae_problem_jac_nres(p) == 2 * 3 + 1, "3 groups: %d residuals",
        mbdae_problem_jac_nres(p));
  double y[NB], yp[NB], vy[3 * NB], vyp[3 * NB], dy[NB * NB], dyp[NB * NB], ay[NB * NB],
      ayp[NB * NB];
  band_init(NULL, y, yp);
  CHECK(mbdae_problem_jac_values(p, 0.0, y, yp, vy, vyp) == 0, "values");
  band_jac(NULL, 0.0, y, yp, ay, ayp);
  double err = 0.0;
  for (int j = 0; j < NB; j++) {
    for (int k = colptr[j]; k < colptr[j + 1]; k++) {
      int i = rowind[k];
      err = fmax(err, fabs(vy[k] - ay[i + j * NB]) + fabs(vyp[k] - ayp[i + j * NB]));
    }
  }
  CHECK(err < 1e-6, "grouped differences against the analytic Jacobian: %g", err);
  CHECK(mbdae_problem_jac(p, 0.0, y, yp, dy, dyp) == 0, "dense call");
  int same = 1;
  for (int j = 0; j < NB; j++) {
    for (int i = 0; i < NB; i++) {
      int inside = abs(i - j) <= 1;
      double want = inside ? ay[i + j * NB] : 0.0;
      same &= fabs(dy[i + j * NB] - want) < 1e-6 && (inside || dy[i + j * NB] == 0.0);
    }
  }
  CHECK(same, "the dense call scatters the pattern values, zero elsewhere");
  mbdae_options opt;
  mbdae_options_default(&opt);
  mbdae_result r;
  double yend[NB];
  CHECK(mbdae_solve(p, "radau5", &opt, 1, yend, NULL, &r) == 0, "radau5: %s", r.message);
  CHECK(r.stats.nres_fd == 7 * r.stats.njac, "nres_fd %ld = 7 njac %ld", r.stats.nres_fd,
        r.stats.njac);
  mbdae_problem_destroy(p);
}

/* A pattern with a dense jac and no values: the values are gathered from it, exactly. */
static void test_user_gathered(void)
{
  tridiagonal_pattern();
  mbdae_problem_type t = band_type();
  t.jac = band_jac;
  mbdae_problem *p = NULL;
  CHECK(mbdae_problem_from_type(&t, NULL, &p, NULL, 0) == 0, "create");
  if (!p) {
    return;
  }
  double y[NB], yp[NB], vy[3 * NB], vyp[3 * NB], ay[NB * NB], ayp[NB * NB];
  band_init(NULL, y, yp);
  CHECK(mbdae_problem_jac_values(p, 0.0, y, yp, vy, vyp) == 0, "values");
  band_jac(NULL, 0.0, y, yp, ay, ayp);
  int same = 1;
  for (int j = 0; j < NB; j++) {
    for (int k = colptr[j]; k < colptr[j + 1]; k++) {
      same &= vy[k] == ay[rowind[k] + j * NB] && vyp[k] == ayp[rowind[k] + j * NB];
    }
  }
  CHECK(same, "gathered values equal the dense Jacobian's entries");
  CHECK(mbdae_problem_jac_nres(p) == 0, "analytic: no residuals per Jacobian");
  mbdae_problem_destroy(p);
}

static void test_refused(void)
{
  tridiagonal_pattern();
  mbdae_problem *p = NULL;
  char msg[256];
  mbdae_problem_type t = band_type();
  t.jac_rowind = NULL;
  CHECK(mbdae_problem_from_type(&t, NULL, &p, msg, sizeof msg) == MBDAE_ERR_ARG &&
            strstr(msg, "together"),
        "colptr without rowind: %s", msg);
  t = band_type();
  rowind[1] = 0; /* column 0 rows 0, 0: not increasing */
  CHECK(mbdae_problem_from_type(&t, NULL, &p, msg, sizeof msg) == MBDAE_ERR_ARG &&
            strstr(msg, "compressed-column"),
        "unsorted rows: %s", msg);
  tridiagonal_pattern();
  rowind[4] = NB; /* out of range */
  CHECK(mbdae_problem_from_type(&t, NULL, &p, msg, sizeof msg) == MBDAE_ERR_ARG,
        "row out of range: %s", msg);
  tridiagonal_pattern();
  t.jac_kind = 7;
  CHECK(mbdae_problem_from_type(&t, NULL, &p, msg, sizeof msg) == MBDAE_ERR_ARG &&
            strstr(msg, "jac_kind"),
        "bad kind: %s", msg);
  t = band_type();
  t.jac_colptr = NULL;
  t.jac_rowind = NULL;
  t.jac_kind = MBDAE_JAC_BAND;
  CHECK(mbdae_problem_from_type(&t, NULL, &p, msg, sizeof msg) == MBDAE_ERR_ARG &&
            strstr(msg, "need a pattern"),
        "kind without pattern: %s", msg);
}

/* Random patterns: no two columns of a group share a row, and a band of width w takes w groups. */
static void test_groups(void)
{
  enum { N = 60 };
  static int cp[N + 1], ri[N * N], group[N];
  unsigned seed = 12345;
  int conflicts = 0;
  for (int trial = 0; trial < 50; trial++) {
    int k = 0;
    for (int j = 0; j < N; j++) {
      cp[j] = k;
      for (int i = 0; i < N; i++) {
        seed = seed * 1103515245u + 12345u;
        if (i == j || (seed >> 16) % 17 == 0) {
          ri[k++] = i;
        }
      }
    }
    cp[N] = k;
    mbdae_jac_pattern pat = {
        .kind = MBDAE_JAC_SPARSE, .neq = N, .nnz = (size_t)k, .colptr = cp, .rowind = ri};
    int ng = mbdae_pattern_groups(&pat, group);
    for (int g = 0; g < ng; g++) {
      int used[N] = {0};
      for (int j = 0; j < N; j++) {
        for (int q = cp[j]; q < cp[j + 1] && group[j] == g; q++) {
          conflicts += used[ri[q]]++ > 0;
        }
      }
    }
  }
  CHECK(conflicts == 0, "%d row conflicts inside groups", conflicts);
  int k = 0;
  for (int j = 0; j < N; j++) {
    cp[j] = k;
    for (int i = j - 3; i <= j + 2; i++) {
      if (i >= 0 && i < N) {
        ri[k++] = i;
      }
    }
  }
  cp[N] = k;
  mbdae_jac_pattern band = {
      .kind = MBDAE_JAC_BAND, .neq = N, .nnz = (size_t)k, .colptr = cp, .rowind = ri};
  int ml, mu;
  mbdae_pattern_bandwidths(N, cp, ri, &ml, &mu);
  CHECK(ml == 2 && mu == 3, "bandwidths %d %d", ml, mu);
  CHECK(mbdae_pattern_groups(&band, group) == 6, "band of width 6: 6 groups");
}

int main(void)
{
  test_builtin_dense();
  test_user_band();
  test_user_gathered();
  test_refused();
  test_groups();
  return check_summary("test_pattern");
}
