/* mbdae/records.h: run records (what `mbdae run --json` prints and a row of runs.csv holds),
 * their JSON, CSV and Markdown-table writers and the runs.csv reader. */
#ifndef MBDAE_RECORDS_H
#define MBDAE_RECORDS_H

#include <stddef.h>
#include <stdio.h>
#include "base.h"
#include "problem.h"
#include "solve.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ---- run records and their writers ------------------------------------------------------- */

/* What one run was and gave, in a form that outlives the problem instance: what `mbdae run
 * --json` prints and what one row of a sweep's runs.csv holds, so that a program of one's own
 * produces exactly the records of `mbdae sweep`.  The writers write only to the caller's stream;
 * the CSV writer and reader share one column table (README, "runs.csv"). */

enum {
  MBDAE_RECORD_ID_LEN = 64,    /* problem and solver ids, with their terminating NUL */
  MBDAE_RECORD_SPEC_LEN = 256, /* canonical problem spec */
  MBDAE_RECORD_TEXT_LEN = 400  /* message, solver title, environment strings */
};

/* Where a run was made: versions and machine (uname, /proc/cpuinfo).  Reserved room rather than
 * a size field: it is embedded in mbdae_record, where a larger environment would move the record's
 * fields after it; a string added later takes reserved bytes, so size and layout stay. */
typedef struct mbdae_environment {
  char mbdae[MBDAE_RECORD_ID_LEN];          /* mbdae_version() */
  char dependencies[MBDAE_RECORD_TEXT_LEN]; /* mbdae_dependency_versions() */
  char machine[MBDAE_RECORD_TEXT_LEN];      /* uname: "Linux 6.1.0-18-amd64 x86_64" */
  char cpu[MBDAE_RECORD_TEXT_LEN];          /* CPU model name; "" when unknown */
  char reserved[2 * MBDAE_RECORD_ID_LEN];   /* room for strings added later; all 0 */
} mbdae_environment;
/* The environment of this process. */
MBDAE_API void mbdae_environment_get(mbdae_environment *env);

/* A record begins with its size (sizeof(mbdae_record) as the caller's header knows it), so that a
 * field appended in a later version breaks no caller: declare one as
 *   mbdae_record rec = MBDAE_RECORD_INIT;
 * (a size field rather than an opaque record: records are values a program keeps, copies, sorts
 * and passes in arrays, as runs.csv's rows).  Every function that takes a record reads and writes
 * it only as far as its size, and refuses (MBDAE_ERR_ARG; mbdae_record_invalid says why) a size of
 * 0 (not set), one smaller than this first record with a size, and one larger than the library's
 * (a caller built against a newer mbdae.h).  An array of records has the stride of its elements'
 * size: recs[0].size, the same in every element (the functions that take an array check it); the
 * reader makes its array at the caller's sizeof(mbdae_record), passed by the macros
 * mbdae_record_read_csv and mbdae_record_read_csv_checked (zlib's deflateInit passes
 * sizeof(z_stream) the same way).  mbdae_stats and mbdae_environment inside it grow only into
 * their reserved room, so that the fields after them never move. */
