/* Plug-ins of the mbdae command (--plugin FILE): a user's solvers and problems, loaded from a
 * shared object by the library's loader (mbdae_plugin_load, which checks them; include/mbdae/
 * plugin.h), beside the built-in ones in run, table, sweep, plot, bench and list.
 *
 * The loaded set is file-static, in this one place: dlopen handles are process-wide by nature, a
 * forked sweep worker inherits them with the rest of the process, and the lookups happen below
 * signatures other files share (execute_run, the sweep's tasks, --report's problems by spec).
 * cli_main empties it after every command (plugin_unload_all), so that an in-process caller (the
 * command-line fuzzer) starts each command with the built-in solvers and problems only.  The
 * library itself keeps no state: it sees only the plug-ins passed to mbdae_plugin_load and the
 * types passed to mbdae_solve_with and mbdae_problem_from_type. */
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "sweep.h"

enum { MAX_PLUGINS = 32 };

typedef struct plugin_set {
  mbdae_plugin *plugins[MAX_PLUGINS];
  int nplugins;
} plugin_set;

static plugin_set loaded;

int plugin_load(const char *file)
{
  if (loaded.nplugins == MAX_PLUGINS) {
    fprintf(stderr, "mbdae: --plugin %s: at most %d plug-ins\n", file, MAX_PLUGINS);
    return -1;
  }
  char msg[1024] = "";
  mbdae_plugin *pl = NULL;
  if (mbdae_plugin_load(file, (const mbdae_plugin *const *)loaded.plugins, loaded.nplugins, &pl,
                        msg, sizeof msg) != 0) {
    fprintf(stderr, "mbdae: --plugin %s: %s\n", file, msg);
    return -1;
  }
  loaded.plugins[loaded.nplugins++] = pl;
  return 0;
}

void plugin_unload_all(void)
{
  for (int i = loaded.nplugins - 1; i >= 0; i--) {
    mbdae_plugin_unload(loaded.plugins[i]);
  }
  memset(&loaded, 0, sizeof loaded);
}

/* The plug-in that holds the i-th loaded solver (problem: kind 1), and i within it; NULL when i
 * is out of range. */
static const mbdae_plugin *holder(int kind, int *i)
{
  for (int k = 0; *i >= 0 && k < loaded.nplugins; k++) {
    const mbdae_plugin *pl = loaded.plugins[k];
    int n = kind ? mbdae_plugin_problem_count(pl) : mbdae_plugin_solver_count(pl);
    if (*i < n) {
      return pl;
    }
    *i -= n;
  }
  return NULL;
}

static int count_of(int kind)
{
  int n = 0;
  for (int k = 0; k < loaded.nplugins; k++) {
    const mbdae_plugin *pl = loaded.plugins[k];
    n += kind ? mbdae_plugin_problem_count(pl) : mbdae_plugin_solver_count(pl);
  }
  return n;
}

int plugin_solver_count(void) { return count_of(0); }

const mbdae_solver_type *plugin_solver(int i)
{
  const mbdae_plugin *pl = holder(0, &i);
  return pl ? mbdae_plugin_solver_type(pl, i) : NULL;
}

const char *plugin_solver_file(int i)
{
  const mbdae_plugin *pl = holder(0, &i);
  return pl ? mbdae_plugin_file(pl) : NULL;
}

int plugin_problem_count(void) { return count_of(1); }

const mbdae_problem_type *plugin_problem(int i)
{
  const mbdae_plugin *pl = holder(1, &i);
  return pl ? mbdae_plugin_problem_type(pl, i) : NULL;
}

const char *plugin_problem_file(int i)
{
  const mbdae_plugin *pl = holder(1, &i);
  return pl ? mbdae_plugin_file(pl) : NULL;
}

const mbdae_solver_type *cli_solver_find(const char *id)
{
  const mbdae_solver_type *type = mbdae_solver_find(id);
  for (int i = 0; !type && i < plugin_solver_count(); i++) {
    type = strcmp(plugin_solver(i)->id, id) == 0 ? plugin_solver(i) : NULL;
  }
  return type;
}

const mbdae_problem_type *plugin_problem_find(const char *id, size_t len)
{
  for (int i = 0; i < plugin_problem_count(); i++) {
    const char *other = plugin_problem(i)->id;
    if (strlen(other) == len && strncmp(other, id, len) == 0) {
      return plugin_problem(i);
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
