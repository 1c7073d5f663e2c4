/* mbdae sweep and mbdae plot: private declarations shared by cmd_sweep.c (options, plan,
 * progress), sweep_pool.c (runs in worker processes), sweep_output.c (the files of the output
 * folder: runs.csv, runs.json and the tables through the library's record writers, the
 * work-precision script) and cmd_plot.c; gnuplot.c starts gnuplot.
 *
 * A sweep is the test set's work-precision experiment (report 2.4, section "Numerical solution of
 * the problem" of every problem): each solver on each problem at rtol = atol = 10^-(4 + m/m_div),
 * m = 0..m_max, h0 = h0_factor * rtol, one row per run whatever its outcome. */
#ifndef MBDAE_SWEEP_H
#define MBDAE_SWEEP_H

#include <stdio.h>

#include "cli.h"

/* One planned run. */
typedef struct sweep_task {
  const mbdae_problem *problem;
  const char *solver;
  mbdae_options opt; /* rtol, atol, h0, max_steps */
} sweep_task;

/* The record of a run that never reported back: the task's settings, no outcome
 * (mbdae_record_init); the caller says why in rec->message.  Release with mbdae_record_free. */
void sweep_record_for_task(const sweep_task *task, mbdae_record *rec);

/* ---- sweep_pool.c: run tasks in `jobs` worker processes ------------------------------------ */

/* Called in the parent, in completion order, once per task; it takes over *rec (its y, yref and
 * names: mbdae_record_free). */
typedef void (*sweep_done_fn)(void *ctx, int task, mbdae_record *rec);

/* Run tasks[0..ntasks-1], `repeats` timed runs each, in min(jobs, ntasks) forked workers that take
 * the next task when they finish one.  A worker that dies (a crash in a solver) is replaced and its
 * task tried once more in the replacement; a second death yields a failed row naming the signal.
 * timeout > 0: a task without a result after that many seconds of wall time is a failed row with
 * MBDAE_ERR_TIMEOUT, its worker killed and replaced.  Returns 0, or -1 when no worker could be
 * started. */
int sweep_pool_run(const sweep_task *tasks, int ntasks, int repeats, int jobs, double timeout,
                   sweep_done_fn done, void *ctx);

/* ---- sweep_output.c: files of the output folder -------------------------------------------- */

/* Read runs.csv (mbdae_record_read_csv) from path, which must be a regular file; 0, or -1 with
 * a message "path:line: why" in msg. */
int sweep_csv_read(const char *path, mbdae_record **recs, size_t *n, char *msg, size_t msglen);
/* The same, and every row must fit its configuration (mbdae_record_fits: neq entries in names, y,
 * yref; its names) before any use of its vectors, refused with "path:line: why".  _tasks: the
 * configurations of the tasks (a row of another is left to the caller); _opening: those in
 * problems[0..*nproblems-1], and one not there is opened and added (at most max). */
int sweep_csv_read_opening(const char *path, mbdae_problem **problems, int *nproblems, int max,
                           mbdae_record **recs, size_t *n, char *msg, size_t msglen);
int sweep_csv_read_tasks(const char *path, const sweep_task *tasks, int ntasks, mbdae_record **recs,
                         size_t *n, char *msg, size_t msglen);

/* The files of a sweep are one set, committed together: runs.csv, its side files runs-<row>.vec,
 * runs.json, the tables and workprecision.gp are written into the staging folder DIR/runs.staging
 * first (sweep_stage_open, which empties one an interrupted commit left); only when every one was
 * written whole does sweep_stage_commit move them into DIR, runs.csv last, after removing the old
 * runs.csv; then the side files the old runs.csv had and the new one does not name are removed.
 * A failure while writing (sweep_stage_abort) leaves DIR as it was; a folder in a file's place is
 * found before anything moves; a failure while moving leaves no runs.csv and none of the files
 * moved.  before(dir), when not NULL, runs once nothing stands in the way, before the first file
 * moves (sweep_folder_drop_replaced).  0, or -1 with errno set (commit: the file in failed). */
