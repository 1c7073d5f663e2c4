/* mbdae bench: CPU time per problem, solver and table tolerance (median of --repeat runs, 11 by
 * default, after dropping min and max), with the counters beside it, the time per step, and the
 * estimated share of the time spent in residual evaluations, Jacobian evaluations and
 * factorizations.
 *
 * The shares are estimates: the unit cost of one residual, one Jacobian and one factorization
 * (of the n x n iteration matrix as the solvers factor it; for Radau IIA a real plus a complex
 * one, which count as one factorization event) is measured by mbdae_problem_unit_costs, then
 * multiplied by the counters and divided by the run's CPU time.  Counts are reproducible; times are
 * not (shared machines). */
#include <stdlib.h>
#include <string.h>

#include "cli.h"

static void bench_problem(const mbdae_problem *p, const char *const *solvers, int nsolvers,
                          int repeat, int *nfail)
{
  mbdae_tolerance_plan plan;
  mbdae_problem_tolerances(p, &plan);
  mbdae_unit_costs c = {0};
  mbdae_problem_unit_costs(p, 2000, &c);
  printf("\n%s (%s): one residual %.2f us, one Jacobian %.2f us, one LU %.2f us (real) / %.2f us "
         "(complex)\n",
         mbdae_problem_title(p), mbdae_problem_spec(p), 1e6 * c.res, 1e6 * c.jac, 1e6 * c.lu_real,
         1e6 * c.lu_complex);
  printf("%-7s %-7s %6s %6s %7s %8s %6s %6s %10s %10s %10s %8s %6s %6s %6s\n", "solver", "rtol",
         "mescd", "scd", "steps", "#f", "#Jac", "#LU", "CPU med", "CPU min", "CPU max", "us/step",
         "%res", "%jac", "%LU");
  for (int s = 0; s < nsolvers; s++) {
    for (int k = 0; k < plan.ntable; k++) {
      mbdae_options opt;
      test_set_options(p, plan.table_rtol[k], 0.0, 0.0, 0, &opt);
      mbdae_record rec;
      int rc = execute_run(p, solvers[s], &opt, repeat, &rec);
      const mbdae_stats *st = &rec.stats;
      double cpu = rec.cpu_seconds;
      double lu = strcmp(solvers[s], "radau5") == 0 ? c.lu_real + c.lu_complex : c.lu_real;
      double share = cpu > 0.0 ? 100.0 / cpu : 0.0;
      if (rc != 0) {
        (*nfail)++;
        printf("%-7s %-7.0e failed: %s\n", solvers[s], opt.rtol, rec.message);
      } else {
        printf("%-7s %-7.0e %6.2f %6.2f %7ld %8ld %6ld %6ld %10.6f %10.6f %10.6f %8.2f %6.1f %6.1f "
               "%6.1f\n",
               solvers[s], opt.rtol, rec.mescd, rec.scd, st->steps, st->nres, st->njac, st->nlu,
               cpu, rec.cpu_min, rec.cpu_max, st->steps ? 1e6 * cpu / st->steps : 0.0,
               share * c.res * st->nres, share * c.jac * st->njac, share * lu * st->nlu);
      }
      fflush(stdout);
      mbdae_record_free(&rec);
    }
  }
}

enum { MAX_BENCH_SOLVERS = 8 };

/* --solvers a,b: known solvers, each once. */
static int parse_solvers(const char *text, char *buf, size_t len, const char **solvers)
{
  int n = split_items("--solvers", text, buf, len, solvers, MAX_BENCH_SOLVERS);
  for (int i = 0; i < n; i++) {
    if (check_solver(solvers[i]) != 0) {
      return -1;
    }
    for (int j = 0; j < i; j++) {
      if (strcmp(solvers[j], solvers[i]) == 0) {
        usage_error("--solvers names %s twice", solvers[i]);
        return -1;
      }
    }
  }
  return n;
}

int cmd_bench(int argc, char **argv)
{
  const char *spec = NULL, *solver_list = NULL;
  const char *solvers[MAX_BENCH_SOLVERS];
  int nsolvers = 0, repeat = 11;
  char list[256];
  for (int i = 1; i < argc; i++) {
    const char *v = NULL;
    if (strcmp(argv[i], "--repeat") == 0) {
      if (!(v = option_value(argc, argv, &i)) || parse_int("--repeat", v, 1, 1000, &repeat) != 0) {
        return EXIT_USAGE;
      }
    } else if (strcmp(argv[i], "--solvers") == 0) {
      if (!(solver_list = option_value(argc, argv, &i))) { /* checked once the plug-ins are in */
        return EXIT_USAGE;
      }
    } else if (strcmp(argv[i], "--plugin") == 0) {
      if (!(v = option_value(argc, argv, &i)) || plugin_load(v) != 0) {
        return EXIT_USAGE;
      }
    } else if (argv[i][0] == '-') {
      return usage_error("unknown option '%s'; valid options: --solvers, --plugin, --repeat",
                         argv[i]);
    } else if (spec) {
      return usage_error("unexpected argument '%s' (one problem spec, or all, expected)", argv[i]);
    } else {
      spec = argv[i];
    }
  }
  spec = spec ? spec : "all";
  if (solver_list && (nsolvers = parse_solvers(solver_list, list, sizeof list, solvers)) < 0) {
    return EXIT_USAGE;
  }
  if (nsolvers == 0) { /* every built-in solver, then the plug-ins' */
    for (int s = 0; s < mbdae_solver_count() && nsolvers < MAX_BENCH_SOLVERS; s++) {
      solvers[nsolvers++] = mbdae_solver_id(s);
    }
    for (int s = 0; s < plugin_solver_count() && nsolvers < MAX_BENCH_SOLVERS; s++) {
      solvers[nsolvers++] = plugin_solver(s)->id;
    }
  }
  int all = strcmp(spec, "all") == 0, nfail = 0;
  printf(
      "mbdae bench: CPU seconds are the median of %d runs without min and max; %%res, %%jac, %%LU "
      "are estimated shares (unit cost x count / CPU)\n",
      repeat);
  for (int i = 0; i < (all ? mbdae_problem_count() : 1); i++) {
    mbdae_problem *p = open_problem(all ? mbdae_problem_id(i) : spec);
    if (!p) {
      return EXIT_USAGE;
    }
    bench_problem(p, solvers, nsolvers, repeat, &nfail);
    mbdae_problem_destroy(p);
  }
  return nfail ? EXIT_FAILED_RUN : EXIT_OK;
}
