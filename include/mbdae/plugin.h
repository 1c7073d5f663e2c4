/* mbdae/plugin.h: what a plug-in (a shared object the mbdae command loads with --plugin)
 * exports, the plug-in ABI number, and the loader the command and the Python module use. */
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

/* ---- loading a plug-in (the command's --plugin, Python's mbdae.load_plugin) --------------- */

/* A loaded plug-in: its shared object, open, and the types it offers, checked. */
typedef struct mbdae_plugin mbdae_plugin;

/* Load the plug-in file: dlopen(RTLD_NOW | RTLD_LOCAL) (a name without '/' is a file of the
 * current folder, never one the linker searches for), then its entry points called with
 * MBDAE_PLUGIN_ABI and every type checked: a solver type by mbdae_solver_type_invalid (size,
 * id, title, integrate), a problem type by mbdae_problem_from_type; at most 64 of each; an id
 * refused when it is longer than MBDAE_RECORD_ID_LEN - 1, a built-in's, or offered before by
 * one of the nloaded plug-ins of loaded or by an earlier entry of the same list.  Taken whole
 * or not at all: 0 and *out (release with mbdae_plugin_unload), or MBDAE_ERR_ARG (a refusal:
 * *out NULL, why in msg, which names no file: the caller says how it named it) or
 * MBDAE_ERR_NOMEM.  The library keeps no state: the caller keeps the loaded plug-ins. */
MBDAE_API int mbdae_plugin_load(const char *file, const mbdae_plugin *const *loaded, int nloaded,
                                mbdae_plugin **out, char *msg, size_t msglen);
/* Close it (its types are gone with it); NULL is ignored. */
MBDAE_API void mbdae_plugin_unload(mbdae_plugin *pl);
/* The file as given to mbdae_plugin_load. */
MBDAE_API const char *mbdae_plugin_file(const mbdae_plugin *pl);
/* Its solver and problem types; NULL for i out of range. */
MBDAE_API int mbdae_plugin_solver_count(const mbdae_plugin *pl);
MBDAE_API const mbdae_solver_type *mbdae_plugin_solver_type(const mbdae_plugin *pl, int i);
MBDAE_API int mbdae_plugin_problem_count(const mbdae_plugin *pl);
MBDAE_API const mbdae_problem_type *mbdae_plugin_problem_type(const mbdae_plugin *pl, int i);

#ifdef __cplusplus
}
#endif

#endif /* MBDAE_PLUGIN_H */
