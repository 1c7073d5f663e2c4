/* The commands of mbdae as one table: each command's name, function, synopsis, what it does and
 * its options (name, value, help).  Everything the command says about its own usage comes from
 * here: `mbdae --help` (every command's synopsis and summary), `mbdae help CMD` and
 * `mbdae CMD --help` (that command's options), the list of valid options after an unknown one,
 * the "did you mean" for a misspelt command or option, and which options take a value (so that
 * `--opt=value` splits the same way for all of them, cli_args.c normalise_args).  The solvers are
 * listed from the registry and the plug-ins, never written into the text. */
#include <string.h>

#include "cli.h"

static const cli_option LIST_OPTIONS[] = {
    {"--plugin", "FILE",
     "load a plug-in: a shared object exporting mbdae_plugin_solvers (and\n"
     "mbdae_plugin_problems); its solvers and problems join the built-in ones\n"
     "(repeatable; on every command that takes it)"},
    {NULL, NULL, NULL},
};

#define OPT_PLUGIN                                                                                 \
  {                                                                                                \
    "--plugin", "FILE", "load a plug-in's solvers and problems (repeatable)"                       \
  }
#define OPT_LINSYS                                                                                 \
  {                                                                                                \
    "--linsys", "K",                                                                               \
        "iteration matrix: auto (the problem's pattern; radau5, radau, bdf, mebdf\n"               \
        "condense a dense one up to 64 equations), dense, band, sparse or condensed"               \
  }
#define OPT_REF                                                                                    \
  {                                                                                                \
    "--ref", "FILE",                                                                               \
        "the reference from FILE (mbdae refsol SPEC --out FILE): scd, mescd of a\n"                \
        "configuration without a committed reference"                                              \
  }
#define OPT_TOLERANCES                                                                             \
  {"--atol", "A", "absolute tolerance, positive (default atol = rtol)"},                           \
      {"--h0", "H", "initial step (default h0_factor rtol: rtol, slider crank 1e-2 rtol)"},        \
  {                                                                                                \
    "--hmax", "H", "largest step (default: none; not a test-set setting)"                          \
  }

static const cli_option RUN_OPTIONS[] = {
    {"--solver", "S", "the solver (default ida; see solvers below)"},
    OPT_PLUGIN,
    {"--rtol", "R", "relative tolerance, 0 < R < 1 (default: the problem's, mbdae list)"},
    OPT_TOLERANCES,
    {"--repeat", "N", "time N runs, report the median without min and max"},
    {"--max-steps", "N", "fail after N attempted steps"},
    {"--json", NULL, "one JSON object instead of text"},
    {"--history", NULL, "print t, h and order of every accepted step"},
    {"--trajectory", "FILE",
     "write the solution over time to FILE as CSV: header t,<component names>,\n"
     "one row per accepted step from t0 (or --samples N rows), %.17g"},
    {"--samples", "N",
     "with --trajectory: N equidistant times from t0 to tend, from the solver's\n"
     "continuous output, instead of the accepted steps"},
    OPT_REF,
    OPT_LINSYS,
    {NULL, NULL, NULL},
};

static const cli_option TABLE_OPTIONS[] = {
    {"--solver", "S", "the solver (default ida; see solvers below)"},
    OPT_PLUGIN,
    {"--rtol", "R", "one row at this tolerance, 0 < R < 1, instead of the table's"},
    OPT_TOLERANCES,
    {"--repeat", "N", "time N runs, report the median without min and max"},
    OPT_REF,
    OPT_LINSYS,
    {NULL, NULL, NULL},
};

static const cli_option CHECK_OPTIONS[] = {
    {"--plugin", "FILE", "load a plug-in: its problems can then be checked by id"},
    {NULL, NULL, NULL},
};

static const cli_option REFSOL_OPTIONS[] = {
    {"--out", "FILE", "write the file there (whole or not at all) instead of to stdout"},
    {"--trajectory", NULL,
     "write SPEC's reference trajectory (refsol/<id>_traj.txt) to\n"
     "--out FILE.csv: header t,<component names>, a row per output time"},
    {NULL, NULL, NULL},
};

