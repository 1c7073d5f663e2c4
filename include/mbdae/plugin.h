/* mbdae/plugin.h: what a plug-in (a shared object the mbdae command loads with --plugin)
 * exports, and the plug-in ABI number. */
#ifndef MBDAE_PLUGIN_H
#define MBDAE_PLUGIN_H

#include "base.h"
#include "problem.h"
#include "solve.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ---- plug-ins ----------------------------------------------------------------------------- */

/* A shared object loaded by the mbdae command (--plugin FILE) exports
 *   int mbdae_plugin_solvers(int abi, const mbdae_solver_type *const **list);
 *   int mbdae_plugin_problems(int abi, const mbdae_problem_type *const **list);   (optional)
 * each returning the number of entries it points *list at, or -1 when it does not support abi
 * (the command passes MBDAE_PLUGIN_ABI). */
/* ABI 2 (0.2.0): mbdae_problem_type gained its pattern fields and mbdae_solver_type runs_on,
 * which the loader reads, so a plug-in built against 0.1's header (ABI 1, shorter structs) is
 * refused rather than read past its end.
 * ABI 3: mbdae_solver_type, mbdae_problem_type and mbdae_options begin with size.  From ABI 3
 * on, a field appended to them changes no ABI: the loader reads a plug-in's struct only as far
 * as its size (fields beyond it NULL / 0), and refuses, naming the plug-in and why, a struct of
 * size 0 (.size not set) or one larger than its own (a plug-in built against a newer mbdae.h).
 * MBDAE_PLUGIN_ABI changes only when a struct changes otherwise: mbdae_solver_type's caps
 * (0.4.0), appended after runs_on, left it at 3; a type whose size ends before caps gets the
 * defaults written at mbdae_solver_caps, and the loader refuses a record that breaks its rules. */
#define MBDAE_PLUGIN_ABI 3
typedef int mbdae_plugin_solvers_fn(int abi, const mbdae_solver_type *const **list);
typedef int mbdae_plugin_problems_fn(int abi, const mbdae_problem_type *const **list);

#ifdef __cplusplus
}
#endif

#endif /* MBDAE_PLUGIN_H */