#define SWEEP_STAGE "runs.staging"
int sweep_stage_open(const char *dir, char *stage, size_t len);
/* runs.csv of the rows, a large final vector in runs-<row>.vec beside it, into the stage. */
int sweep_stage_csv(const char *stage, const mbdae_record *rows, size_t nrows);
int sweep_stage_commit(const char *stage, const char *dir, char *failed, size_t len,
                       void (*before)(const char *dir));
void sweep_stage_abort(const char *stage); /* remove the stage; errno kept */

/* runs.json: an array of the records' JSON objects (mbdae_record_write_json). */
int sweep_write_json(const char *path, const mbdae_record *recs, size_t n);

/* <problem>-table.md: the run-characteristics table of one problem (mbdae_record_write_table). */
int sweep_write_table(const char *path, const mbdae_problem *p, const mbdae_record *recs, size_t n);

/* The measures a sweep can be judged by (mbdae sweep --metric M, default scd): the columns of
 * runs.csv, the test set's scd and mescd at t_end and their least values along the reference
 * trajectory (issue 35).  M is the measure of the main work-precision diagram, <problem>-M.png
 * (drawn first; the others are drawn as before), and the one the progress lines and the closing
 * line give first. */
enum { SWEEP_NMETRICS = 4 };
extern const char *const sweep_metrics[SWEEP_NMETRICS]; /* scd, mescd, tscd, tmescd */
/* The index of the metric named text, or -1 (reported: usage_error names the valid ones). */
int sweep_metric_parse(const char *text);
/* Metric m of a record (NaN where it has none). */
double sweep_metric_of(const mbdae_record *r, int m);

/* workprecision.gp: the script that draws <problem>-{scd,mescd,tscd,tmescd,drift}[-nres].{png,svg}
 * from runs.csv, one curve per configuration and solver (configurations of one problem, its
 * forms, share its diagrams), the main metric's first (metric = 'M' in the script).  -1 with
 * errno EINVAL when a spec or solver name is not an mbdae_record_id_ok name. */
int sweep_write_script(const char *path, const mbdae_problem *const *problems, int nproblems,
                       const char *const *solvers, int nsolvers, int metric);

/* The pictures of workprecision.gp (in dir), one gnuplot per problem with a line on stderr before
 * each, every picture checked (gnuplot exits 0 on a full disk): EXIT_OK, or EXIT_FAILED_RUN
 * (reported) when gnuplot failed or a picture is missing or incomplete.  A missing gnuplot is a
 * warning and EXIT_OK: the data files are the results. */
int sweep_draw_pictures(const char *dir, const mbdae_problem *const *problems, int nproblems);

/* What tells configuration i of problems apart from the others of its problem: "" when it is the
 * only one, else its form ("index3" of pendulum:form=index3, "index1" of crank:index=1); -1 when
 * it has several and no form, or another has the same form.  Legends and table file names use
 * it. */
int sweep_config_label(const mbdae_problem *const *problems, int nproblems, int i, char *buf,
                       size_t len);

/* Create a folder and its parents (mkdir -p); 0 or -1 with errno set. */
int make_dirs(const char *path);

/* ---- sweep_folder.c: DIR/sweep.conf, the settings of the sweep in a folder and its files ---- */

/* The pictures of a problem: <problem>-<kind>. */
enum { SWEEP_NPICTURE_KINDS = 20 };
extern const char *const sweep_picture_kinds[SWEEP_NPICTURE_KINDS];

/* What a folder holds, against a sweep's settings ("key: value" lines). */
enum { SWEEP_FOLDER_EMPTY, SWEEP_FOLDER_SAME, SWEEP_FOLDER_OTHER, SWEEP_FOLDER_FOREIGN };
/* EMPTY (nothing in it), SAME (its sweep.conf has these settings), OTHER (its sweep.conf has
 * others: why gets "key: A there, B here") or FOREIGN (entries but no sweep.conf). */
