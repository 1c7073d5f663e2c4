/* Plug-ins of the mbdae command (--plugin FILE): a user's solvers and problems, loaded from a
 * shared object, beside the built-in ones in run, table, sweep, plot, bench and list.
 *
 * The file is opened with dlopen(RTLD_NOW | RTLD_LOCAL): every symbol it needs is resolved at load
 * time (an unresolved one is a load error here, not a crash in the middle of a sweep), and its own
 * symbols do not leak into the next plug-in.  It must export mbdae_plugin_solvers and may export
 * mbdae_plugin_problems (include/mbdae/plugin.h); both are called with
 * MBDAE_PLUGIN_ABI, and a negative count is an ABI mismatch.  Every solver type must pass
 * mbdae_solver_type_invalid (which also checks its capability record, read as far as the type's
 * size reaches) and every problem type mbdae_problem_from_type's checks; an id that is
 * already a built-in or an earlier plug-in's is refused, and so is one too long for a sweep row
 * (MBDAE_RECORD_ID_LEN).  A plug-in is taken whole or not at all.
 *
 * The loaded set is file-static, in this one place: dlopen handles are process-wide by nature, a
 * forked sweep worker inherits them with the rest of the process, and the lookups happen below
 * signatures other files share (execute_run, the sweep's tasks, --report's problems by spec).
 * cli_main empties it after every command (plugin_unload_all), so that an in-process caller (the
 * command-line fuzzer) starts each command with the built-in solvers and problems only.  The
 * library itself keeps no state: it sees only the types passed to mbdae_solve_with and
 * mbdae_problem_from_type. */
#include <dlfcn.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "sweep.h"

enum { MAX_PLUGINS = 32, MAX_PLUGIN_SOLVERS = 64, MAX_PLUGIN_PROBLEMS = 64, MAX_PATH = 4096 };

typedef struct plugin_set {
  void *handles[MAX_PLUGINS];
  int nhandles;
  const mbdae_solver_type *solvers[MAX_PLUGIN_SOLVERS];
  const char *solver_file[MAX_PLUGIN_SOLVERS]; /* the --plugin argument it came from */
  int nsolvers;
  const mbdae_problem_type *problems[MAX_PLUGIN_PROBLEMS];
  const char *problem_file[MAX_PLUGIN_PROBLEMS];
  int nproblems;
} plugin_set;

static plugin_set loaded;

