/* mbdae list: one line per problem (id, n, index, interval, title) and its options, then the
 * solvers; with --plugin FILE the plug-ins' problems and solvers too (src/cli/plugin.c). */
#include <string.h>

#include "cli.h"

static int max_index(const mbdae_problem *p)
{
  const int *index = mbdae_problem_index(p);
  int k = 0;
  for (int i = 0; i < mbdae_problem_neq(p); i++) {
    k = index[i] > k ? index[i] : k;
  }
  return k;
}

/* The widths of the columns id, interval and title: the longest entry of each (and its heading),
 * so that the columns stay aligned whatever a title or a plug-in's id. */
typedef struct widths {
  int id, interval, title;
} widths;

static void interval_text(const mbdae_problem *p, char *buf, size_t len)
{
  snprintf(buf, len, "[%g, %g]", mbdae_problem_t0(p), mbdae_problem_tend(p));
}

/* Widen w for problem id's line; -1 when it cannot be opened. */
static int measure_problem(const char *id, widths *w)
{
  mbdae_problem *p = open_problem(id);
  if (!p) {
    return -1;
  }
  char interval[64];
  interval_text(p, interval, sizeof interval);
  int n[3] = {(int)strlen(id), (int)strlen(interval), (int)strlen(mbdae_problem_title(p))};
  w->id = n[0] > w->id ? n[0] : w->id;
  w->interval = n[1] > w->interval ? n[1] : w->interval;
  w->title = n[2] > w->title ? n[2] : w->title;
  mbdae_problem_destroy(p);
  return 0;
}

/* One problem's line (and its options, when it has some); -1 when it cannot be opened. */
static int list_problem(const char *id, const char *plugin_file, const widths *w)
{
  mbdae_problem *p = open_problem(id);
  if (!p) {
    return -1;
  }
  mbdae_tolerance_plan plan = MBDAE_TOLERANCE_PLAN_INIT;
  mbdae_problem_tolerances(p, &plan);
  char interval[64];
  interval_text(p, interval, sizeof interval);
  printf("%-*s %3d %5d  %-*s %-*s 10^-(4+m/%d), m = 0..%d, h0 = %g rtol\n", w->id, id,
         mbdae_problem_neq(p), max_index(p), w->interval, interval, w->title,
         mbdae_problem_title(p), plan.m_div, plan.m_max, plan.h0_factor);
  const char *opts = plugin_file ? NULL : mbdae_problem_options(id);
  if (opts && opts[0]) {
    printf("%-*s options: %s (default %s)\n", w->id, "", opts, mbdae_problem_spec(p));
  }
  if (plugin_file) {
    printf("%-*s from --plugin %s\n", w->id, "", plugin_file);
  }
  mbdae_problem_destroy(p);
  return 0;
}

int cmd_list(int argc, char **argv)
{
  for (int i = 1; i < argc; i++) {
    if (strcmp(argv[i], "--plugin") != 0) {
      return argv[i][0] == '-' ? unknown_option("list", argv[i])
                               : usage_error("list takes no arguments but --plugin FILE");
    }
    const char *v = option_value(argc, argv, &i);
    if (!v || plugin_load(v) != 0) {
      return EXIT_USAGE;
    }
  }
  widths w = {10, 10, 5};
  int nbuiltin = mbdae_problem_count(), n = nbuiltin + plugin_problem_count();
  for (int i = 0; i < n; i++) {
    if (measure_problem(i < nbuiltin ? mbdae_problem_id(i) : plugin_problem(i - nbuiltin)->id,
                        &w) != 0) {
      return EXIT_USAGE;
    }
  }
  printf("%-*s %3s %5s  %-*s %-*s %s\n", w.id, "id", "n", "index", w.interval, "interval", w.title,
         "title", "tolerances (rtol = atol)");
  for (int i = 0; i < n; i++) {
    int builtin = i < nbuiltin;
    if (list_problem(builtin ? mbdae_problem_id(i) : plugin_problem(i - nbuiltin)->id,
                     builtin ? NULL : plugin_problem_file(i - nbuiltin), &w) != 0) {
      return EXIT_USAGE;
    }
  }
  int sw = 10; /* the solvers' id column */
  for (int i = 0; i < plugin_solver_count(); i++) {
    int len = (int)strlen(plugin_solver(i)->id);
    sw = len > sw ? len : sw;
  }
  printf("\nsolvers:\n");
  for (int i = 0; i < mbdae_solver_count(); i++) {
    const char *runs_on = mbdae_solver_get(i)->runs_on;
    printf("%-*s %s\n", sw, mbdae_solver_id(i), mbdae_solver_title(i));
    if (runs_on) {
      printf("%-*s runs on: %s (not in the default lists of sweep and bench)\n", sw, "", runs_on);
    }
  }
  for (int i = 0; i < plugin_solver_count(); i++) {
    printf("%-*s %s (--plugin %s)\n", sw, plugin_solver(i)->id, plugin_solver(i)->title,
           plugin_solver_file(i));
  }
  return EXIT_OK;
}
