/* The plug-in loader (mbdae_plugin_load): a user's solvers and problems from a shared object, as
 * the mbdae command's --plugin and Python's mbdae.load_plugin take them.
 *
 * The file is opened with dlopen(RTLD_NOW | RTLD_LOCAL): every symbol it needs is resolved at load
 * time (an unresolved one is a load error here, not a crash in the middle of a sweep), and its own
 * symbols do not leak into the next plug-in.  A name without '/' is a file of the current folder
 * ("libx.so" is ./libx.so), never a library found through the search path.  It must export
 * mbdae_plugin_solvers and may export mbdae_plugin_problems (include/mbdae/plugin.h); both are
 * called with MBDAE_PLUGIN_ABI, and a negative count is an ABI mismatch.  Every solver type must
 * pass mbdae_solver_type_invalid and every problem type mbdae_problem_from_type's checks; an id
 * that is already a built-in's, an earlier plug-in's or an earlier entry's of the same list is
 * refused, and so is one too long for a run record (MBDAE_RECORD_ID_LEN).  A plug-in is taken
 * whole or not at all.  The loader keeps no state: the caller holds the loaded plug-ins (the
 * command for one command, Python for the process) and passes them to the next load. */
#include <dlfcn.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mbdae/mbdae.h"

enum { MAX_PLUGIN_TYPES = 64, MAX_PATH = 4096 };

struct mbdae_plugin {
  void *handle;                            /* dlopen's */
  char *file;                              /* as the caller named it */
  const mbdae_solver_type *const *solvers; /* the plug-in's list, nsolvers entries */
  int nsolvers;
  const mbdae_problem_type *const *problems; /* nproblems entries (NULL: none) */
  int nproblems;
};

/* What a load checks a new id against: the plug-ins loaded before, and the plug-in itself. */
typedef struct load_ctx {
  const char *file;
  const mbdae_plugin *const *loaded;
  int nloaded;
  const mbdae_plugin *self;
  char *msg;
  size_t msglen;
} load_ctx;

