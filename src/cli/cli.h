/* The mbdae command: shared declarations of its subcommands and argument helpers.
 * The command is the only part of mbdae that prints.  Exit status: 0 ok, 1 a solver failed
 * (reported), 2 bad usage or bad input (EXIT_USAGE). */
#ifndef MBDAE_CLI_H
#define MBDAE_CLI_H

#include <stdio.h>

#include "mbdae/mbdae.h"

enum { EXIT_OK = 0, EXIT_FAILED_RUN = 1, EXIT_USAGE = 2 };

/* Largest max_i |F_i| / size_i (mbdae_problem_residual_size) of initial values that count as
 * consistent: what the published values meet (the slider crank's reach 2.3e-7 in |F|, 3.1e-9
 * relative).  check reports values above it as TOO LARGE; run and table warn before running. */
#define INITIAL_RESIDUAL_REL_TOL 1e-6

/* The whole command, as main() runs it: a subcommand, then the check that stdout was written
 * (a write error is reported and gives EXIT_USAGE). */
int cli_main(int argc, char **argv);

int cmd_list(int argc, char **argv);
int cmd_run(int argc, char **argv);
int cmd_table(int argc, char **argv);
int cmd_check(int argc, char **argv);
int cmd_refsol(int argc, char **argv);
int cmd_sweep(int argc, char **argv);
int cmd_plot(int argc, char **argv);
int cmd_bench(int argc, char **argv);
int cmd_regularise(int argc, char **argv);

/* ---- cli_commands.c: the table of commands, their usage and options ------------------------ */

typedef struct cli_option {
  const char *name;  /* "--rtol" */
  const char *value; /* what it takes, "R"; NULL for a flag */
  const char *help;  /* lines separated by '\n', no final newline */
} cli_option;

typedef struct cli_command {
  const char *name;
  int (*run)(int argc, char **argv); /* NULL: help and version, which cli_main answers itself */
  const char *synopsis;              /* after "mbdae NAME "; lines separated by '\n' */
  const char *summary;               /* what it does */
  const cli_option *options;         /* ends with a NULL name */
  int shows_digits;                  /* its output has scd or mescd: its help says what they are */
} cli_command;

/* The command called name, or NULL. */
const cli_command *cli_command_find(const char *name);
/* c's option whose name is the len characters at name, or NULL. */
const cli_option *cli_option_find(const cli_command *c, const char *name, size_t len);
/* The usage of every command (mbdae --help), and of one with its options (mbdae help CMD). */
void cli_print_help(FILE *out);
void cli_print_command_help(FILE *out, const cli_command *c);
/* "list, run, ...": every command's name; and the one nearest to a misspelt word, or NULL. */
void cli_print_command_names(FILE *out);
const char *cli_command_suggest(const char *word);
/* Report arg (up to a '=') as an unknown option of command: the nearest valid one, the valid
 * ones; returns EXIT_USAGE. */
int unknown_option(const char *command, const char *arg);

/* Print "mbdae: <message>" to stderr and return EXIT_USAGE. */
int usage_error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* Parse a positive finite number; on failure print why (naming the option) and return -1. */
int parse_positive(const char *option, const char *text, double *out);
/* Parse a relative tolerance: positive and below 1 (a larger one asks for no digit at all); on
 * failure print why and return -1.  Its lower end is the solvers' (h0 = h0_factor rtol must be
 * above 16 eps max(|t0|, |tend|)); an atol is any positive finite number (in y's units). */
int parse_rtol(const char *option, const char *text, double *out);
/* Parse an integer in [lo, hi]; on failure print why and return -1. */
int parse_int(const char *option, const char *text, int lo, int hi, int *out);
/* The value after option argv[*i]; prints an error and returns NULL when it is missing. */
const char *option_value(int argc, char **argv, int *i);
/* Copy an option's value into buf[len]; a value that does not fit is refused (message, -1),
 * never cut. */
int copy_value(const char *option, const char *text, char *buf, size_t len);
/* Split a comma-separated value of option into at most max items, copied into buf[len] (which
 * items[] then points into); an empty list or item, too many items or a value too long for buf is
 * refused with a message.  Returns the number of items, or -1. */
