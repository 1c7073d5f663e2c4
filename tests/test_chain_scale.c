/* The pendulum chain at scale (issue 15): its Cartesian forms state a banded Jacobian pattern
 * (MBDAE_JAC_BAND, link by link) that covers every nonzero of the dense Jacobian at random
 * points, with analytic pattern values equal to the dense ones to rounding; the O(n) start of a
 * long chain (tridiagonal rod forces) agrees with the state-space form's kinetic-metric solve;
 * ggl's hidden constraints (the reaction's rate) agree with a direct evaluation; and a chain of
 * 10^4 links is created, started, evaluated and checked (mbdae_problem_residual_size, which
 * `mbdae run` calls, included) with O(n) pattern and memory. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "mbdae/mbdae.h"

static const char *const FORMS[] = {"index3", "index2", "ggl", "index1",
                                    "baumgarte,alpha=3,beta=7"};
enum { NFORMS = 5 };
/* Offsets in a link's block of y: x (y at +1), vx (vy at +1), F, and ggl's mu; LINK values. */
enum { AT_VEL = 2, AT_F = 4, AT_MU = 5, LINK = 5, LINK_GGL = 6 };
/* Expected bandwidths (ml, mu) per form, reached from three links on. */
static const int BANDS[NFORMS][2] = {{9, 7}, {9, 7}, {11, 11}, {14, 7}, {14, 7}};

static double link_length(int k) { return k % 3 ? 1.0 : 0.5; }

static mbdae_problem *create(const char *spec)
{
  mbdae_problem *p = NULL;
  char msg[256];
  int rc = mbdae_problem_create(spec, &p, msg, sizeof msg);
  CHECK(rc == 0 && p, "create %s: %s", spec, msg);
  return p;
}

/* A reproducible pseudo-random number in [-1, 1]. */
static double next_random(unsigned *state)
{
  *state = *state * 1103515245u + 12345u;
  return ((*state >> 8) & 0xffff) / 32768.0 - 1.0;
}

static int in_pattern(const mbdae_jac_pattern *pat, int i, int j)
{
  for (int s = pat->colptr[j]; s < pat->colptr[j + 1]; s++) {
    if (pat->rowind[s] == i) {
      return 1;
    }
  }
  return 0;
}

/* Every nonzero of the dense dF/dy and dF/dy' at (y, yp) lies in the pattern, and the pattern
 * values equal the dense ones to rounding; returns the failures. */
static int compare_with_dense(const mbdae_problem *p, const mbdae_jac_pattern *pat, const double *y,
                              const double *yp)
{
  size_t n = (size_t)pat->neq, nnz = pat->nnz;
  double *dense = malloc(sizeof(double) * 2 * n * n), *values = malloc(sizeof(double) * 2 * nnz);
  int bad = !dense || !values || mbdae_problem_jac(p, 0.0, y, yp, dense, dense + n * n) != 0 ||
            mbdae_problem_jac_values(p, 0.0, y, yp, values, values + nnz) != 0;
  for (size_t j = 0; !bad && j < n; j++) {
    for (size_t i = 0; i < n; i++) {
      int outside = (dense[i + j * n] != 0.0 || dense[n * n + i + j * n] != 0.0) &&
                    !in_pattern(pat, (int)i, (int)j);
      bad += outside;
    }
    for (int s = pat->colptr[j]; s < pat->colptr[j + 1]; s++) {
      for (size_t m = 0; m < 2; m++) {
        double want = dense[m * n * n + (size_t)pat->rowind[s] + j * n], got = values[m * nnz + s];
        bad += fabs(got - want) > 1e-12 * (1.0 + fabs(want));
      }
    }
  }
  free(dense);
  free(values);
  return bad;
}