/* Print "mbdae: --plugin FILE: <why>" and return -1. */
static int refuse(const char *file, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

static int refuse(const char *file, const char *fmt, ...)
{
  va_list ap;
  va_start(ap, fmt);
  fprintf(stderr, "mbdae: --plugin %s: ", file);
  vfprintf(stderr, fmt, ap);
  fputc('\n', stderr);
  va_end(ap);
  return -1;
}

/* FILE is a path: "libx.so" means ./libx.so, never a library found through the search path. */
static void *open_file(const char *file)
{
  char path[MAX_PATH];
  if (strlen(file) + 3 > sizeof path) {
    refuse(file, "the file name is too long");
    return NULL;
  }
  snprintf(path, sizeof path, "%s%s", strchr(file, '/') ? "" : "./", file);
  dlerror();
  void *handle = dlopen(path, RTLD_NOW | RTLD_LOCAL);
  if (!handle) {
    const char *why = dlerror();
    refuse(file, "cannot load it as a shared object: %s", why ? why : "dlopen failed");
  }
  return handle;
}

/* The address of the function the file exports as name into *fn (a function pointer), or NULL
 * when it exports none.  dlsym returns an object pointer; POSIX guarantees that it converts to a
 * function pointer, ISO C does not, hence the copy. */
static void find_function(void *handle, const char *name, void *fn, size_t size)
{
  dlerror();
  void *sym = dlsym(handle, name);
  if (dlerror() || size != sizeof sym) {
    sym = NULL;
  }
  memset(fn, 0, size);
  memcpy(fn, &sym, size < sizeof sym ? size : sizeof sym);
}

/* Call an entry point; its count (0..max), or -1 after a message. */
static int entry_count(const char *file, const char *name, int count, const void *list, int max)
{
  if (count < 0) {
    return refuse(file,
                  "%s refused plug-in ABI %d (returned %d): it was built for another "
                  "version of mbdae; rebuild it against this one's mbdae.h",
                  name, MBDAE_PLUGIN_ABI, count);
  }
  if (count > 0 && !list) {
    return refuse(file, "%s returned %d entries but a NULL list", name, count);
  }
  if (count > max) {
    return refuse(file, "%s returned %d entries; at most %d are taken", name, count, max);
  }
  return count;
}

static int builtin_problem(const char *id)
{
  for (int i = 0; i < mbdae_problem_count(); i++) {
    if (strcmp(mbdae_problem_id(i), id) == 0) {
      return 1;
    }
  }
  return 0;
}

/* An id of at most MBDAE_RECORD_ID_LEN - 1 characters (a run record holds no more) that names no
 * built-in or loaded solver (what: "solver") or problem; 0, or -1 after a message. */
static int check_new_id(const char *file, const char *what, const char *id)
{
  if (strlen(id) >= MBDAE_RECORD_ID_LEN) {
    return refuse(file, "%s id '%s' is longer than %d characters (a run record holds no more)",
                  what, id, MBDAE_RECORD_ID_LEN - 1);
  }
  int solver = strcmp(what, "solver") == 0;
  if (solver ? mbdae_solver_find(id) != NULL : builtin_problem(id)) {
    return refuse(file, "%s id '%s' is a built-in %s's; give it another id", what, id, what);
  }
  int n = solver ? loaded.nsolvers : loaded.nproblems;
  for (int i = 0; i < n; i++) {
    const char *other = solver ? loaded.solvers[i]->id : loaded.problems[i]->id;
    if (strcmp(other, id) == 0) {
      return refuse(file, "%s id '%s' is already taken by --plugin %s", what, id,
                    solver ? loaded.solver_file[i] : loaded.problem_file[i]);
    }
  }
  return 0;
}

static int take_solvers(const char *file, void *handle)
{
  mbdae_plugin_solvers_fn *entry = NULL;
  find_function(handle, "mbdae_plugin_solvers", &entry, sizeof entry);
  if (!entry) {
    return refuse(file, "exports no mbdae_plugin_solvers (a plug-in must; see README.md, \"Your "
                        "solver in the tables\")");
  }
  const mbdae_solver_type *const *list = NULL;
  int count = entry(MBDAE_PLUGIN_ABI, &list);
  int n =
      entry_count(file, "mbdae_plugin_solvers", count, list, MAX_PLUGIN_SOLVERS - loaded.nsolvers);
  for (int i = 0; i < n; i++) {
    const char *why = list[i] ? mbdae_solver_type_invalid(list[i]) : "a NULL entry";
    if (why) {
      return refuse(file, "solver %d of mbdae_plugin_solvers: %s", i + 1, why);
    }
    if (check_new_id(file, "solver", list[i]->id) != 0) {
      return -1;
    }
    loaded.solvers[loaded.nsolvers] = list[i];
    loaded.solver_file[loaded.nsolvers++] = file;
  }
  return n < 0 ? -1 : 0;
}

static int take_problems(const char *file, void *handle)
{
  mbdae_plugin_problems_fn *entry = NULL;
  find_function(handle, "mbdae_plugin_problems", &entry, sizeof entry);
  if (!entry) {
    return 0; /* optional */
  }
  const mbdae_problem_type *const *list = NULL;
  int count = entry(MBDAE_PLUGIN_ABI, &list);
  int n = entry_count(file, "mbdae_plugin_problems", count, list,
                      MAX_PLUGIN_PROBLEMS - loaded.nproblems);
  for (int i = 0; i < n; i++) {
    char msg[512];
    mbdae_problem *p = NULL;
    if (!list[i]) {
      return refuse(file, "problem %d of mbdae_plugin_problems: a NULL entry", i + 1);
    }
    if (mbdae_problem_from_type(list[i], NULL, &p, msg, sizeof msg) != 0) {
      return refuse(file, "problem %d of mbdae_plugin_problems: %s", i + 1, msg);
    }
    mbdae_problem_destroy(p);
    if (check_new_id(file, "problem", list[i]->id) != 0) {
      return -1;
    }
    loaded.problems[loaded.nproblems] = list[i];
    loaded.problem_file[loaded.nproblems++] = file;
  }
  return n < 0 ? -1 : 0;
}

int plugin_load(const char *file)
{
  if (loaded.nhandles == MAX_PLUGINS) {
    return refuse(file, "at most %d plug-ins", MAX_PLUGINS);
  }
  void *handle = open_file(file);
  if (!handle) {
    return -1;
  }
  int nsolvers = loaded.nsolvers, nproblems = loaded.nproblems;
  if (take_solvers(file, handle) != 0 || take_problems(file, handle) != 0) {
    loaded.nsolvers = nsolvers; /* all or nothing */
    loaded.nproblems = nproblems;
    dlclose(handle);
    return -1;
  }
  loaded.handles[loaded.nhandles++] = handle;
  return 0;
}

void plugin_unload_all(void)
{
  for (int i = loaded.nhandles - 1; i >= 0; i--) {
    dlclose(loaded.handles[i]);
  }
  memset(&loaded, 0, sizeof loaded);
}

int plugin_solver_count(void) { return loaded.nsolvers; }

const mbdae_solver_type *plugin_solver(int i)
{
  return i >= 0 && i < loaded.nsolvers ? loaded.solvers[i] : NULL;
}

const char *plugin_solver_file(int i)
{
  return i >= 0 && i < loaded.nsolvers ? loaded.solver_file[i] : NULL;
}

int plugin_problem_count(void) { return loaded.nproblems; }

const mbdae_problem_type *plugin_problem(int i)
{
  return i >= 0 && i < loaded.nproblems ? loaded.problems[i] : NULL;
}

const char *plugin_problem_file(int i)
{
  return i >= 0 && i < loaded.nproblems ? loaded.problem_file[i] : NULL;
}

const mbdae_solver_type *cli_solver_find(const char *id)
{
  const mbdae_solver_type *type = mbdae_solver_find(id);
  for (int i = 0; !type && i < loaded.nsolvers; i++) {
    type = strcmp(loaded.solvers[i]->id, id) == 0 ? loaded.solvers[i] : NULL;
  }
  return type;
}

const mbdae_problem_type *plugin_problem_find(const char *id, size_t len)
{
  for (int i = 0; i < loaded.nproblems; i++) {
    const char *other = loaded.problems[i]->id;
    if (strlen(other) == len && strncmp(other, id, len) == 0) {
      return loaded.problems[i];
    }
  }
  return NULL;
}

int cli_solve(const mbdae_problem *p, const char *solver, const mbdae_options *opt, int repeats,
              double *y, double *yp, mbdae_result *r)
{
  const mbdae_solver_type *type = cli_solver_find(solver);
  /* an unknown name: mbdae_solve's message, which names the built-in solvers */
  return type ? mbdae_solve_with(p, type, opt, repeats, y, yp, r)
              : mbdae_solve(p, solver, opt, repeats, y, yp, r);
}