static const cli_option SWEEP_OPTIONS[] = {
    {"--out", "DIR", "the folder of the results (required unless --report)"},
    {"--solvers", "LIST", "comma-separated (default: every general solver, plug-ins' included)"},
    {"--solver", "LIST", "the same as --solvers"},
    OPT_PLUGIN,
    {"--m", "A:B", "m range of rtol = 10^-(4+m/m_div) (default 0:m_max, mbdae list)"},
    {"--rtol", "LIST", "explicit tolerances, each 0 < R < 1, instead of the m grid"},
    {"--atol", "A", "fixed absolute tolerance (default atol = rtol)"},
    {"--h0", "H", "fixed initial step (default h0_factor rtol)"},
    {"--repeat", "N",
     "time N runs per point, the median without min and max (default 3; the\n"
     "CPU axis of the diagrams says N)"},
    {"--max-steps", "N", "fail a run after N attempted steps"},
    {"--forms", "LIST", "each spec in each of these forms (index3,index2,ggl,...)"},
    OPT_LINSYS,
    {"--jobs", "N", "N runs at a time, in worker processes"},
    {"--shard", "i/N",
     "only the i-th of N contiguous slices; merge the shards' folders with\n"
     "sweep --report ALL s1 s2 ... (in order)"},
    {"--no-plots", NULL, "skip gnuplot"},
    {"--resume", NULL, "finish an interrupted sweep: run only what DIR/runs.partial.csv lacks"},
    {"--force", NULL,
     "sweep into a folder that holds another sweep or other files (the earlier\n"
     "sweep's outputs are removed, nothing else)"},
    {"--timeout", "S", "a run without a result after S seconds fails (MBDAE_ERR_TIMEOUT)"},
    {"--report", "DIR",
     "tables, JSON and diagrams again from DIR/runs.csv (no runs); with shard\n"
     "folders after DIR (--report DIR S1 S2 ...), DIR's runs.csv (side files\n"
     "renumbered) from theirs, in that order"},
    {"--ref", "FILE", "as for run: scd, mescd against FILE (one spec, one form)"},
    {"--metric", "M",
     "the main diagram's measure: scd (default), mescd, tscd or tmescd;\n"
     "drawn first, named last, first in each run's line (all are drawn)"},
    {NULL, NULL, NULL},
};

static const cli_option PLOT_OPTIONS[] = {
    {"--out", "FILE",
     "the picture, FILE ending .png or .svg (required unless --data); the script\n"
     "beside it, FILE's stem + .gp"},
    {"--solver", "S", "the solver (default ida; see solvers below)"},
    OPT_PLUGIN,
    {"--components", "LIST", "panels: i (y_i over t), a-b (a range), i:j (y_j against y_i)"},
    {"--wrap", NULL, "angles modulo 2 pi"},
    {"--rtol", "R", "relative tolerance = atol, 0 < R < 1 (default: the problem's)"},
    {"--points", "N", "output times of the continuous output (default 1000)"},
    {"--data", "FILE.csv", "the plotted numbers as CSV (with or without --out)"},
    {"--reference", NULL,
     "with --out: the problem's reference trajectory as points beside the run\n"
     "in every panel (refused for a configuration without one)"},
    {NULL, NULL, NULL},
};

static const cli_option BENCH_OPTIONS[] = {
    {"--solvers", "LIST", "comma-separated (default: every general solver, plug-ins' included)"},
    {"--solver", "LIST", "the same as --solvers"},
    OPT_PLUGIN,
    {"--repeat", "N", "runs timed per row, the median without min and max (default 11)"},
    OPT_LINSYS,
    {"--against", "FILE",
     "under each row, the saved run of the Fortran peer at the same problem and\n"
     "rtol (refsol/peer/testset.jsonl): digits and ratios of #f and CPU"},
    {"--peer-map", "LIST",
     "ours=peer pairs (default radau5=radau5,radau=radau,bdf=mebdfi,mebdf=mebdfi)"},
    {"--sizes", "N1,N2,...",
     "the scaling bench: SPEC:n=N1, ... each in a child process: counters, time\n"
     "per step, peak memory, exponent of time per step against neq"},
    {"--tend", "T", "with --sizes: the end of the interval"},
    {"--rtol", "R", "with --sizes: the tolerance, 0 < R < 1 (default 1e-6)"},
    {NULL, NULL, NULL},
};

static const cli_option REGULARISE_OPTIONS[] = {
    {"--solver", "S", "the solver of the rows that do not fix one (default radau5)"},
    {"--rtol", "R", "relative tolerance = atol, 0 < R < 1 (default 1e-6)"},
    {"--tend", "T", "end of the interval (default 100, as the paper)"},
    {"--json", NULL, "JSON instead of text"},
    {"--out", "FILE.md", "also write the table as Markdown"},
    OPT_PLUGIN,
    {NULL, NULL, NULL},
};