static void pattern_of(const char *spec, int n, int form)
{
  mbdae_problem *p = create(spec);
  if (!p) {
    return;
  }
  mbdae_jac_pattern pat;
  mbdae_problem_jac_pattern(p, &pat);
  size_t neq = (size_t)pat.neq;
  CHECK(pat.kind == MBDAE_JAC_BAND && pat.colptr && pat.neq == mbdae_problem_neq(p), "%s: band",
        spec);
  CHECK(n < 3 || (pat.ml == BANDS[form][0] && pat.mu == BANDS[form][1]),
        "%s: ml %d mu %d, expected %d %d", spec, pat.ml, pat.mu, BANDS[form][0], BANDS[form][1]);
  double *y = malloc(sizeof(double) * 2 * neq), *yp = y ? y + neq : NULL;
  unsigned state = 12345u + (unsigned)(7 * n + form);
  for (int trial = 0; y && pat.colptr && trial < 3; trial++) {
    mbdae_problem_init(p, y, yp);
    for (size_t i = 0; trial > 0 && i < neq; i++) { /* random points near the start */
      y[i] += next_random(&state);
      yp[i] += next_random(&state);
    }
    CHECK(compare_with_dense(p, &pat, y, yp) == 0, "%s trial %d: pattern values", spec, trial);
  }
  free(y);
  mbdae_problem_destroy(p);
}

static void patterns_cover_the_dense_jacobian(void)
{
  const int sizes[] = {1, 2, 3, 4, 5, 6, 7, 8, 12, 30};
  for (size_t s = 0; s < sizeof sizes / sizeof sizes[0]; s++) {
    for (int f = 0; f < NFORMS; f++) {
      char spec[160];
      snprintf(spec, sizeof spec, "chain:n=%d,m=1.5,l=0.75,theta=0.4,omega=-0.7,form=%s", sizes[s],
               FORMS[f]);
      pattern_of(spec, sizes[s], f);
    }
  }
  mbdae_problem *p = create("chain:n=4,form=ssf");
  mbdae_jac_pattern pat;
  mbdae_problem_jac_pattern(p, &pat);
  CHECK(pat.kind == MBDAE_JAC_DENSE && !pat.colptr, "form=ssf stays dense");
  mbdae_problem_destroy(p);
}

/* A spec of n links with per-link masses, lengths and angles (short, as specs are bounded). */
static void varied_spec(int n, const char *form, char *spec, size_t len)
{
  int used = snprintf(spec, len, "chain:n=%d,form=%s,omega=0.5", n, form);
  const char *keys[] = {"m", "l", "theta"};
  for (int key = 0; key < 3; key++) {
    used += snprintf(spec + used, len - (size_t)used, ",%s=", keys[key]);
    for (int k = 0; k < n; k++) {
      double value[] = {1.0 + k % 2, link_length(k), 0.1 * (k % 4) - 0.1};
      used += snprintf(spec + used, len - (size_t)used, "%s%g", k ? ":" : "", value[key]);
    }
  }
}

/* The tridiagonal start of 12 links: the angular accelerations its Cartesian accelerations
 * imply, alpha_k = ((a_k - a_{k-1}) x cos theta_k - (a_k - a_{k-1}) y sin theta_k) / l_k, are the
 * state-space form's (Lagrange's equations, solved densely). */
static void long_start_matches_the_kinetic_metric(void)
{
  enum { N = 12 };
  char spec[1024];
  varied_spec(N, "index3", spec, sizeof spec);
  mbdae_problem *cart = create(spec);
  varied_spec(N, "ssf", spec, sizeof spec);
  mbdae_problem *ssf = create(spec);
  double y[LINK * N], yp[LINK * N], z[2 * N], zp[2 * N], r[LINK * N], worst = 0.0, res = 0.0;
  int rc = cart && ssf ? mbdae_problem_init(cart, y, yp) | mbdae_problem_init(ssf, z, zp) : -1;
  rc |= cart ? mbdae_problem_res(cart, 0.0, y, yp, r) : -1;
  for (int k = 0; rc == 0 && k < N; k++) {
    double dax = yp[LINK * k + AT_VEL] - (k ? yp[LINK * (k - 1) + AT_VEL] : 0.0);
    double day = yp[LINK * k + AT_VEL + 1] - (k ? yp[LINK * (k - 1) + AT_VEL + 1] : 0.0);
    double l = link_length(k), alpha = (dax * cos(z[k]) - day * sin(z[k])) / l;
    worst = fmax(worst, fabs(alpha - zp[N + k]) / (1.0 + fabs(zp[N + k])));
  }
  for (int i = 0; rc == 0 && i < LINK * N; i++) {
    res = fmax(res, fabs(r[i]));
  }
  CHECK(rc == 0 && worst < 1e-12, "alpha of the tridiagonal start: rc %d, error %g", rc, worst);
  CHECK(rc == 0 && res < 1e-12, "index3 residual at the start: %g", res);
  mbdae_problem_destroy(cart);
  mbdae_problem_destroy(ssf);
}

