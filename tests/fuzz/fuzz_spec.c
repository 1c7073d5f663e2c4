/* libFuzzer target: the problem spec parser.  The input bytes, NUL-terminated, are a spec for
 * mbdae_problem_create; when it succeeds, every accessor and the evaluations at the initial
 * values (residual, Jacobian, hidden constraints, residual size, Jacobian check, reference) run
 * on the instance, so a spec that creates a half-configured problem shows up under ASan/UBSan.
 * Build: cmake -DMBDAE_FUZZ=ON with clang (tests/fuzz/CMakeLists.txt); seeds in corpus/spec/. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "mbdae/mbdae.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* Evaluate everything the API offers at the initial values of p. */
/* The dense Jacobian call needs neq^2 doubles; a spec such as chain:n=5555 is valid and would
 * ask for 12 GB of them.  It is exercised up to DENSE_MAX_NEQ; the residual size and the
 * Jacobian check, O(nnz + neq) for a band or sparse pattern (issue 15), run up to
 * PATTERN_MAX_NEQ for such a problem. */
enum { DENSE_MAX_NEQ = 300, PATTERN_MAX_NEQ = 100000 };

static void exercise(const mbdae_problem *p)
{
  size_t n = (size_t)mbdae_problem_neq(p);
  size_t nc = (size_t)mbdae_problem_nconstraints(p);
  size_t nn = n <= DENSE_MAX_NEQ ? n * n : 0;
  double *y = calloc(5 * n + 2 * nn + 3 * nc + 1, sizeof(double));
  if (!y) {
    return;
  }
  double *yp = y + n, *res = yp + n, *yref = res + n, *dfdy = yref + n, *dfdyp = dfdy + nn;
  double *g = dfdyp + nn, *gv = g + nc, *ga = gv + nc;
  /* Read every per-variable value, through a volatile sink so that ASan sees the reads. */
  const int *index = mbdae_problem_index(p);
  volatile int sink = 0;
  for (size_t i = 0; i < n; i++) {
    sink += index[i] + mbdae_problem_in_scd(p, (int)i);
  }
  (void)sink;
  mbdae_tolerance_plan plan = MBDAE_TOLERANCE_PLAN_INIT;
  mbdae_problem_tolerances(p, &plan);
  (void)mbdae_problem_spec(p), (void)mbdae_problem_title(p), (void)mbdae_problem_ref_source(p);
  double t0 = mbdae_problem_t0(p), e1 = 0.0, e2 = 0.0;
  if (mbdae_problem_init(p, y, yp) == 0) {
    mbdae_problem_res(p, t0, y, yp, res);
    mbdae_problem_constraints(p, t0, y, yp, g, gv, ga);
    if (nn > 0) {
      mbdae_problem_jac(p, t0, y, yp, dfdy, dfdyp);
    }
    mbdae_jac_pattern pat;
    mbdae_problem_jac_pattern(p, &pat);
    if (nn > 0 || (pat.colptr && n <= PATTERN_MAX_NEQ)) {
      mbdae_problem_residual_size(p, t0, y, yp, &e1, &e2);
      mbdae_jac_check jc = MBDAE_JAC_CHECK_INIT;
      mbdae_problem_check_jac(p, t0, y, yp, &jc);
    }
  }
  if (mbdae_problem_ref(p, yref) == 0) {
    (void)mbdae_scd(p, yref, yref);
  }
  free(y);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
  char *spec = malloc(size + 1);
  if (!spec) {
    return 0;
  }
  memcpy(spec, data, size);
  spec[size] = '\0';
  mbdae_problem *p = NULL;
  char msg[256];
  if (mbdae_problem_create(spec, &p, msg, sizeof msg) == 0) {
    exercise(p);
  }
  mbdae_problem_destroy(p);
  free(spec);
  return 0;
}