static const cli_option NO_OPTIONS[] = {{NULL, NULL, NULL}};

static const cli_command COMMANDS[] = {
    {"list", cmd_list, "[--plugin FILE]",
     "the problems (id, n, index, interval, title, tolerances), the solvers", LIST_OPTIONS, 0},
    {"run", cmd_run, "SPEC [options]",
     "integrate one problem, print run characteristics and y(tend)", RUN_OPTIONS, 1},
    {"table", cmd_table, "SPEC|all [options]",
     "run characteristics at the published table tolerances", TABLE_OPTIONS, 1},
    {"check", cmd_check, "SPEC [--plugin FILE]",
     "initial values, hidden constraints, Jacobian vs finite differences,\n"
     "reference source",
     CHECK_OPTIONS, 0},
    {"refsol", cmd_refsol,
     "pendulum|dpendulum[:keys]|chain[:keys] [--out FILE] | SPEC --trajectory --out FILE.csv",
     "recompute a reference we compute ourselves; for a chain or a double\n"
     "pendulum, of any configuration",
     REFSOL_OPTIONS, 0},
    {"sweep", cmd_sweep, "SPEC...|all --out DIR [options]\nsweep --report DIR [SHARD_DIR...]",
     "work-precision experiment: every solver at the test set's tolerances;\n"
     "DIR/runs.csv, runs.json, <problem>-table.md,\n"
     "<problem>-{scd,mescd,tscd,tmescd,drift}"
     "[-nres].png",
     SWEEP_OPTIONS, 1},
    {"plot", cmd_plot, "SPEC --out FILE.png|svg [options]",
     "the solution over the interval (continuous output) and the hidden\n"
     "constraints, drawn by gnuplot",
     PLOT_OPTIONS, 0},
    {"bench", cmd_bench, "[SPEC|all] [options]\nbench SPEC --sizes N1,N2,... [options]",
     "CPU time (median of N), counters, time per step and shares of residual,\n"
     "Jacobian and LU work",
     BENCH_OPTIONS, 1},
    {"regularise", cmd_regularise, "pendulum|dpendulum|all [options]",
     "Hafner & Poell's Table 1: max deviation from the circular paths and CPU\n"
     "of each regularisation (DaS C, Baumgarte, P, OPM, SPM, SST) beside the\n"
     "paper's; scd at tend",
     REGULARISE_OPTIONS, 1},
    {"help", NULL, "[COMMAND]", "this text, or a command's usage and options (also: CMD --help)",
     NO_OPTIONS, 0},
    {"version", NULL, "", "mbdae's version and the SUNDIALS and LAPACK in use (also --version)",
     NO_OPTIONS, 0},
};

enum { NCOMMANDS = sizeof COMMANDS / sizeof COMMANDS[0] };

const cli_command *cli_command_find(const char *name)
{
  for (int i = 0; i < NCOMMANDS; i++) {
    if (strcmp(name, COMMANDS[i].name) == 0) {
      return &COMMANDS[i];
    }
  }
  return NULL;
}

const cli_option *cli_option_find(const cli_command *c, const char *name, size_t len)
{
  for (const cli_option *o = c->options; o->name; o++) {
    if (strlen(o->name) == len && strncmp(o->name, name, len) == 0) {
      return o;
    }
  }
  return NULL;
}

/* text with every line after the first indented by indent columns. */
static void print_indented(FILE *out, const char *text, int indent)
{
  for (const char *at = text; *at; at++) {
    fputc(*at, out);
    if (*at == '\n') {
      fprintf(out, "%*s", indent, "");
    }
  }
  fputc('\n', out);
}

/* text on a line that has reached column, its words wrapped to lines of at most 96 characters,
 * each further line indented by indent. */
static void print_wrapped(FILE *out, const char *text, int column, int indent)
{
  for (const char *at = text; *at;) {
    size_t word = strcspn(at, " ");
    if (column + 1 + (int)word > 96) {
      fprintf(out, "\n%*s", indent, "");
      column = indent;
    } else {
      fputc(' ', out);
      column++;
    }
    fprintf(out, "%.*s", (int)word, at);
    column += (int)word;
    at += word + strspn(at + word, " ");
  }
  fputc('\n', out);
}

/* "solvers: ida, radau5, ...": the registry, then the plug-ins loaded, then what the
 * specialists run on. */