/* d_k(vec) of a link-ordered y with stride s and the vector at offset off of each link. */
static void rod_of(const double *y, int s, int off, int k, double d[2])
{
  for (int c = 0; c < 2; c++) {
    d[c] = y[s * k + off + c] - (k ? y[s * (k - 1) + off + c] : 0.0);
  }
}

/* (W^T lam)_k, component c: lam_k d_k - lam_{k+1} d_{k+1}, d from the q slots of pos, lam at
 * offset off of each link of mult (stride 6). */
static double reaction(const double *pos, const double *mult, int off, int n, int k, int c)
{
  double d[2], dn[2] = {0.0, 0.0};
  rod_of(pos, LINK_GGL, 0, k, d);
  if (k + 1 < n) {
    rod_of(pos, LINK_GGL, 0, k + 1, dn);
  }
  return mult[LINK_GGL * k + off] * d[c] -
         (k + 1 < n ? mult[LINK_GGL * (k + 1) + off] * dn[c] : 0.0);
}

/* ggl's g' and g'' along q' = u = v - W^T mu, u' = v' - (W^T mu)' (mechanical.h), directly. */
static void ggl_hidden_constraints(void)
{
  enum { N = 12, S = LINK_GGL };
  char spec[1024];
  varied_spec(N, "ggl", spec, sizeof spec);
  mbdae_problem *p = create(spec);
  double y[S * N], yp[S * N], u[S * N], du[S * N], gv[N], ga[N], worst = 0.0;
  int rc = p ? mbdae_problem_init(p, y, yp) : -1;
  unsigned state = 99u;
  for (int i = 0; i < S * N; i++) {
    y[i] += 0.5 * next_random(&state);
    yp[i] += 0.5 * next_random(&state);
  }
  rc |= p ? mbdae_problem_constraints(p, 0.0, y, yp, NULL, gv, ga) : -1;
  for (int k = 0; k < N; k++) { /* u, then u', into the q slots of u and du */
    for (int c = 0; c < 2; c++) {
      u[S * k + c] = y[S * k + AT_VEL + c] - reaction(y, y, AT_MU, N, k, c);
    }
  }
  for (int k = 0; k < N; k++) { /* (W^T mu)' = W^T mu' + (W^T mu along u): bilinear */
    for (int c = 0; c < 2; c++) {
      du[S * k + c] =
          yp[S * k + AT_VEL + c] - reaction(y, yp, AT_MU, N, k, c) - reaction(u, y, AT_MU, N, k, c);
    }
  }
  for (int k = 0; rc == 0 && k < N; k++) {
    double d[2], e[2], f[2];
    rod_of(y, S, 0, k, d);
    rod_of(u, S, 0, k, e);
    rod_of(du, S, 0, k, f);
    double want_v = 2.0 * (d[0] * e[0] + d[1] * e[1]);
    double want_a = 2.0 * (e[0] * e[0] + e[1] * e[1] + d[0] * f[0] + d[1] * f[1]);
    worst = fmax(worst, fabs(gv[k] - want_v) / (1.0 + fabs(want_v)));
    worst = fmax(worst, fabs(ga[k] - want_a) / (1.0 + fabs(want_a)));
  }
  CHECK(rc == 0 && worst < 1e-12, "ggl hidden constraints: rc %d, error %g", rc, worst);
  mbdae_problem_destroy(p);
}

/* 10^4 links in each Cartesian form: create, start, residual, pattern values and hidden
 * constraints all complete (a dense n^2 step would need gigabytes), the pattern has O(n)
 * entries, and the start is consistent. */