/* Write <why> into the caller's message and return MBDAE_ERR_ARG. */
static int refuse(const load_ctx *c, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

static int refuse(const load_ctx *c, const char *fmt, ...)
{
  va_list ap;
  va_start(ap, fmt);
  if (c->msg && c->msglen > 0) {
    vsnprintf(c->msg, c->msglen, fmt, ap);
  }
  va_end(ap);
  return MBDAE_ERR_ARG;
}

/* FILE is a path: "libx.so" means ./libx.so, never a library found through the search path. */
static void *open_file(const load_ctx *c)
{
  char path[MAX_PATH];
  if (strlen(c->file) + 3 > sizeof path) {
    refuse(c, "the file name is too long");
    return NULL;
  }
  snprintf(path, sizeof path, "%s%s", strchr(c->file, '/') ? "" : "./", c->file);
  dlerror();
  void *handle = dlopen(path, RTLD_NOW | RTLD_LOCAL);
  if (!handle) {
    const char *why = dlerror();
    refuse(c, "cannot load it as a shared object: %s", why ? why : "dlopen failed");
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

/* Call an entry point; its count (0..max), or a negative code after a message. */
static int entry_count(const load_ctx *c, const char *name, int count, const void *list, int max)
{
  if (count < 0) {
    return refuse(c,
                  "%s refused plug-in ABI %d (returned %d): it was built for another "
                  "version of mbdae; rebuild it against this one's mbdae.h",
                  name, MBDAE_PLUGIN_ABI, count);
  }
  if (count > 0 && !list) {
    return refuse(c, "%s returned %d entries but a NULL list", name, count);
  }
  if (count > max) {
    return refuse(c, "%s returned %d entries; at most %d are taken", name, count, max);
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

/* The plug-in of loaded (or self, its first n entries) that offers a solver (what: "solver") or
 * problem named id, or NULL. */
static const mbdae_plugin *taken_by(const load_ctx *c, int solver, const char *id)
{
  for (int k = 0; k <= c->nloaded; k++) {
    const mbdae_plugin *pl = k < c->nloaded ? c->loaded[k] : c->self;
    int n = solver ? pl->nsolvers : pl->nproblems;
    for (int i = 0; i < n; i++) {
      if (strcmp(solver ? pl->solvers[i]->id : pl->problems[i]->id, id) == 0) {
        return pl;
      }
    }
  }
  return NULL;
}

/* An id of at most MBDAE_RECORD_ID_LEN - 1 characters (a run record holds no more) that names no
 * built-in or loaded solver (what: "solver") or problem; 0, or a negative code after a message. */
static int check_new_id(const load_ctx *c, const char *what, const char *id)
{
  if (strlen(id) >= MBDAE_RECORD_ID_LEN) {
    return refuse(c, "%s id '%s' is longer than %d characters (a run record holds no more)", what,
                  id, MBDAE_RECORD_ID_LEN - 1);
  }
  int solver = strcmp(what, "solver") == 0;
  if (solver ? mbdae_solver_find(id) != NULL : builtin_problem(id)) {
    return refuse(c, "%s id '%s' is a built-in %s's; give it another id", what, id, what);
  }
  const mbdae_plugin *other = taken_by(c, solver, id);
  if (other) {
    return refuse(c, "%s id '%s' is already taken by plug-in %s", what, id, other->file);
  }
  return 0;
}

static int take_solvers(const load_ctx *c, mbdae_plugin *pl)
{
  mbdae_plugin_solvers_fn *entry = NULL;
  find_function(pl->handle, "mbdae_plugin_solvers", &entry, sizeof entry);
  if (!entry) {
    return refuse(c, "exports no mbdae_plugin_solvers (a plug-in must; see README.md, \"Your "
                     "solver in the tables\")");
  }
  const mbdae_solver_type *const *list = NULL;
  int count = entry(MBDAE_PLUGIN_ABI, &list);
  int n = entry_count(c, "mbdae_plugin_solvers", count, list, MAX_PLUGIN_TYPES);
  pl->solvers = list;
  for (int i = 0; i < n; i++) {
    const char *why = list[i] ? mbdae_solver_type_invalid(list[i]) : "a NULL entry";
    if (why) {
      return refuse(c, "solver %d of mbdae_plugin_solvers: %s", i + 1, why);
    }
    if (check_new_id(c, "solver", list[i]->id) != 0) {
      return MBDAE_ERR_ARG;
    }
    pl->nsolvers = i + 1;
  }
  return n < 0 ? n : 0;
}

static int take_problems(const load_ctx *c, mbdae_plugin *pl)
{
  mbdae_plugin_problems_fn *entry = NULL;
  find_function(pl->handle, "mbdae_plugin_problems", &entry, sizeof entry);
  if (!entry) {
    return 0; /* optional */
  }
  const mbdae_problem_type *const *list = NULL;
  int count = entry(MBDAE_PLUGIN_ABI, &list);
  int n = entry_count(c, "mbdae_plugin_problems", count, list, MAX_PLUGIN_TYPES);
  pl->problems = list;
  for (int i = 0; i < n; i++) {
    char msg[512];
    mbdae_problem *p = NULL;
    if (!list[i]) {
      return refuse(c, "problem %d of mbdae_plugin_problems: a NULL entry", i + 1);
    }
    if (mbdae_problem_from_type(list[i], NULL, &p, msg, sizeof msg) != 0) {
      return refuse(c, "problem %d of mbdae_plugin_problems: %s", i + 1, msg);
    }
    mbdae_problem_destroy(p);
    if (check_new_id(c, "problem", list[i]->id) != 0) {
      return MBDAE_ERR_ARG;
    }
    pl->nproblems = i + 1;
  }
  return n < 0 ? n : 0;
}

int mbdae_plugin_load(const char *file, const mbdae_plugin *const *loaded, int nloaded,
                      mbdae_plugin **out, char *msg, size_t msglen)
{
  load_ctx c = {file ? file : "", loaded, nloaded, NULL, msg, msglen};
  if (out) {
    *out = NULL;
  }
  if (!file || !out || nloaded < 0 || (nloaded > 0 && !loaded)) {
    return refuse(&c, "mbdae_plugin_load: no file, no output or a bad list of loaded plug-ins");
  }
  mbdae_plugin *pl = calloc(1, sizeof *pl);
  char *name = malloc(strlen(file) + 1);
  if (!pl || !name) {
    free(pl);
    free(name);
    refuse(&c, "out of memory");
    return MBDAE_ERR_NOMEM;
  }
  pl->file = strcpy(name, file);
  c.self = pl;
  pl->handle = open_file(&c);
  int rc = pl->handle ? take_solvers(&c, pl) : MBDAE_ERR_ARG;
  rc = rc == 0 ? take_problems(&c, pl) : rc;
  if (rc != 0) { /* all or nothing */
    mbdae_plugin_unload(pl);
    return rc;
  }
  *out = pl;
  return MBDAE_OK;
}

void mbdae_plugin_unload(mbdae_plugin *pl)
{
  if (pl) {
    if (pl->handle) {
      dlclose(pl->handle);
    }
    free(pl->file);
    free(pl);
  }
}

const char *mbdae_plugin_file(const mbdae_plugin *pl) { return pl ? pl->file : NULL; }

int mbdae_plugin_solver_count(const mbdae_plugin *pl) { return pl ? pl->nsolvers : 0; }

const mbdae_solver_type *mbdae_plugin_solver_type(const mbdae_plugin *pl, int i)
{
  return pl && i >= 0 && i < pl->nsolvers ? pl->solvers[i] : NULL;
}

int mbdae_plugin_problem_count(const mbdae_plugin *pl) { return pl ? pl->nproblems : 0; }

const mbdae_problem_type *mbdae_plugin_problem_type(const mbdae_plugin *pl, int i)
{
  return pl && i >= 0 && i < pl->nproblems ? pl->problems[i] : NULL;
}