int sweep_folder_state(const char *dir, const char *settings, char *why, size_t len);
/* A sweep that replaces the one in dir keeps that sweep's files until its own set is complete:
 * sweep_folder_replaced gives the owned lines of dir's sweep.conf (and those it replaced in
 * turn) as "replaces-problems:", "replaces-tables:", "replaces-rows:" lines for the new sweep.conf
 * (malloc'd, "" when there is none; NULL when out of memory).  Once the new set is written and
 * nothing stands in its way, sweep_folder_drop_replaced removes the files those lines name (the
 * pictures among them are drawn again), and after it moved in, sweep_folder_forget_replaced
 * writes sweep.conf without the replaces- lines. */
char *sweep_folder_replaced(const char *dir);
void sweep_folder_drop_replaced(const char *dir);
int sweep_folder_forget_replaced(const char *dir);
/* dir/sweep.conf with settings and owned, whole or not at all; 0 or -1 with errno set. */
int sweep_folder_write(const char *dir, const char *settings, const char *owned);

/* ---- gnuplot.c ---------------------------------------------------------------------------- */

enum { GNUPLOT_OK = 0, GNUPLOT_MISSING = 1, GNUPLOT_FAILED = 2 };

/* Run `gnuplot ./script` (arg NULL) or `gnuplot -c ./script arg` (arg is ARG1 in the script) in
 * folder dir with its messages appended to dir/log; the executable is $MBDAE_GNUPLOT or gnuplot,
 * and it ends with this process (Linux).  Returns GNUPLOT_OK, GNUPLOT_MISSING (not installed) or
 * GNUPLOT_FAILED (the script failed: see the log). */
int gnuplot_run(const char *dir, const char *script, const char *arg, const char *log);
/* s as one inert gnuplot string expression: '...', a quote in s as '."\047".' and a control
 * character (0x00-0x1f, 0x7f) as '?' (gnuplot.c says why).  gnuplot_quote writes it into buf (len
 * bytes) and returns its length, snprintf-like; one that does not fit leaves buf empty, never cut.
 * gnuplot_string writes it to out.  Every string a script gets from outside goes through these. */
size_t gnuplot_quote(char *buf, size_t len, const char *s);
void gnuplot_string(FILE *out, const char *s);

/* s as one inert POSIX shell word, for the commands a hint tells the user to run: '...', a
 * quote as '\'' and a control character as '?' (shell_quote.c). */
void shell_word(FILE *out, const char *s);

/* 1 when s (a file name) holds a control character, which no script may carry. */
int gnuplot_name_invalid(const char *s);

/* 1 when the picture at path (.png or .svg) is complete; 0 with the reason in why. */
int gnuplot_picture_ok(const char *path, char *why, size_t len);

/* gnuplot writes its pictures and log into a scratch folder dir/.gnuplot-XXXXXX (mkdtemp: every
 * name in it new), running ../SCRIPT there (gnuplot_run(scratch, "../SCRIPT", ...)); with
 * link_csv, scratch/runs.csv is a link to dir/runs.csv, the data of a sweep's script.  0, or -1
 * with errno set. */
int gnuplot_scratch_make(const char *dir, int link_csv, char *scratch, size_t len);
/* Rename scratch/name to dir/name when it is a complete picture: 1; else remove both (no stale
 * picture passes for a new one), 0 with "dir/name was not written" (or why) in why. */
int gnuplot_scratch_keep(const char *scratch, const char *dir, const char *name, char *why,
                         size_t len);
/* Rename scratch/log to dir/log (keep_log; else remove both) and remove scratch with what is
 * left in it. */
void gnuplot_scratch_done(const char *scratch, const char *dir, const char *log, int keep_log);

#endif /* MBDAE_SWEEP_H */