static void ten_thousand_links(void)
{
  enum { N = 10000 };
  for (int f = 0; f < NFORMS; f++) {
    char spec[128];
    snprintf(spec, sizeof spec, "chain:n=%d,theta=0.4,omega=0.1,form=%s", N, FORMS[f]);
    mbdae_problem *p = create(spec);
    if (!p) {
      continue;
    }
    mbdae_jac_pattern pat;
    mbdae_problem_jac_pattern(p, &pat);
    size_t neq = (size_t)mbdae_problem_neq(p);
    double *y = malloc(sizeof(double) * (4 * neq + 2 * pat.nnz + 3 * N));
    if (!y) {
      CHECK(y, "memory");
      mbdae_problem_destroy(p);
      continue;
    }
    double *yp = y + neq, *r = yp + neq, *values = r + neq, *g = values + 2 * pat.nnz;
    int rc = mbdae_problem_init(p, y, yp);
    rc = rc ? rc : mbdae_problem_res(p, 0.0, y, yp, r);
    rc = rc ? rc : mbdae_problem_jac_values(p, 0.0, y, yp, values, values + pat.nnz);
    rc = rc ? rc : mbdae_problem_constraints(p, 0.0, y, yp, g, g + N, g + 2 * N);
    double rabs = 1.0, rrel = 1.0; /* the run's check of the start: over the pattern */
    rc = rc ? rc : mbdae_problem_residual_size(p, 0.0, y, yp, &rabs, &rrel);
    CHECK(rc == 0 && rrel < 1e-12, "%s: relative residual at the start %g", spec, rrel);
    double worst = 0.0;
    for (size_t i = 0; rc == 0 && i < neq; i++) {
      worst = fmax(worst, fabs(r[i]));
    }
    CHECK(rc == 0, "%s: %s", spec, mbdae_strerror(rc));
    CHECK(worst < 1e-9, "%s: residual at the start %g", spec, worst);
    CHECK(pat.kind == MBDAE_JAC_BAND && pat.nnz <= 40 * (size_t)N, "%s: nnz %zu", spec, pat.nnz);
    CHECK(pat.ml == BANDS[f][0] && pat.mu == BANDS[f][1], "%s: ml %d mu %d", spec, pat.ml, pat.mu);
    free(y);
    mbdae_problem_destroy(p);
  }
}

/* FNV-1a over the bytes of n doubles, continuing from hash. */
static unsigned long long fnv(unsigned long long hash, const double *v, size_t n)
{
  const unsigned char *b = (const unsigned char *)v;
  for (size_t i = 0; i < n * sizeof(double); i++) {
    hash = (hash ^ b[i]) * 0x100000001b3ull;
  }
  return hash;
}

/* Eight links, as before issue 15 bit for bit: the start (the kinetic-metric solve) and the
 * residual at a random point of index1 and baumgarte (now dividing by M's diagonal instead of
 * factoring M), hashed; the hashes are those of the build of commit b86281b. */
static void eight_links_as_before(void)
{
  const char *specs[] = {"chain:n=8,m=1.5,l=0.7,theta=0.3:1:2:0.1:0.2:0.3:0.4:0.5,omega=0.5,"
                         "form=index1",
                         "chain:n=8,m=1.5,l=0.7,theta=0.3:1:2:0.1:0.2:0.3:0.4:0.5,omega=0.5,"
                         "form=baumgarte,alpha=3,beta=7"};
  const unsigned long long before[] = {0xa4e387c1b847ba30ull, 0xf1fcb57ceae6003dull};
  for (int s = 0; s < 2; s++) {
    mbdae_problem *p = create(specs[s]);
    double y[LINK * 8], yp[LINK * 8], r[LINK * 8];
    int rc = p ? mbdae_problem_init(p, y, yp) : -1;
    unsigned long long hash = fnv(fnv(0xcbf29ce484222325ull, y, LINK * 8), yp, LINK * 8);
    unsigned state = 5u;
    for (int i = 0; i < LINK * 8; i++) {
      y[i] += next_random(&state);
      yp[i] += next_random(&state);
    }
    rc |= p ? mbdae_problem_res(p, 0.0, y, yp, r) : -1;
    hash = fnv(hash, r, LINK * 8);
    CHECK(rc == 0 && hash == before[s], "%s: hash %#llx", specs[s], hash);
    mbdae_problem_destroy(p);
  }
}

int main(void)
{
  eight_links_as_before();
  patterns_cover_the_dense_jacobian();
  long_start_matches_the_kinetic_metric();
  ggl_hidden_constraints();
  ten_thousand_links();
  return check_summary("test_chain_scale");
}