typedef struct mbdae_record {
  size_t size;                              /* sizeof(mbdae_record): MBDAE_RECORD_INIT sets it */
  char problem[MBDAE_RECORD_ID_LEN];        /* problem id */
  char spec[MBDAE_RECORD_SPEC_LEN];         /* canonical spec, all keys spelled out */
  char solver[MBDAE_RECORD_ID_LEN];         /* solver id */
  char solver_title[MBDAE_RECORD_TEXT_LEN]; /* the solver's one-line title */
  double rtol, atol, h0, hmax;              /* the options of the run (hmax 0: no limit) */
  long max_steps;                           /* as given: 0 is the solver's default */
  int status;                               /* MBDAE_OK or a negative code */
  char message[MBDAE_RECORD_TEXT_LEN];      /* where and why it failed; "" on success */
  double t, h;       /* where the run ended and the last step size tried; NaN when not run */
  mbdae_stats stats; /* counters of the (last) run */
  double cpu_seconds, cpu_min, cpu_max; /* as mbdae_result; NaN when not timed */
  int repeats;                          /* runs timed */
  double scd, mescd;                    /* NaN when the run failed or there is no reference */
  int neq;                              /* length of y, yref, names */
  double *y;             /* y where the run ended, neq values; NULL when nothing ran */
  double *yref;          /* the reference at tend, neq values; NULL when there is none */
  char **names;          /* the component names, neq of them; NULL when neq is 0 */
  mbdae_environment env; /* where the run was made */
  double drift_pos_max, drift_vel_max; /* as mbdae_result; NaN: no constraints or no run */
  double drift_pos_end, drift_vel_end; /* as mbdae_result; NaN: no constraints or no run */
  long drift_steps; /* as mbdae_result: accepted states the maxima cover besides the end */
  long switches;    /* form=dummy: state-selection switches of mbdae_solve_dummy; 0 otherwise */
  /* Trajectory digits, as mbdae_result (mbdae_tscd, mbdae_tmescd, mbdae_tscd_rms along the
   * reference trajectory): NaN ("none") when the run failed, the problem has no reference
   * trajectory, or the solver gives no output times (form=dummy: none). */
  double tscd, tmescd, tscd_rms;
} mbdae_record;
/* An empty record of this header's size. */
#define MBDAE_RECORD_INIT                                                                          \
  {                                                                                                \
    .size = sizeof(mbdae_record)                                                                   \
  }
/* NULL when rec's size keeps the rule above, else why not (also for rec NULL). */
MBDAE_API const char *mbdae_record_invalid(const mbdae_record *rec);

/* The settings of a run of solver on p at opt, names, reference and environment, without an
 * outcome (status MBDAE_ERR_SOLVER, message "", counters 0, measures NaN): the record of a run
 * that never reported; rec->size is the caller's (MBDAE_RECORD_INIT), the rest is overwritten.
 * Allocates: release with mbdae_record_free.  0 or MBDAE_ERR_NOMEM / MBDAE_ERR_ARG (NULL argument).
 */
MBDAE_API int mbdae_record_init(mbdae_record *rec, const mbdae_problem *p,
                                const mbdae_solver_type *solver, const mbdae_options *opt);
/* mbdae_record_init, then mbdae_solve_with(p, solver, opt, repeats), y, scd and mescd.  Returns
 * the run's status (also in rec->status), or MBDAE_ERR_NOMEM / MBDAE_ERR_ARG before any run.  A
 * form=dummy instance runs through mbdae_solve_dummy (its selection switched where it degenerates;
 * one run, whatever repeats says), its switches in rec->switches. */
MBDAE_API int mbdae_record_run(mbdae_record *rec, const mbdae_problem *p,
                               const mbdae_solver_type *solver, const mbdae_options *opt,
                               int repeats);
/* Release what a record holds (y, yref, names); a zeroed or freed record is a no-op. */
MBDAE_API void mbdae_record_free(mbdae_record *rec);
/* Each record of an array (stride recs[0].size; n 0: no element is read), then the array. */
MBDAE_API void mbdae_records_free(mbdae_record *recs, size_t n);

/* 1 when s is a non-empty name of [A-Za-z0-9_:=,.+-]: what problem, spec and solver fields hold
 * (safe inside a gnuplot string and a file name). */
MBDAE_API int mbdae_record_id_ok(const char *s);

/* One record as a JSON object (no line break after it): the CSV columns as keys (numbers, null
 * for a missing one), y, yref and names as arrays, and the environment as mbdae_version,
 * dependencies, machine and cpu.  These writers return 0, or -1 when the stream has an error. */
MBDAE_API int mbdae_record_write_json(FILE *out, const mbdae_record *rec);
/* The JSON pieces those writers use, for a program's own JSON beside the records: a string,
 * quoted and escaped (RFC 8259); a number with %.17g, or null when it is not finite. */