int split_items(const char *option, const char *text, char *buf, size_t len, const char **items,
                int max);
/* The name among names[0..n) nearest to the len characters at word (optimal string alignment
 * distance: insertions, deletions, substitutions, swaps of neighbours), if it is near enough to
 * be a typo (at most 1 edit for up to 4 characters, 2 up to 8, else 3) and no other is as near;
 * else NULL.  For "did you mean" after an unknown command, option, problem or solver. */
const char *closest_name(const char *word, size_t len, const char *const *names, int n);
/* Command c's arguments argv[0..argc) (argv[0] the command's name) with every --opt=value of an
 * option that takes a value split into --opt and value, into *out_argv (malloc'd, one block:
 * free(*out_argv)), *out_argc.  1 when --help or -h stands where an option may (not as the value
 * of one), 0 otherwise; -1 after a message for --flag=value or an unknown --option. */
int normalise_args(const cli_command *c, int argc, char **argv, int *out_argc, char ***out_argv);
/* Parse --linsys auto|dense|band|sparse into an mbdae_jac_kind (mbdae_options.linsys); on
 * failure print the valid values and return -1. */
int parse_linsys(const char *option, const char *text, int *out);
/* The name of the storage a run of p by the solver named solver on the command line (a built-in
 * or a plug-in one, cli_solver_find) with mbdae_options.linsys = linsys uses: what its type's
 * capabilities resolve to (mbdae_linsys_resolve). */
const char *linsys_used(const mbdae_problem *p, const char *solver, int linsys);
/* Check a solver name (built-in or plug-in); prints the valid ones and returns -1 when unknown. */
int check_solver(const char *name);
/* Create a problem from a spec: a plug-in problem's id (no key=value options), or a built-in
 * spec.  Prints the reason and returns NULL on failure. */
mbdae_problem *open_problem(const char *spec);

/* ---- plugin.c: --plugin FILE ------------------------------------------------------------- */

/* Load a plug-in: its solvers and problems join the built-in ones until plugin_unload_all.
 * 0, or -1 after a message naming file and what is wrong (the caller exits EXIT_USAGE). */
int plugin_load(const char *file);
/* Forget every plug-in and close its file (cli_main, after every command). */
void plugin_unload_all(void);
int plugin_solver_count(void);
const mbdae_solver_type *plugin_solver(int i); /* NULL when out of range */
const char *plugin_solver_file(int i);         /* the --plugin FILE it came from */
int plugin_problem_count(void);
const mbdae_problem_type *plugin_problem(int i);
const char *plugin_problem_file(int i);
/* The plug-in problem whose id is the len characters at id, or NULL. */
const mbdae_problem_type *plugin_problem_find(const char *id, size_t len);
/* A built-in solver, else a plug-in one, by id; NULL when none has it. */
const mbdae_solver_type *cli_solver_find(const char *id);
/* mbdae_solve_with the solver named `solver` (cli_solver_find); an unknown name gives
 * mbdae_solve's MBDAE_ERR_UNKNOWN_SOLVER. */
int cli_solve(const mbdae_problem *p, const char *solver, const mbdae_options *opt, int repeats,
              double *y, double *yp, mbdae_result *r);
/* Warn on stderr when p's initial values leave a residual above INITIAL_RESIDUAL_REL_TOL
 * (relative to the size of the terms): a run from them starts off the solution manifold. */
void warn_inconsistent_start(const mbdae_problem *p);

/* ---- trajectory.c: the solution over time as CSV (run --trajectory FILE) ------------------ */

typedef struct trajectory {
  size_t neq;        /* values per state */
  size_t nrows, cap; /* states held, room for */
  double *t, *y;     /* t[k], y[k * neq + i] */
  int nomem;         /* a state could not be stored */
} trajectory;

