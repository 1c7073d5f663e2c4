/* The mbdae command as a function, cli_main: dispatch to the subcommands (src/cli/cmd_*.c), then
 * make sure what they printed reached stdout.  src/cli/main.c calls it; so does the command-line
 * fuzzer (tests/fuzz/fuzz_args.c), in process.
 *
 * A write error on stdout (a full disk, a closed pipe, `mbdae list > /dev/full`) is caught in one
 * place, after every command: stdio reports it only through fflush/ferror, so without this check
 * the command would exit 0 with its output lost.  Exit status 2, not 1: 1 means a solver run
 * failed with its results reported, and a script may still read them; after a write error
 * nothing usable was delivered, as after bad usage (the destination the caller gave). */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "cli.h"

static void print_usage(FILE *out)
{
  fputs(
      "usage: mbdae <command> [arguments]\n"
      "\n"
      "  list [--plugin FILE]         the problems (id, n, index, interval, title), the solvers\n"
      "  run SPEC [options]           integrate one problem, print run characteristics\n"
      "      --solver S               ida, radau5, radau, bdf (default ida), or a plug-in's\n"
      "      --plugin FILE            load a plug-in: a shared object exporting\n"
      "                               mbdae_plugin_solvers (and mbdae_plugin_problems); its\n"
      "                               solvers and problems join the built-in ones (repeatable;\n"
      "                               also on table, sweep, plot, bench, list)\n"
      "      --rtol R --atol A        tolerances (default: the problem's, atol = rtol)\n"
      "      --h0 H                   initial step (default: as the test set, rtol or 1e-2 rtol)\n"
      "      --hmax H                 largest step (default: none; not a test-set setting)\n"
      "      --repeat N               time N runs, report the median without min and max\n"
      "      --max-steps N            fail after N attempted steps\n"
      "      --json                   one JSON object instead of text\n"
      "      --history                print t, h and order of every accepted step\n"
      "      --ref FILE               the reference from FILE (mbdae refsol SPEC --out FILE)\n"
      "      --linsys K               iteration matrix: auto (the problem's pattern; radau5,\n"
      "                               radau, bdf condense a dense one up to 64 equations),\n"
      "                               dense, band, sparse or condensed; shown as linsys\n"
      "  table SPEC|all [--solver S] [--plugin FILE] [--hmax H] [--repeat N] [--ref FILE]\n"
      "       [--linsys K]\n"
      "                               run characteristics at the published table tolerances\n"
      "  check SPEC                   initial values, hidden constraints, Jacobian vs finite\n",
      out);
  fputs(/* in two pieces: C11 compilers need not take string literals over 4095 characters */
        "                               differences, reference source\n"
        "  refsol pendulum|dpendulum[:keys]|chain[:keys] [--out FILE]\n"
        "                               recompute a reference we compute ourselves; for a chain\n"
        "                               or a double pendulum, of any configuration\n"
        "  sweep SPEC...|all --out DIR [options]\n"
        "                               work-precision experiment: every solver at the test set's\n"
        "                               tolerances (mbdae list); DIR/runs.csv, runs.json,\n"
        "                               <problem>-table.md, "
        "<problem>-{scd,mescd}[-nres].{png,svg}\n"
        "      --solvers LIST           comma-separated (default: all, plug-ins' included)\n"
        "      --plugin FILE            as for run\n"
        "      --m A:B                  m range of rtol = 10^-(4+m/m_div) (default 0:m_max)\n"
        "      --rtol LIST              explicit tolerances instead of the m grid\n"
        "      --atol A --h0 H          fixed values (default atol = rtol, h0 = h0_factor rtol)\n"
        "      --repeat N --max-steps N as for run\n"
        "      --linsys K               as for run\n"
        "      --jobs N                 N runs at a time, in worker processes\n"
        "      --shard i/N              only the i-th of N contiguous slices; merge the shards'\n"
        "                               folders with sweep --report ALL s1 s2 ... (in order)\n"
        "      --no-plots               skip gnuplot\n"
        "      --resume                 finish an interrupted sweep: run only what DIR/\n"
        "                               runs.partial.csv does not hold yet\n"
        "      --ref FILE               as for run: scd, mescd against FILE (one spec, one form)\n"
        "  sweep --report DIR           tables, JSON and diagrams again from DIR/runs.csv\n"
        "  sweep --report DIR SHARD...  DIR's runs.csv (side files renumbered), JSON, tables and\n"
        "                               diagrams from the shard folders' runs.csv, in that order\n"
        "  plot SPEC --out FILE.png|svg [--solver S] [--plugin FILE] [--components LIST] [--wrap]\n"
        "       [--rtol R] [--points N] the solution over the interval (continuous output) and\n"
        "                               the hidden constraints; LIST: i, a-b, i:j (y_j vs y_i)\n"
        "  bench [SPEC|all] [--solvers LIST] [--plugin FILE] [--repeat N] [--linsys K]\n"
        "                               CPU time (median of N, default 11), counters, time per\n"
        "                               step and shares of residual, Jacobian and LU work\n"
        "      --against FILE           under each row, the saved run of the Fortran peer at the\n"
        "                               same problem and rtol (refsol/peer/testset.jsonl): digits\n"
        "                               and ratios of #f and CPU\n"
        "      --peer-map LIST          ours=peer pairs (default radau5=radau5,radau=radau,\n"
        "                               bdf=mebdfi)\n"
        "  regularise pendulum|dpendulum|all [--solver S] [--rtol R] [--tend T] [--json]\n"
        "       [--out FILE.md] [--plugin FILE]\n"
        "                               spec/004 Table 1: max deviation from the circular paths\n"
        "                               and CPU of each regularisation (DaS C, Baumgarte, OPM,\n"
        "                               SST; P and SPM not built) beside the paper's; scd at\n"
        "                               tend (default solver radau5, rtol 1e-6, tend 100)\n"
        "  --version                    mbdae's version and the SUNDIALS and LAPACK in use\n"
        "\n"
        "SPEC is a problem id or id:key=value,...   e.g. crank:index=3,beam=nonlinear; a plug-in\n"
        "problem's id (it takes no key=value options); all: the built-in problems\n"
        "exit status: 0 ok, 1 a solver run failed, 2 bad usage or input\n",
        out);
}