MBDAE_API void mbdae_json_write_string(FILE *out, const char *s);
MBDAE_API void mbdae_json_write_number(FILE *out, double v);
/* runs.csv (RFC 4180): the header line.  Each row holds its record's environment in columns
 * mbdae_version, dependencies, machine, cpu, then the trajectory digits tscd, tmescd, tscd_rms
 * (added last; a file without them reads as NaN); env is unused (older files had it as
 * "# key: value" lines after the header, which the reader still takes) and may be NULL. */
MBDAE_API int mbdae_record_write_csv_header(FILE *out, const mbdae_environment *env);
MBDAE_API int mbdae_record_write_csv_row(FILE *out, const mbdae_record *rec);
/* A record of more than MBDAE_RECORD_INLINE_MAX components keeps its final vector out of its row:
 * mbdae_record_write_csv_row_side writes names, y and yref to the side file dir/side_name
 * (side_name: [A-Za-z0-9_.-], not starting with '.') and "@side_name" into those three fields
 * (empty where the record has no such vector); a smaller record is written inline, as
 * mbdae_record_write_csv_row writes it.  The side file (README, "runs.csv"): a line
 * "# mbdae record vectors: neq N", then N lines "i name y yref" (%.17g, nan for a non-finite
 * value, - where the record has no such vector).  0, or -1 (bad name, a write error). */
#define MBDAE_RECORD_INLINE_MAX 1000
MBDAE_API int mbdae_record_write_csv_row_side(FILE *out, const mbdae_record *rec, const char *dir,
                                              const char *side_name);
/* Read runs.csv from in (name is for messages, and its directory is where side files are: a
 * field "@FILE" reads that side file, checked line by line; a missing or bad one refuses the row
 * with "FILE:line: why"): columns found by name, every field checked (ids,
 * positive finite tolerances, counters from 0 to 10^15, codes from the table, vectors of neq
 * numbers); repeated header lines are skipped; in a file without the environment columns,
 * "# key: value" lines set the environment of the rows after them.  Returns 0 with *recs (release
 * with mbdae_records_free) and *n, or -1 with "name:line: why" in msg and nothing allocated.
 * The records are rec_size bytes each (size rec_size), the macro's sizeof(mbdae_record); a
 * rec_size the record rule refuses is -1 with why. */
MBDAE_API int mbdae_record_read_csv_sized(FILE *in, const char *name, size_t rec_size,
                                          mbdae_record **recs, size_t *n, char *msg, size_t msglen);
#define mbdae_record_read_csv(in, name, recs, n, msg, msglen)                                      \
  mbdae_record_read_csv_sized(in, name, sizeof(mbdae_record), recs, n, msg, msglen)
/* As mbdae_record_read_csv, and every row the reader accepts is passed to check(ctx, row, why,
 * len) before the next line: a non-zero return refuses the file with "name:line: why" (the row's
 * line).  What a caller that uses rows with a problem checks first (mbdae_record_fits). */
typedef int mbdae_record_check_fn(void *ctx, const mbdae_record *rec, char *why, size_t len);
MBDAE_API int mbdae_record_read_csv_checked_sized(FILE *in, const char *name, size_t rec_size,
                                                  mbdae_record_check_fn *check, void *ctx,
                                                  mbdae_record **recs, size_t *n, char *msg,
                                                  size_t msglen);
#define mbdae_record_read_csv_checked(in, name, check, ctx, recs, n, msg, msglen)                  \
  mbdae_record_read_csv_checked_sized(in, name, sizeof(mbdae_record), check, ctx, recs, n, msg,    \
                                      msglen)
/* 0 when rec's vectors may be used with problem p (mbdae_scd, a reference copied in): names, y and
 * yref are each absent or hold mbdae_problem_neq(p) entries, and the names are p's component names
 * in order; else -1 with why.  A record read back holds what its file says, not what p has. */
MBDAE_API int mbdae_record_fits(const mbdae_record *rec, const mbdae_problem *p, char *why,
                                size_t len);
/* The run-characteristics table of problem p in Markdown (recs: an array, stride recs[0].size), in
 * the layout of the test set's tables (solver, rtol, atol, h0, mescd, scd, steps, accept, #f, #Jac,
 * #LU, CPU; then ours, drift: max |g|, "-" without constraints): the records of p at its table
 * tolerances, then its failed runs.  A row of it alone (first: name the solver). */