static void print_solvers(FILE *out)
{
  fputs("solvers:", out);
  for (int i = 0; i < mbdae_solver_count(); i++) {
    fprintf(out, "%s %s", i ? "," : "", mbdae_solver_id(i));
  }
  for (int i = 0; i < plugin_solver_count(); i++) {
    fprintf(out, ", %s (--plugin)", plugin_solver(i)->id);
  }
  fputc('\n', out);
  for (int i = 0; i < mbdae_solver_count(); i++) {
    if (mbdae_solver_get(i)->runs_on) {
      int column = fprintf(out, "  %s runs on:", mbdae_solver_id(i));
      print_wrapped(out, mbdae_solver_get(i)->runs_on, column, 4);
    }
  }
}

static void print_footer(FILE *out)
{
  print_solvers(out);
  fputs("SPEC is a problem id or id:key=value,...   e.g. crank:index=3,beam=nonlinear (mbdae list\n"
        "shows each problem's keys); a plug-in problem's id takes no key=value options;\n"
        "all: the built-in problems.  Options take their value as --opt VALUE or --opt=VALUE.\n"
        "exit status: 0 ok, 1 a solver run or check failed, 2 bad usage or input\n",
        out);
}

/* "usage: mbdae NAME SYNOPSIS", a line "       mbdae LINE" for each further line of it. */
static void print_synopsis(FILE *out, const cli_command *c)
{
  fprintf(out, "usage: mbdae %s%s", c->name, c->synopsis[0] ? " " : "");
  for (const char *at = c->synopsis; *at; at++) {
    fputs(*at == '\n' ? "\n       mbdae " : (char[2]){*at, 0}, out);
  }
  fputs("\n\n", out);
}

void cli_print_command_help(FILE *out, const cli_command *c)
{
  print_synopsis(out, c);
  print_indented(out, c->summary, 0);
  if (c->options[0].name) {
    fputs("\noptions:\n", out);
  }
  for (const cli_option *o = c->options; o->name; o++) {
    char head[64];
    snprintf(head, sizeof head, "%s%s%s", o->name, o->value ? " " : "", o->value ? o->value : "");
    fprintf(out, "  %-20s ", head);
    print_indented(out, o->help, 23);
  }
  fputc('\n', out);
  if (c->shows_digits) {
    print_digits_legend(out);
  }
  print_footer(out);
}

void cli_print_help(FILE *out)
{
  fputs("usage: mbdae <command> [arguments]\n\n", out);
  for (int i = 0; i < NCOMMANDS; i++) {
    fprintf(out, "  %s%s", COMMANDS[i].name, COMMANDS[i].synopsis[0] ? " " : "");
    print_indented(out, COMMANDS[i].synopsis, 2);
    fputs("      ", out);
    print_indented(out, COMMANDS[i].summary, 6);
  }
  fputs("\nmbdae help COMMAND (or mbdae COMMAND --help) lists a command's options.\n", out);
  print_digits_legend(out);
  print_footer(out);
}

const char *cli_command_suggest(const char *word)
{
  const char *names[NCOMMANDS];
  for (int i = 0; i < NCOMMANDS; i++) {
    names[i] = COMMANDS[i].name;
  }
  return closest_name(word, strlen(word), names, NCOMMANDS);
}

void cli_print_command_names(FILE *out)
{
  for (int i = 0; i < NCOMMANDS; i++) {
    fprintf(out, "%s%s", i ? ", " : "", COMMANDS[i].name);
  }
}

int unknown_option(const char *command, const char *arg)
{
  const cli_command *c = cli_command_find(command);
  const char *eq = strchr(arg, '=');
  size_t len = eq ? (size_t)(eq - arg) : strlen(arg);
  const char *near = NULL;
  fprintf(stderr, "mbdae: unknown option '%.*s' of %s", (int)len, arg, command);
  if (c) {
    const char *names[64];
    int n = 0;
    for (const cli_option *o = c->options; o->name && n < 64; o++) {
      names[n++] = o->name;
    }
    near = closest_name(arg, len, names, n);
    fputs(n ? "; valid options:" : "; it takes no options", stderr);
    for (int k = 0; k < n; k++) {
      fprintf(stderr, "%s %s", k ? "," : "", names[k]);
    }
  }
  fprintf(stderr, " (mbdae help %s)%s%s%s\n", command, near ? "; did you mean " : "",
          near ? near : "", near ? "?" : "");
  return EXIT_USAGE;
}
