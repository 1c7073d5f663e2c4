/* mbdae list: one line per problem (id, n, index, interval, title) and its options. */
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

int cmd_list(int argc, char **argv)
{
  (void)argv;
  if (argc > 1) {
    return usage_error("list takes no arguments");
  }
  printf("%-10s %3s %5s  %-10s %-34s %s\n", "id", "n", "index", "interval", "title", "tolerances (rtol = atol)");
  for (int i = 0; i < mbdae_problem_count(); i++) {
    mbdae_problem *p = open_problem(mbdae_problem_id(i));
    if (!p) {
      return EXIT_USAGE;
    }
    mbdae_tolerance_plan plan;
    mbdae_problem_tolerances(p, &plan);
    char interval[32];
    snprintf(interval, sizeof interval, "[%g, %g]", mbdae_problem_t0(p), mbdae_problem_tend(p));
    printf("%-10s %3d %5d  %-10s %-34s 10^-(4+m/%d), m = 0..%d, h0 = %g rtol\n", mbdae_problem_id(i),
           mbdae_problem_neq(p), max_index(p), interval, mbdae_problem_title(p), plan.m_div,
           plan.m_max, plan.h0_factor);
    const char *opts = mbdae_problem_options(mbdae_problem_id(i));
    if (opts && opts[0]) {
      printf("%-10s options: %s (default %s)\n", "", opts, mbdae_problem_spec(p));
    }
    mbdae_problem_destroy(p);
  }
  return EXIT_OK;
}