static int dispatch(int argc, char **argv)
{
  static const struct {
    const char *name;
    int (*run)(int, char **);
  } commands[] = {
      {"list", cmd_list},   {"run", cmd_run},       {"table", cmd_table},
      {"check", cmd_check}, {"refsol", cmd_refsol}, {"bench", cmd_bench},
      {"sweep", cmd_sweep}, {"plot", cmd_plot},     {"regularise", cmd_regularise},
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
  if (strcmp(argv[1], "--version") == 0 || strcmp(argv[1], "version") == 0) {
    char deps[128];
    mbdae_dependency_versions(deps, sizeof deps);
    printf("mbdae %s (%s)\n", mbdae_version(), deps);
    return EXIT_OK;
  }
  for (size_t i = 0; i < sizeof commands / sizeof commands[0]; i++) {
    if (strcmp(argv[1], commands[i].name) == 0) {
      return commands[i].run(argc - 1, argv + 1);
    }
  }
  fprintf(stderr,
          "mbdae: unknown command '%s'; valid commands: list, run, table, check, refsol, bench, "
          "sweep, plot, regularise\n",
          argv[1]);
  return EXIT_USAGE;
}

/* rc unless stdout could not be written: then say so and return EXIT_USAGE. */
static int check_stdout(int rc)
{
  errno = 0;
  if (fflush(stdout) == 0 && !ferror(stdout)) {
    return rc;
  }
  /* errno is from the failed flush; an earlier failed write leaves only the error flag. */
  fprintf(stderr, "mbdae: error writing standard output: %s\n",
          errno ? strerror(errno) : "write error");
  clearerr(stdout); /* an in-process caller (the fuzzer) starts the next command clean */
  return EXIT_USAGE;
}

int cli_main(int argc, char **argv)
{
  int rc = check_stdout(dispatch(argc, argv));
  plugin_unload_all(); /* the next command of an in-process caller starts without them */
  return rc;
}