MBDAE_API int mbdae_record_write_table(FILE *out, const mbdae_problem *p, const mbdae_record *recs,
                                       size_t n);
MBDAE_API int mbdae_record_write_table_row(FILE *out, const mbdae_record *rec, int first);

/* ---- sweep plans ------------------------------------------------------------------------- */

/* The settings of a sweep (the test set's work-precision experiment).  Initialise them with
 * mbdae_sweep_settings_default (it sets size, the first field), then set what differs. */
typedef struct mbdae_sweep_settings {
  size_t size;         /* sizeof(mbdae_sweep_settings), set by mbdae_sweep_settings_default */
  int m_lo, m_hi;      /* the grid rtol = 10^-(4 + m/m_div), m = m_lo..m_hi; m_hi < 0: 0..m_max */
  const double *rtols; /* nrtols > 0: these tolerances instead of the grid (each > 0, below 1) */
  int nrtols;
  double atol, h0; /* > 0: these; 0: the test set's (mbdae_options_test_set) */
  double hmax;     /* mbdae_options.hmax of every run */
  long max_steps;  /* mbdae_options.max_steps of every run */
  int linsys;      /* mbdae_options.linsys of every run */
  int repeats;     /* timed runs of every run, >= 1 */
} mbdae_sweep_settings;

/* size set, m_hi -1 (each problem's whole grid), repeats 1, everything else 0 / NULL. */
MBDAE_API void mbdae_sweep_settings_default(mbdae_sweep_settings *set);

/* The runs of a sweep: every solver on every problem at every tolerance, in the order problem,
 * solver, tolerance (the order of runs.csv; a shard of the command is a contiguous slice of it),
 * each run's options from mbdae_options_test_set, then the settings' atol, h0 (when > 0), hmax,
 * max_steps and linsys.  The plan holds pointers to problems and solvers: keep them while it
 * lives.  0 and *out (release with mbdae_sweep_plan_free), MBDAE_ERR_ARG with why in msg (no
 * problems or solvers, a NULL among them, settings not from
 * mbdae_sweep_settings_default, an m range outside the grid, an rtol not above 0 and below 1),
 * or MBDAE_ERR_NOMEM. */
typedef struct mbdae_sweep_plan mbdae_sweep_plan;
MBDAE_API int mbdae_sweep_plan_create(const mbdae_problem *const *problems, int nproblems,
                                      const char *const *solvers, int nsolvers,
                                      const mbdae_sweep_settings *set, mbdae_sweep_plan **out,
                                      char *msg, size_t msglen);
MBDAE_API void mbdae_sweep_plan_free(mbdae_sweep_plan *plan);
/* The number of runs. */
MBDAE_API int mbdae_sweep_plan_count(const mbdae_sweep_plan *plan);
/* Run k (0 .. count-1): the index of its problem and solver (in the lists the plan was made
 * from) and its options into opt (made by mbdae_options_default first, its size kept; fields
 * beyond opt->size are not written).  0, or MBDAE_ERR_ARG for k out of range or a NULL. */
MBDAE_API int mbdae_sweep_plan_run(const mbdae_sweep_plan *plan, int k, int *problem, int *solver,
                                   mbdae_options *opt);
/* Resume matching (the command's --resume): the run of [lo, hi) that record r holds and that is
 * not done yet (done[k - lo] == 0; done may be NULL), matched by spec, solver and rtol, atol, h0
 * (to 10 significant digits, as a record file holds them).  -1 when it holds none; -1 with why
 * set ("max_steps 5 there, 0 here") when it is such a run made with another max_steps or hmax, or,
 * an ok run, another number of repeats (a failed run's repeats are those it got to); -1 with why
 * mbdae_record_invalid's answer for a record of a size the library refuses. */
MBDAE_API int mbdae_sweep_plan_match(const mbdae_sweep_plan *plan, int lo, int hi, const char *done,
                                     const mbdae_record *r, char *why, size_t len);

#ifdef __cplusplus
}
#endif

#endif /* MBDAE_RECORDS_H */
