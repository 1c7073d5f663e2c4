/* Test plug-ins of the Python tests (python/tests/test_setup.py) that offer one id twice, which
 * mbdae.load_plugin must refuse as the command's --plugin does: two solvers named "twice"
 * (TWICE_SOLVER), or one solver and two problems named "twice_problem" (TWICE_PROBLEM).  Built
 * without -lmbdae: they use no function of the library. */
#include <mbdae/mbdae.h>

static int fail(const mbdae_problem *p, const mbdae_options *opt, double *y, double *yp,
                mbdae_result *r)
{
  (void)p;
  (void)opt;
  (void)y;
  (void)yp;
  r->status = MBDAE_ERR_UNSUPPORTED;
  return r->status;
}

static const mbdae_solver_type first = {
    .size = sizeof(mbdae_solver_type), .id = "twice", .title = "first", .integrate = fail};
#ifdef TWICE_SOLVER
static const mbdae_solver_type second = {
    .size = sizeof(mbdae_solver_type), .id = "twice", .title = "second", .integrate = fail};
static const mbdae_solver_type *const solvers[] = {&first, &second};
#else
static const mbdae_solver_type *const solvers[] = {&first};
#endif

int mbdae_plugin_solvers(int abi, const mbdae_solver_type *const **list)
{
  if (abi != MBDAE_PLUGIN_ABI) {
    return -1;
  }
  *list = solvers;
  return (int)(sizeof solvers / sizeof solvers[0]);
}

#ifdef TWICE_PROBLEM
static int one_init(void *ctx, double *y0, double *yp0)
{
  (void)ctx;
  y0[0] = 1.0;
  yp0[0] = 0.0;
  return 0;
}

static int one_res(void *ctx, double t, const double *y, const double *yp, double *res)
{
  (void)ctx;
  (void)t;
  (void)y;
  res[0] = yp[0];
  return 0;
}

static const int one_index[] = {0};

static const mbdae_problem_type one = {.size = sizeof(mbdae_problem_type),
                                       .id = "twice_problem",
                                       .title = "y' = 0 (test plug-in)",
                                       .neq = 1,
                                       .t0 = 0.0,
                                       .tend = 1.0,
                                       .index = one_index,
                                       .init = one_init,
                                       .res = one_res};
static const mbdae_problem_type *const problems[] = {&one, &one};

int mbdae_plugin_problems(int abi, const mbdae_problem_type *const **list)
{
  if (abi != MBDAE_PLUGIN_ABI) {
    return -1;
  }
  *list = problems;
  return 2;
}
#endif
