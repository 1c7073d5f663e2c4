/* mbdae sweep and mbdae plot: private declarations shared by cmd_sweep.c (options, plan,
 * progress), sweep_pool.c (runs in worker processes), sweep_output.c (runs.csv, runs.json, the
 * run-characteristics tables, the work-precision script) and cmd_plot.c; gnuplot.c starts gnuplot.
 *
 * A sweep is the test set's work-precision experiment (report 2.4, section "Numerical solution of
 * the problem" of every problem): each solver on each problem at rtol = atol = 10^-(4 + m/m_div),
 * m = 0..m_max, h0 = h0_factor * rtol, one row per run whatever its outcome. */
#ifndef MBDAE_SWEEP_H
#define MBDAE_SWEEP_H

#include <stdio.h>

#include "cli.h"

enum {
  SWEEP_ID_LEN = 32,    /* problem and solver ids */
  SWEEP_SPEC_LEN = 192, /* canonical problem spec */
  SWEEP_MSG_LEN = 400   /* failure message: mbdae_result.message and the error name */
};

/* One row of runs.csv.  Fixed size and pointer-free, so that a worker process sends it through a
 * pipe as it is. */
typedef struct sweep_row {
  char problem[SWEEP_ID_LEN]; /* problem id: the figures and tables are per problem */
  char spec[SWEEP_SPEC_LEN];  /* canonical spec, all keys spelled out */
  char solver[SWEEP_ID_LEN];
  double rtol, atol, h0;
  int ok;                      /* 1: the run reached tend ("ok"); 0: "fail" */
  char message[SWEEP_MSG_LEN]; /* where and why it failed; a note for an ok run without reference */
  double scd, mescd;           /* NaN when failed or without reference */
  long steps, accepted, nres, nres_fd, njac, nlu;
  double cpu_seconds, cpu_min, cpu_max; /* median (without min, max), fastest, slowest */
  int repeats;                          /* runs timed */
} sweep_row;

/* One planned run. */
typedef struct sweep_task {
  const mbdae_problem *problem;
  const char *solver;
  mbdae_options opt; /* rtol, atol, h0, max_steps */
} sweep_task;

/* The settings of a run, outcome empty (the row of a run that never reported back). */
void sweep_row_for_task(const sweep_task *task, sweep_row *row);

/* ---- sweep_pool.c: run tasks in `jobs` worker processes ------------------------------------ */

/* Called in the parent, in completion order, once per task. */
typedef void (*sweep_done_fn)(void *ctx, int task, const sweep_row *row);

/* Run tasks[0..ntasks-1], `repeats` timed runs each, in min(jobs, ntasks) forked workers that take
 * the next task when they finish one.  A worker that dies (a crash in a solver) yields a failed row
 * naming the signal and is replaced.  Returns 0, or -1 when no worker could be started. */
int sweep_pool_run(const sweep_task *tasks, int ntasks, int repeats, int jobs, sweep_done_fn done,
                   void *ctx);

/* ---- sweep_output.c: files of the output folder -------------------------------------------- */

/* runs.csv: RFC 4180, one header line, then one line per row; the columns come from one table
 * (sweep_output.c) that the reader shares.  Both return 0, or -1 when the stream has an error. */
int sweep_csv_header(FILE *out);
int sweep_csv_row(FILE *out, const sweep_row *row);
/* Read runs.csv rows (one or several concatenated files': repeated header lines are skipped) from
 * in, columns found by name.  Every field is checked (ids of [A-Za-z0-9_:=,.-], positive finite
 * tolerances, counters from 0 to 10^15); a bad line is refused.  Returns 0, or -1 with a message
 * "name:line: why" in msg.  sweep_csv_read opens path, which must be a regular file. */
int sweep_csv_parse(FILE *in, const char *name, sweep_row **rows, int *nrows, char *msg,
                    size_t msglen);
int sweep_csv_read(const char *path, sweep_row **rows, int *nrows, char *msg, size_t msglen);

/* 1 when s is a non-empty name of [A-Za-z0-9_:=,.-]: safe inside a gnuplot string and a file. */
int sweep_safe_id(const char *s);

/* A file written whole or not at all: open path.tmp (its name in tmp), write, then close, which
 * renames it to path when every write succeeded, and otherwise removes it and returns -1 with
 * errno set. */
FILE *sweep_open_atomic(const char *path, char *tmp, size_t tmplen);
int sweep_close_atomic(FILE *out, const char *tmp, const char *path);

/* runs.json: an array of objects with the keys of the CSV header. */
int sweep_write_json(const char *path, const sweep_row *rows, int nrows);

/* <problem>-table.md: the run-characteristics table of one problem at its table tolerances, in
 * the layout of the report's tables, then the failed runs. */
int sweep_write_table(const char *path, const mbdae_problem *p, const sweep_row *rows, int nrows);

/* workprecision.gp: the script that draws <problem>-{scd,mescd}[-nres].{png,svg} from runs.csv.
 * -1 with errno EINVAL when a problem or solver name is not a sweep_safe_id. */
int sweep_write_script(const char *path, const mbdae_problem *const *problems, int nproblems,
                       const char *const *solvers, int nsolvers);

/* Create a folder and its parents (mkdir -p); 0 or -1 with errno set. */
int make_dirs(const char *path);

/* ---- gnuplot.c ---------------------------------------------------------------------------- */

enum { GNUPLOT_OK = 0, GNUPLOT_MISSING = 1, GNUPLOT_FAILED = 2 };

/* Run `gnuplot script` in folder dir with its messages going to dir/log; the executable is
 * $MBDAE_GNUPLOT or gnuplot.  Returns GNUPLOT_OK, GNUPLOT_MISSING (not installed) or
 * GNUPLOT_FAILED (the script failed: see the log). */
int gnuplot_run(const char *dir, const char *script, const char *log);

/* 1 when the picture at path (.png or .svg) is complete; 0 with the reason in why. */
int gnuplot_picture_ok(const char *path, char *why, size_t len);

#endif /* MBDAE_SWEEP_H */
