/* The mbdae command: dispatch to the subcommands (src/cmd_*.c). */
#include <stdio.h>
#include <string.h>

#include "cli.h"

static void print_usage(FILE *out)
{
  fprintf(
      out,
      "usage: mbdae <command> [arguments]\n"
      "\n"
      "  list                         the problems: id, n, index, interval, title\n"
      "  run SPEC [options]           integrate one problem, print run characteristics\n"
      "      --solver ida|radau5|bdf  integrator (default ida)\n"
      "      --rtol R --atol A        tolerances (default: the problem's, atol = rtol)\n"
      "      --h0 H                   initial step (default: as the test set, rtol or 1e-2 rtol)\n"
      "      --hmax H                 largest step (default: none; not a test-set setting)\n"
      "      --repeat N               time N runs, report the median without min and max\n"
      "      --max-steps N            fail after N attempted steps\n"
      "      --json                   one JSON object instead of text\n"
      "      --history                print t, h and order of every accepted step\n"
      "  table SPEC|all [--solver S] [--hmax H] [--repeat N]\n"
      "                               run characteristics at the published table tolerances\n"
      "  check SPEC                   initial values, hidden constraints, Jacobian vs finite\n"
      "                               differences, reference source\n"
      "  refsol pendulum|dpendulum    recompute a reference we compute ourselves\n"
      "  sweep SPEC...|all --out DIR [options]\n"
      "                               work-precision experiment: every solver at the test set's\n"
      "                               tolerances (mbdae list); DIR/runs.csv, runs.json,\n"
      "                               <problem>-table.md, <problem>-{scd,mescd}[-nres].{png,svg}\n"
      "      --solvers LIST           comma-separated (default: all)\n"
      "      --m A:B                  m range of rtol = 10^-(4+m/m_div) (default 0:m_max)\n"
      "      --rtol LIST              explicit tolerances instead of the m grid\n"
      "      --atol A --h0 H          fixed values (default atol = rtol, h0 = h0_factor rtol)\n"
      "      --repeat N --max-steps N as for run\n"
      "      --jobs N                 N runs at a time, in worker processes\n"
      "      --shard i/N              only the i-th of N contiguous slices; the shards' CSVs\n"
      "                               concatenate with one header line:\n"
      "                               awk 'FNR > 1 || NR == 1' s*/runs.csv > all/runs.csv\n"
      "      --no-plots               skip gnuplot\n"
      "  sweep --report DIR           tables, JSON and diagrams again from DIR/runs.csv\n"
      "  plot SPEC --out FILE.png|svg [--solver S] [--components LIST] [--wrap] [--rtol R]\n"
      "       [--points N]            the solution over the interval (continuous output) and\n"
      "                               the hidden constraints; LIST: i, a-b, i:j (y_j vs y_i)\n"
      "  bench [SPEC|all] [--solvers LIST] [--repeat N]\n"
      "                               CPU time (median of N, default 11), counters, time per\n"
      "                               step and shares of residual, Jacobian and LU work\n"
      "\n"
      "SPEC is a problem id or id:key=value,...   e.g. crank:index=3,beam=nonlinear\n"
      "exit status: 0 ok, 1 a solver run failed, 2 bad usage or input\n");
}

int main(int argc, char **argv)
{
  static const struct {
    const char *name;
    int (*run)(int, char **);
  } commands[] = {
      {"list", cmd_list},     {"run", cmd_run},     {"table", cmd_table}, {"check", cmd_check},
      {"refsol", cmd_refsol}, {"bench", cmd_bench}, {"sweep", cmd_sweep}, {"plot", cmd_plot},
  };
  if (argc < 2) {
    print_usage(stderr);
    return EXIT_USAGE;
  }
  if (strcmp(argv[1], "-h") == 0 || strcmp(argv[1], "--help") == 0 ||
      strcmp(argv[1], "help") == 0) {
    print_usage(stdout);
    return EXIT_OK;
  }
  for (size_t i = 0; i < sizeof commands / sizeof commands[0]; i++) {
    if (strcmp(argv[1], commands[i].name) == 0) {
      return commands[i].run(argc - 1, argv + 1);
    }
  }
  fprintf(stderr,
          "mbdae: unknown command '%s'; valid commands: list, run, table, check, refsol, bench, "
          "sweep, plot\n",
          argv[1]);
  return EXIT_USAGE;
}
