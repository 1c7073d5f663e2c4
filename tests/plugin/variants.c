/* Plug-ins for tests/test_plugin.c, one per build of this file (tests/CMakeLists.txt defines one
 * PLUGIN_<variant>):
 *   PLUGIN_DECAY          a good plug-in with one problem, "decay": y1' = -y1, 0 = y2 - y1 on
 *                         [0, 1], y(0) = (1, 1); y(1) = (e^-1, e^-1) exactly
 *   PLUGIN_NO_SYMBOL      exports mbdae_plugin_solver (a typo) instead of mbdae_plugin_solvers
 *   PLUGIN_OLD_ABI        refuses MBDAE_PLUGIN_ABI (returns -1), as a plug-in built for another one
 *   PLUGIN_BAD_ID         a solver id with a character outside [A-Za-z0-9_-]
 *   PLUGIN_BUILTIN_ID     a solver id of a built-in solver (radau5)
 *   PLUGIN_BUILTIN_PROBLEM  the problem "decay" under a built-in problem's id (caraxis)
 *   PLUGIN_BAD_PROBLEM    the problem "decay" with t0 > tend
 *   PLUGIN_HOSTILE        the problem "decay" under a title that attacks gnuplot scripts
 *                         (tests/test_gnuplot_strings.c)
 *   PLUGIN_NO_SIZE        a solver type without .size (0), as one written for mbdae 0.2
 *   PLUGIN_BIG_SIZE       a solver type whose size is larger than the library's, as one built
 *                         against a newer mbdae.h
 *   PLUGIN_PROBLEM_NO_SIZE  the problem "decay" without .size
 *   PLUGIN_CAPS           radau5_copy declaring a capability record: linsys dense only
 *   PLUGIN_BAD_CAPS       a record saying steps = 1, which only a built-in solver can
 *   PLUGIN_OLD_SIZE       a solver type of 0.3's size, ending before caps (a record there is not
 *                         read: this one would be refused) */
#include <math.h>
#include <stddef.h>

#include <mbdae/mbdae.h>

#ifdef PLUGIN_NO_SYMBOL
int mbdae_plugin_solver(int abi, const mbdae_solver_type *const **list);
int mbdae_plugin_solver(int abi, const mbdae_solver_type *const **list)
{
  (void)abi;
  (void)list;
  return 0;
}
#else
static int copy_radau5(const mbdae_problem *p, const mbdae_options *opt, double *y, double *yp,
                       mbdae_result *r)
{
  return mbdae_solver_find("radau5")->integrate(p, opt, y, yp, r);
}

#if defined(PLUGIN_CAPS) || defined(PLUGIN_BAD_CAPS) || defined(PLUGIN_OLD_SIZE)
static const mbdae_solver_caps caps = {
#ifdef PLUGIN_OLD_SIZE
    .size = 0, /* refused, if the library read it */
#else
    .size = sizeof(mbdae_solver_caps),
#endif
    .linsys = MBDAE_LINSYS_BIT(MBDAE_JAC_DENSE),
#ifdef PLUGIN_BAD_CAPS
    .steps = 1,
#endif
    .dense_output = 1,
    .lu_real = 1,
};
#endif

static const mbdae_solver_type solver = {
#if defined(PLUGIN_NO_SIZE)
    .size = 0,
#elif defined(PLUGIN_BIG_SIZE)
    .size = sizeof(mbdae_solver_type) + 16, /* the library must not read past its own struct */
#elif defined(PLUGIN_OLD_SIZE)
    .size = offsetof(mbdae_solver_type, caps),
#else
    .size = sizeof(mbdae_solver_type),
#endif
#if defined(PLUGIN_BAD_ID)
    .id = "my solver",
#elif defined(PLUGIN_BUILTIN_ID)
    .id = "radau5",
#else
    .id = "radau5_copy",
#endif
    .title = "radau5 under another name (test plug-in)",
    .integrate = copy_radau5,
#if defined(PLUGIN_CAPS) || defined(PLUGIN_BAD_CAPS) || defined(PLUGIN_OLD_SIZE)
    .caps = &caps,
#endif
};

static const mbdae_solver_type *const solvers[] = {&solver};

int mbdae_plugin_solvers(int abi, const mbdae_solver_type *const **list)
{
#ifdef PLUGIN_OLD_ABI
  int built_for = MBDAE_PLUGIN_ABI + 1; /* as a plug-in built against another mbdae.h */
#else
  int built_for = MBDAE_PLUGIN_ABI;
#endif
  if (abi != built_for) {
    return -1;
  }
  *list = solvers;
  return 1;
}
#endif

#if defined(PLUGIN_DECAY) || defined(PLUGIN_BUILTIN_PROBLEM) || defined(PLUGIN_BAD_PROBLEM) ||     \
    defined(PLUGIN_HOSTILE) || defined(PLUGIN_PROBLEM_NO_SIZE)
static int decay_init(void *ctx, double *y0, double *yp0)
{
  (void)ctx;
  y0[0] = y0[1] = 1.0;
  yp0[0] = yp0[1] = -1.0;
  return 0;
}

static int decay_res(void *ctx, double t, const double *y, const double *yp, double *res)
{
  (void)ctx;
  (void)t;
  res[0] = yp[0] + y[0];
  res[1] = y[1] - y[0];
  return 0;
}

static int decay_ref(void *ctx, double *yref)
{
  (void)ctx;
  yref[0] = yref[1] = exp(-1.0);
  return 0;
}

static const int decay_index[] = {0, 1};

static const mbdae_problem_type decay = {
#ifndef PLUGIN_PROBLEM_NO_SIZE
    .size = sizeof(mbdae_problem_type),
#endif
#ifdef PLUGIN_BUILTIN_PROBLEM
    .id = "caraxis",
#else
    .id = "decay",
#endif
#ifdef PLUGIN_HOSTILE
    /* each piece would run `touch PWNED...` in a script that took it as gnuplot text */
    .title = "decay `touch PWNED1` \"q\" 'q' system(\"touch PWNED2\")\nsystem(\"touch PWNED3\")\r"
             "$(touch PWNED4) $HOME @m; eval('system(\"touch PWNED5\")') \\",
#else
    .title = "exponential decay with an algebraic copy (test plug-in)",
#endif
    .neq = 2,
#ifdef PLUGIN_BAD_PROBLEM
    .t0 = 1.0,
    .tend = 0.0,
#else
    .t0 = 0.0,
    .tend = 1.0,
#endif
    .index = decay_index,
    .init = decay_init,
    .res = decay_res,
    .ref = decay_ref,
    .ref_source = "exact: y1 = y2 = exp(-t)",
};

static const mbdae_problem_type *const problems[] = {&decay};

int mbdae_plugin_problems(int abi, const mbdae_problem_type *const **list)
{
  if (abi != MBDAE_PLUGIN_ABI) {
    return -1;
  }
  *list = problems;
  return 1;
}
#endif