void trajectory_init(trajectory *tr, int neq);
void trajectory_free(trajectory *tr);
/* Append the state (t, y); 0 or MBDAE_ERR_NOMEM (tr->nomem set). */
int trajectory_append(trajectory *tr, double t, const double *y);
/* An mbdae_options.on_accept (ctx: a trajectory holding the initial values as its first row):
 * appends each accepted state; a time not after the last one starts over after the first row
 * (the next of --repeat's runs). */
void trajectory_on_accept(void *ctx, double t, const double *y, const double *yp);
/* n >= 2 equidistant times from t0 to tend, the last exactly tend (output times of mbdae_options
 * tout for continuous output). */
void equidistant_times(double t0, double tend, int n, double *tout);
/* Refuse path (a message, -1) when it is a folder or path.tmp cannot be created there: checked
 * before a run, so that its result is not lost after it.  0 when writable. */
int trajectory_check_path(const char *path);
/* Write nrows states (t[k], y[k * neq ...]) to path as CSV: header t,<names>, %.17g; rows whose
 * first value is NaN (output times a failed run did not reach) are left out.  Through path.tmp
 * and a rename; a folder at path is refused.  EXIT_OK, or EXIT_USAGE after a message. */
int trajectory_write_csv(const char *path, const char *const *names, const double *t,
                         const double *y, size_t nrows, size_t neq);

/* ---- ref_file.c: reference files ---------------------------------------------------------- */

/* Read the reference file of `mbdae refsol SPEC --out FILE` for p into yref (neq values): a
 * regular file of at most reference_file_max_bytes(p), whose "# spec:" line (required) is p's
 * canonical spec and whose [yref] block holds exactly neq finite values numbered 1..neq.  0, or
 * -1 after a message naming file and line.  read_reference_stream reads the same from in (name
 * for the messages): the fuzzer's entry. */
int read_reference_file(const char *path, const mbdae_problem *p, double *yref);
int read_reference_stream(FILE *in, const char *name, const mbdae_problem *p, double *yref);
size_t reference_file_max_bytes(const mbdae_problem *p);
/* cmd_run.c, for run, table and sweep --ref FILE: the reference of FILE for p (malloc'd, neq
 * values), or NULL after a message; and rec's reference replaced by yref, its scd and mescd
 * measured against it (0, or MBDAE_ERR_NOMEM). */
double *load_reference(const char *path, const mbdae_problem *p);
int use_reference(mbdae_record *rec, const mbdae_problem *p, const double *yref,
                  const mbdae_options *opt);

/* The solver type of a command-line solver id; NULL when there is none. */
const mbdae_solver_type *solver_type_of(const char *id);
/* Run p with the solver named `solver` at opt, repeats times, into rec (mbdae_record_run; release
 * with mbdae_record_free).  An unknown solver gives MBDAE_ERR_UNKNOWN_SOLVER and an empty rec. */
int execute_run(const mbdae_problem *p, const char *solver, const mbdae_options *opt, int repeats,
                mbdae_record *rec);
/* The test set's settings of a run at rtol (mbdae_options_test_set: rtol 0 is the problem's run
 * tolerance, atol = rtol, h0 = h0_factor * rtol) unless atol, h0 are given (> 0); max_steps 0 is
 * the solver's default.  A refused rtol leaves opt->rtol NaN, which the run refuses. */
void test_set_options(const mbdae_problem *p, double rtol, double atol, double h0, long max_steps,
                      mbdae_options *opt);

/* The plain-text run-characteristics table of run and table, and the final vector of run. */
void print_table_header(FILE *out);
void print_table_row(FILE *out, const mbdae_record *rec);
/* Two lines under a table with scd and mescd (run, table, bench, regularise): what they are. */
void print_digits_legend(FILE *out);
/* The drift figures of a run, one line: maxima, values at the end, over how many states. */
void print_drift(FILE *out, const mbdae_record *rec);
/* The trajectory digits of a successful run (tscd, tmescd, tscd_rms), or that it has none. */
void print_trajectory_digits(FILE *out, const mbdae_record *rec);
void print_final_vector(FILE *out, const mbdae_problem *p, const mbdae_record *rec);

#endif /* MBDAE_CLI_H */
