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

/* One problem's line (and its options, when it has some); -1 when it cannot be opened. */
static int list_problem(const char *id, const char *plugin_file)
{
  mbdae_problem *p = open_problem(id);
  if (!p) {
    return -1;
  }
  mbdae_tolerance_plan plan;
  mbdae_problem_tolerances(p, &plan);
  char interval[32];
  snprintf(interval, sizeof interval, "[%g, %g]", mbdae_problem_t0(p), mbdae_problem_tend(p));
  printf("%-10s %3d %5d  %-10s %-34s 10^-(4+m/%d), m = 0..%d, h0 = %g rtol\n", id,
         mbdae_problem_neq(p), max_index(p), interval, mbdae_problem_title(p), plan.m_div,
         plan.m_max, plan.h0_factor);
  const char *opts = plugin_file ? NULL : mbdae_problem_options(id);
  if (opts && opts[0]) {
    printf("%-10s options: %s (default %s)\n", "", opts, mbdae_problem_spec(p));
  }
  if (plugin_file) {
    printf("%-10s from --plugin %s\n", "", plugin_file);
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
  printf("%-10s %3s %5s  %-10s %-34s %s\n", "id", "n", "index", "interval", "title",
         "tolerances (rtol = atol)");
  for (int i = 0; i < mbdae_problem_count(); i++) {
    if (list_problem(mbdae_problem_id(i), NULL) != 0) {
      return EXIT_USAGE;
    }
  }
  for (int i = 0; i < plugin_problem_count(); i++) {
    if (list_problem(plugin_problem(i)->id, plugin_problem_file(i)) != 0) {
      return EXIT_USAGE;
    }
  }
  printf("\nsolvers:\n");
  for (int i = 0; i < mbdae_solver_count(); i++) {
    const char *runs_on = mbdae_solver_get(i)->runs_on;
    printf("%-10s %s\n", mbdae_solver_id(i), mbdae_solver_title(i));
    if (runs_on) {
      printf("%-10s runs on: %s (not in the default lists of sweep and bench)\n", "", runs_on);
    }
  }
  for (int i = 0; i < plugin_solver_count(); i++) {
    printf("%-10s %s (--plugin %s)\n", plugin_solver(i)->id, plugin_solver(i)->title,
           plugin_solver_file(i));
  }
  return EXIT_OK;
}
