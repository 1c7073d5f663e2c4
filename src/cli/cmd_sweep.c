/* mbdae sweep: the test set's work-precision experiment over problems, solvers and tolerances.
 *
 * Per problem, its mbdae_tolerance_plan gives the grid the report uses: rtol = 10^-(4 + m/m_div),
 * m = 0..m_max (m_div = 4, m_max = 24 for the car axis and the slider crank, 8 and 48 for Andrews;
 * report 2.4, sections II.17.4, II.13.4, II.19.4), atol = rtol, h0 = h0_factor * rtol (1e-2 rtol
 * for the slider crank).  --m, --rtol, --atol and --h0 override the grid.
 *
 * The runs are ordered problem, solver, m.  --shard i/N takes the i-th of N contiguous, equal
 * slices of that order, so that the shards' rows, concatenated in shard order, are the rows of the
 * whole sweep in the same order; --jobs N runs a slice in N worker processes (sweep_pool.c).
 * --forms f1,f2,... sweeps each problem spec in each formulation (spec + "form=f"): one
 * configuration per form, one table per configuration (<problem>-<form>-table.md), one curve per
 * form and solver in the problem's diagrams.
 * Results: DIR/runs.csv and runs.json (one row per run, failures included), DIR/<problem>-table.md,
 * DIR/workprecision.gp and the diagrams it draws (sweep_output.c).  Rows are also appended to
 * DIR/runs.partial.csv as they finish, so that an interrupted sweep keeps what it did: a sweep
 * into a folder that holds one refuses to start unless --resume is given, which takes the rows
 * of runs.partial.csv as done (matched by spec, solver, rtol, atol, h0, and refused, naming the
 * option, when a row's max_steps, hmax or repeats or sweep.conf's settings differ) and runs only
 * the rest; --force starts over.  runs.partial.csv is removed once the results are in place
 * (written whole, as one set: sweep.h).
 * DIR/sweep.conf (sweep_folder.c) holds the settings and the names of the files the sweep owns:
 * a folder with another sweep.conf, or with files and none, is refused unless --force, and the
 * earlier sweep's outputs stay until the new set is complete (a failed re-sweep leaves them as
 * they were).  The folder must take a file before the first run (sweep.conf and runs.partial.csv
 * are written first), and a failed write is reported when it happens.  Every file is written as
 * a new file renamed into place (new_file.h), and every file read is read with a byte budget
 * (bounded_read.h).  --timeout S: a run without a result after S seconds is a failed row
 * (sweep_pool.c).
 * --ref FILE (a file of `mbdae refsol SPEC --out FILE`) is the reference of a sweep of one
 * configuration (one spec, at most one form): every row's yref, scd and mescd come from it, as
 * they finish (runs.partial.csv, resumed rows, runs.csv, tables). */
#include <errno.h>
#include <math.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "bounded_read.h"
#include "new_file.h"
#include "sweep.h"

enum { MAX_SPECS = 64, MAX_RTOLS = 256, MAX_M = 400, MAX_DIR = 3900, MAX_SPEC_LEN = 256 };

typedef struct sweep_args {
  const char *specs[MAX_SPECS];
  int nspecs;
  const char *solvers[MAX_SPECS];
  int nsolvers;
  int m_lo, m_hi;          /* m range; m_hi < 0: the problem's 0..m_max */
  double rtols[MAX_RTOLS]; /* --rtol list, replaces the m grid */
  int nrtols;
  double atol, h0; /* 0: the test set's (atol = rtol, h0 = h0_factor rtol) */
  int repeat, jobs, shard, nshards;
  long max_steps;
  int linsys; /* --linsys: an mbdae_jac_kind (mbdae_options.linsys) */
  int plots, resume, force;
  double timeout; /* --timeout: seconds of wall time per run; 0: none */
  const char *out;
  const char *report;           /* --report DIR: redo the outputs from DIR/runs.csv */
  const char *ref_file;         /* --ref FILE, or NULL */
  const char *forms[MAX_SPECS]; /* --forms: each spec in each of these formulations */
  int nforms;
  char forms_text[1024];                    /* the items of --forms */
  char form_specs[MAX_SPECS][MAX_SPEC_LEN]; /* the specs with their form */
} sweep_args;

/* What the progress reports need, and where finished rows go. */
typedef struct sweep_state {
  mbdae_record *rows; /* the slice's rows, in plan order */
  char *have;         /* have[k]: rows[k] is a finished run */
  int *index;         /* the pool's task i is rows[index[i]] */
  int total, done, failed;
  int resumed;  /* rows taken from runs.partial.csv */
  double start; /* wall clock, seconds */
  int tty;      /* stderr is a terminal: one live line */
  int partial;  /* runs.partial.csv, a file of this process (new_file.h), or -1 */
  const char *partial_path;
  const double *yref;           /* --ref: the reference of the one configuration, or NULL */
  const mbdae_problem *problem; /* --ref: that configuration */
} sweep_state;

/* ---- options -------------------------------------------------------------------------------- */

static int parse_solvers(const char *text, char *buf, size_t len, sweep_args *a)
{
  const char *items[MAX_SPECS];
  int n = split_items("--solvers", text, buf, len, items, MAX_SPECS);
  if (n <= 0) {
    return -1;
  }
  a->nsolvers = 0;
  for (int i = 0; i < n; i++) {
    if (check_solver(items[i]) != 0) {
      return -1;
    }
    int dup = 0;
    for (int j = 0; j < a->nsolvers; j++) {
      dup = dup || strcmp(a->solvers[j], items[i]) == 0;
    }
    if (!dup) {
      a->solvers[a->nsolvers++] = items[i];
    }
  }
  return 0;
}

/* --forms: distinct names (the problems check them when the specs are made). */
static int parse_forms(const char *text, sweep_args *a)
{
  const char *items[MAX_SPECS];
  int n = split_items("--forms", text, a->forms_text, sizeof a->forms_text, items, MAX_SPECS);
  if (n <= 0) {
    return -1;
  }
  for (int i = 0; i < n; i++) {
    for (int j = 0; j < a->nforms; j++) {
      if (strcmp(a->forms[j], items[i]) == 0) {
        usage_error("--forms names %s twice", items[i]);
        return -1;
      }
    }
    a->forms[a->nforms++] = items[i];
  }
  return 0;
}

/* "A:B" or "A", 0 <= A <= B <= MAX_M. */
static int parse_m(const char *text, sweep_args *a)
{
  char lo[32], *colon;
  if (copy_value("--m", text, lo, sizeof lo) != 0) {
    return -1;
  }
  colon = strchr(lo, ':');
  if (colon) {
    *colon = '\0';
  }
  if (parse_int("--m", lo, 0, MAX_M, &a->m_lo) != 0 ||
      parse_int("--m", colon ? colon + 1 : lo, 0, MAX_M, &a->m_hi) != 0) {
    return -1;
  }
  if (a->m_lo > a->m_hi) {
    usage_error("--m expects A:B with A <= B (rtol = 10^-(4+m/m_div), m = A..B), got '%s'", text);
    return -1;
  }
  return 0;
}

static int parse_rtols(const char *text, char *buf, size_t len, sweep_args *a)
{
  const char *items[MAX_RTOLS];
  int n = split_items("--rtol", text, buf, len, items, MAX_RTOLS);
  if (n <= 0) {
    return -1;
  }
  for (int i = 0; i < n; i++) {
    if (parse_rtol("--rtol", items[i], &a->rtols[i]) != 0) {
      return -1;
    }
  }
  a->nrtols = n;
  return 0;
}

/* "i/N" with 1 <= i <= N. */
static int parse_shard(const char *text, sweep_args *a)
{
  char buf[64], *slash;
  if (copy_value("--shard", text, buf, sizeof buf) != 0) {
    return -1;
  }
  slash = strchr(buf, '/');
  if (!slash) {
    usage_error("--shard expects i/N (the i-th of N slices, 1 <= i <= N), got '%s'", text);
    return -1;
  }
  *slash = '\0';
  if (parse_int("--shard N", slash + 1, 1, 1000000, &a->nshards) != 0 ||
      parse_int("--shard i", buf, 1, a->nshards, &a->shard) != 0) {
    return -1;
  }
  return 0;
}

static int parse_sweep_args(int argc, char **argv, sweep_args *a, char *solvers_buf, char *rtol_buf,
                            size_t buflen)
{
  const char *solver_list = NULL; /* checked once every --plugin is loaded */
  memset(a, 0, sizeof *a);
  a->m_hi = -1;
  a->jobs = a->shard = a->nshards = 1;
  a->repeat = 3; /* a point of a CPU diagram is a median, not one timing (the axis says which) */
  a->plots = 1;
  for (int i = 1; i < argc; i++) {
    const char *arg = argv[i], *v = NULL;
    int steps = 0;
    if (strcmp(arg, "--no-plots") == 0 || strcmp(arg, "--resume") == 0 ||
        strcmp(arg, "--force") == 0) {
      a->plots = a->plots && strcmp(arg, "--no-plots") != 0;
      a->resume = a->resume || strcmp(arg, "--resume") == 0;
      a->force = a->force || strcmp(arg, "--force") == 0;
      continue;
    }
    if (arg[0] != '-' || arg[1] == '\0') {
      if (a->nspecs == MAX_SPECS) {
        usage_error("at most %d problem specs", MAX_SPECS);
        return -1;
      }
      a->specs[a->nspecs++] = arg;
      continue;
    }
    static const char *const with_value[] = {
        "--solvers",   "--m",      "--rtol",  "--atol",   "--h0",     "--repeat",
        "--max-steps", "--jobs",   "--shard", "--out",    "--report", "--plugin",
        "--forms",     "--linsys", "--ref",   "--solver", "--timeout"};
    int known = 0;
    for (size_t k = 0; k < sizeof with_value / sizeof with_value[0]; k++) {
      known = known || strcmp(arg, with_value[k]) == 0;
    }
    if (!known) {
      unknown_option("sweep", arg);
      return -1;
    }
    if (!(v = option_value(argc, argv, &i))) {
      return -1;
    }
    int rc = 0;
    if (strcmp(arg, "--solvers") == 0 || strcmp(arg, "--solver") == 0) {
      solver_list = v;
    } else if (strcmp(arg, "--plugin") == 0) {
      rc = plugin_load(v);
    } else if (strcmp(arg, "--m") == 0) {
      rc = parse_m(v, a);
    } else if (strcmp(arg, "--rtol") == 0) {
      rc = parse_rtols(v, rtol_buf, buflen, a);
    } else if (strcmp(arg, "--atol") == 0) {
      rc = parse_positive(arg, v, &a->atol);
    } else if (strcmp(arg, "--h0") == 0) {
      rc = parse_positive(arg, v, &a->h0);
    } else if (strcmp(arg, "--timeout") == 0) {
      rc = parse_positive(arg, v, &a->timeout);
    } else if (strcmp(arg, "--repeat") == 0) {
      rc = parse_int(arg, v, 1, 1000, &a->repeat);
    } else if (strcmp(arg, "--max-steps") == 0) {
      rc = parse_int(arg, v, 1, 100000000, &steps);
      a->max_steps = steps;
    } else if (strcmp(arg, "--linsys") == 0) {
      rc = parse_linsys(arg, v, &a->linsys);
    } else if (strcmp(arg, "--forms") == 0) {
      rc = parse_forms(v, a);
    } else if (strcmp(arg, "--jobs") == 0) {
      rc = parse_int(arg, v, 1, 256, &a->jobs);
    } else if (strcmp(arg, "--shard") == 0) {
      rc = parse_shard(v, a);
    } else if (strcmp(arg, "--ref") == 0) {
      a->ref_file = v;
    } else if (strlen(v) > MAX_DIR) { /* --out, --report: the folder's files must fit a path */
      usage_error("%s: the folder name is too long (%zu characters, at most %d)", arg, strlen(v),
                  MAX_DIR);
      rc = -1;
    } else if (strcmp(arg, "--out") == 0) {
      a->out = v;
    } else {
      a->report = v;
    }
    if (rc != 0) {
      return -1;
    }
  }
  if (a->report) {
    if (a->out || a->resume || a->nforms || a->ref_file || a->force || a->timeout) {
      usage_error(
          "--report DIR [SHARD_DIR...] takes no --out, no --resume, no --force, no --forms, "
          "no --ref, no --timeout: it redoes the outputs of DIR (or makes them from the "
          "shard folders' runs.csv), whose rows hold their references");
      return -1;
    }
    for (int k = 0; k < a->nspecs; k++) {
      if (strlen(a->specs[k]) > MAX_DIR) {
        usage_error("--report: the folder name %.40s... is too long", a->specs[k]);
        return -1;
      }
    }
    return 0;
  }
  if (a->nspecs == 0) {
    usage_error(
        "a problem spec or 'all' is required, e.g. mbdae sweep caraxis --out DIR (see mbdae list)");
    return -1;
  }
  if (!a->out) {
    usage_error("--out DIR is required: the folder for runs.csv, runs.json, tables and diagrams");
    return -1;
  }
  if (a->nrtols && a->m_hi >= 0) {
    usage_error("give either --m or --rtol, not both");
    return -1;
  }
  if (solver_list) {
    return parse_solvers(solver_list, solvers_buf, buflen, a);
  }
  for (int s = 0; s < mbdae_solver_count() && a->nsolvers < MAX_SPECS; s++) {
    if (!mbdae_solver_get(s)->runs_on) { /* a specialist only when named */
      a->solvers[a->nsolvers++] = mbdae_solver_id(s);
    }
  }
  for (int s = 0; s < plugin_solver_count() && a->nsolvers < MAX_SPECS; s++) {
    if (!plugin_solver(s)->runs_on) {
      a->solvers[a->nsolvers++] = plugin_solver(s)->id;
    }
  }
  return 0;
}

/* ---- the plan ----------------------------------------------------------------------------- */

/* Spec k of the sweep: the k-th given (or of 'all'), or with --forms the spec of k / nforms in
 * form k % nforms; NULL after a reported error. */
static const char *spec_of(sweep_args *a, int all, int k)
{
  int nforms = a->nforms ? a->nforms : 1;
  const char *spec = all ? mbdae_problem_id(k / nforms) : a->specs[k / nforms];
  if (strcmp(spec, "all") == 0) {
    usage_error("'all' stands alone: mbdae sweep all, or a list of problem specs");
    return NULL;
  }
  if (!a->nforms) {
    return spec;
  }
  const char *keys = strchr(spec, ':');
  if (keys && (strncmp(keys + 1, "form=", 5) == 0 || strstr(keys, ",form="))) {
    usage_error("%s: --forms gives the form; leave form= out of the spec", spec);
    return NULL;
  }
  char *out = a->form_specs[k];
  if (snprintf(out, MAX_SPEC_LEN, "%s%sform=%s", spec, keys ? "," : ":", a->forms[k % nforms]) >=
      MAX_SPEC_LEN) {
    usage_error("%s with form=%s: the spec is too long", spec, a->forms[k % nforms]);
    return NULL;
  }
  return out;
}

/* Open the problems of the specs ("all": every problem), each in every form of --forms; -1 on bad
 * input (reported). */
static int open_problems(sweep_args *a, mbdae_problem **problems, int *nproblems)
{
  int all = a->nspecs == 1 && strcmp(a->specs[0], "all") == 0;
  int n = (all ? mbdae_problem_count() : a->nspecs) * (a->nforms ? a->nforms : 1);
  if (n > MAX_SPECS) {
    usage_error("at most %d configurations (problem specs times forms), not %d", MAX_SPECS, n);
    return -1;
  }
  *nproblems = 0;
  for (int i = 0; i < n; i++) {
    const char *spec = spec_of(a, all, i);
    if (!spec) {
      return -1;
    }
    mbdae_problem *p = open_problem(spec);
    if (!p) {
      return -1;
    }
    problems[(*nproblems)++] = p;
    for (int j = 0; j + 1 < *nproblems; j++) {
      if (strcmp(mbdae_problem_name(problems[j]), mbdae_problem_name(p)) == 0 &&
          (!a->nforms || i - j > i % a->nforms)) { /* not a form of the same spec */
        usage_error("%s and %s are the same problem: a sweep takes one configuration per problem "
                    "(its files are named after the problem); sweep the other into another --out",
                    mbdae_problem_spec(problems[j]), mbdae_problem_spec(p));
        return -1;
      }
    }
  }
  return 0;
}

/* The tolerances of problem p: the --rtol list, or the m grid. */
static int tolerances_of(const mbdae_problem *p, const sweep_args *a, double *rtol)
{
  if (a->nrtols) {
    memcpy(rtol, a->rtols, sizeof(double) * (size_t)a->nrtols);
    return a->nrtols;
  }
  mbdae_tolerance_plan plan = MBDAE_TOLERANCE_PLAN_INIT;
  mbdae_problem_tolerances(p, &plan);
  int lo = a->m_hi >= 0 ? a->m_lo : 0, hi = a->m_hi >= 0 ? a->m_hi : plan.m_max, n = 0;
  for (int m = lo; m <= hi; m++) {
    rtol[n++] = pow(10.0, -(4.0 + (double)m / plan.m_div));
  }
  return n;
}

/* All runs, in the order problem, solver, tolerance; *ntasks set.  NULL when out of memory. */
static sweep_task *make_plan(const sweep_args *a, mbdae_problem *const *problems, int nproblems,
                             int *ntasks)
{
  double rtol[MAX_M + MAX_RTOLS + 1];
  int total = 0;
  for (int i = 0; i < nproblems; i++) {
    total += a->nsolvers * tolerances_of(problems[i], a, rtol);
  }
  sweep_task *tasks = calloc((size_t)(total ? total : 1), sizeof *tasks);
  if (!tasks) {
    return NULL;
  }
  int k = 0;
  for (int i = 0; i < nproblems; i++) {
    int nt = tolerances_of(problems[i], a, rtol);
    for (int s = 0; s < a->nsolvers; s++) {
      for (int t = 0; t < nt; t++, k++) {
        tasks[k].problem = problems[i];
        tasks[k].solver = a->solvers[s];
        test_set_options(problems[i], rtol[t], a->atol, a->h0, a->max_steps, &tasks[k].opt);
        tasks[k].opt.linsys = a->linsys;
      }
    }
  }
  *ntasks = total;
  return tasks;
}

/* ---- progress --------------------------------------------------------------------------- */

static double wall_now(void)
{
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static void format_duration(char *buf, size_t len, double s)
{
  if (s < 60.0) {
    snprintf(buf, len, "%.1f s", s);
  } else if (s < 3600.0) {
    snprintf(buf, len, "%d:%02d min", (int)s / 60, (int)s % 60);
  } else {
    snprintf(buf, len, "%d:%02d h", (int)s / 3600, (int)s % 3600 / 60);
  }
}

static void print_run_line(const sweep_state *s, const mbdae_record *r)
{
  fprintf(stderr, "mbdae sweep: [%*d/%d] %s %s rtol %.3g: ", s->total >= 1000 ? 4 : 3, s->done,
          s->total, r->problem, r->solver, r->rtol);
  if (r->status != MBDAE_OK) {
    fprintf(stderr, "failed: %s (%s)\n", r->message[0] ? r->message : mbdae_strerror(r->status),
            mbdae_strcode(r->status));
  } else if (isfinite(r->scd) || r->yref) { /* NaN scd with a reference: not "no reference" */
    fprintf(stderr, "ok, scd %.2f, mescd %.2f, %ld steps, %.4f s\n", r->scd, r->mescd,
            r->stats.steps, r->cpu_seconds);
  } else {
    fprintf(stderr, "ok (%s), %ld steps, %.4f s\n", mbdae_strerror(MBDAE_ERR_NOREF), r->stats.steps,
            r->cpu_seconds);
  }
}

/* --ref: row's yref, scd and mescd from the reference file (a no-op without --ref). */
static void apply_reference(const sweep_state *s, mbdae_record *row)
{
  if (!s->yref) {
    return;
  }
  mbdae_options opt; /* mescd takes the run's rtol and atol */
  mbdae_options_default(&opt);
  opt.rtol = row->rtol;
  opt.atol = row->atol;
  if (use_reference(row, s->problem, s->yref, &opt) != 0) {
    row->status = MBDAE_ERR_NOMEM;
    snprintf(row->message, sizeof row->message, "%s", mbdae_strerror(MBDAE_ERR_NOMEM));
  }
}

/* One line of runs.partial.csv (row's, or the header with env's when row is NULL) at the end of
 * fd, whole or not at all (new_file_write_whole): no torn row under a file-size limit.  0, or -1
 * with errno set. */
static int append_partial(int fd, const mbdae_record *row, const mbdae_environment *env)
{
  char *text = NULL;
  size_t len = 0;
  FILE *mem = open_memstream(&text, &len);
  if (!mem) {
    return -1;
  }
  int bad = row ? mbdae_record_write_csv_row(mem, row) : mbdae_record_write_csv_header(mem, env);
  bad = fclose(mem) != 0 || bad;
  int rc = bad ? -1 : new_file_write_whole(fd, text, len);
  int err = errno;
  free(text);
  errno = bad ? ENOMEM : err;
  return rc;
}

/* A terminal gets one line, rewritten: done of total, elapsed, estimated remaining; failures are
 * printed above it.  Anything else (a log file, a batch system) gets one line per run. */
static void on_done(void *ctx, int task, mbdae_record *row)
{
  sweep_state *s = ctx;
  int k = s->index[task];
  if (s->have[k]) {
    mbdae_record_free(row);
    return; /* reported twice: cannot happen (sweep_pool.c reports each task once) */
  }
  s->rows[k] = *row;
  s->have[k] = 1;
  row = &s->rows[k]; /* the slice's row from here on: --ref changes it */
  apply_reference(s, row);
  s->done++;
  s->failed += row->status != MBDAE_OK;
  if (s->partial >= 0 && append_partial(s->partial, row, NULL) != 0) {
    fprintf(stderr,
            "%smbdae: cannot write %s: %s; it is no longer kept up to date (runs.csv is written "
            "at the end)\n",
            s->tty ? "\r\033[K" : "", s->partial_path, strerror(errno));
    close(s->partial);
    s->partial = -1;
  }
  if (!s->tty) {
    print_run_line(s, row);
    return;
  }
  if (row->status != MBDAE_OK) {
    fputs("\r\033[K", stderr);
    print_run_line(s, row);
  }
  double elapsed = wall_now() - s->start;
  char took[32], left[32];
  format_duration(took, sizeof took, elapsed);
  format_duration(left, sizeof left, elapsed / s->done * (s->total - s->done));
  fprintf(stderr, "\r\033[Kmbdae sweep: %d/%d runs, %s elapsed, about %s remaining, %d failed",
          s->done, s->total, took, left, s->failed);
  fflush(stderr);
}

/* ---- outputs ------------------------------------------------------------------------------ */

static void join(char *buf, size_t len, const char *dir, const char *name)
{
  snprintf(buf, len, "%s/%s", dir, name);
}

enum { TABLE_NAME_LEN = MBDAE_RECORD_ID_LEN + MBDAE_RECORD_SPEC_LEN + 16 };

/* <problem>[-<form>]-table.md of configuration i; 0, or -1 (reported) when its form does not tell
 * it apart from another configuration of its problem. */
static int table_name(mbdae_problem *const *problems, int nproblems, int i, char *name)
{
  char label[MBDAE_RECORD_SPEC_LEN];
  if (sweep_config_label((const mbdae_problem *const *)problems, nproblems, i, label,
                         sizeof label) != 0) {
    return usage_error("%s is one of several configurations of %s without a form to tell its "
                       "files apart: one per folder",
                       mbdae_problem_spec(problems[i]), mbdae_problem_name(problems[i]));
  }
  snprintf(name, TABLE_NAME_LEN, "%s%s%s-table.md", mbdae_problem_name(problems[i]),
           label[0] ? "-" : "", label);
  return 0;
}

/* runs.json, the tables and the script into the stage; EXIT_OK or EXIT_USAGE (reported). */
static int stage_reports(const char *stage, mbdae_problem *const *problems, int nproblems,
                         const char *const *solvers, int nsolvers, const mbdae_record *rows,
                         size_t nrows)
{
  char path[4500], name[TABLE_NAME_LEN];
  join(path, sizeof path, stage, "runs.json");
  if (sweep_write_json(path, rows, nrows) != 0) {
    fprintf(stderr, "mbdae: cannot write %s: %s\n", path, strerror(errno));
    return EXIT_USAGE;
  }
  for (int i = 0; i < nproblems; i++) {
    if (table_name(problems, nproblems, i, name) != 0) {
      return EXIT_USAGE;
    }
    join(path, sizeof path, stage, name);
    if (sweep_write_table(path, problems[i], rows, nrows) != 0) {
      fprintf(stderr, "mbdae: cannot write %s: %s\n", path, strerror(errno));
      return EXIT_USAGE;
    }
  }
  join(path, sizeof path, stage, "workprecision.gp");
  if (sweep_write_script(path, (const mbdae_problem *const *)problems, nproblems, solvers,
                         nsolvers) != 0) {
    fprintf(stderr, "mbdae: cannot write %s: %s\n", path, strerror(errno));
    return EXIT_USAGE;
  }
  return EXIT_OK;
}

/* The set of files (runs.csv and its side files when csv, runs.json, the tables, the script),
 * staged and committed together (sweep.h); EXIT_OK, or EXIT_USAGE (reported) with the folder as
 * it was. */
static int write_outputs(const char *dir, int csv, mbdae_problem *const *problems, int nproblems,
                         const char *const *solvers, int nsolvers, const mbdae_record *rows,
                         size_t nrows)
{
  char stage[4096], failed[4400];
  if (sweep_stage_open(dir, stage, sizeof stage) != 0) {
    fprintf(stderr, "mbdae: cannot make the staging folder %s/%s: %s\n", dir, SWEEP_STAGE,
            strerror(errno));
    return EXIT_USAGE;
  }
  int rc = EXIT_OK;
  if (csv && sweep_stage_csv(stage, rows, nrows) != 0) {
    fprintf(stderr, "mbdae: cannot write %s/runs.csv or a side file: %s\n", stage, strerror(errno));
    rc = EXIT_USAGE;
  }
  rc = rc == EXIT_OK ? stage_reports(stage, problems, nproblems, solvers, nsolvers, rows, nrows)
                     : rc;
  /* the new set is whole: the earlier sweep's files go, then it moves in */
  if (rc == EXIT_OK &&
      sweep_stage_commit(stage, dir, failed, sizeof failed, sweep_folder_drop_replaced) != 0) {
    fprintf(stderr, "mbdae: cannot write %s: %s\n", failed, strerror(errno));
    rc = EXIT_USAGE;
  }
  if (rc == EXIT_OK && sweep_folder_forget_replaced(dir) != 0) {
    fprintf(stderr, "mbdae: cannot write %s/sweep.conf: %s\n", dir, strerror(errno));
    rc = EXIT_USAGE;
  }
  if (rc != EXIT_OK) {
    sweep_stage_abort(stage);
  }
  return rc;
}

/* Read path's rows (each checked against its configuration, opened as it appears) and append
 * them to *rows; EXIT_OK or EXIT_USAGE (reported). */
static int read_rows(const char *path, mbdae_problem **problems, int *nproblems,
                     mbdae_record **rows, size_t *nrows)
{
  char msg[700];
  mbdae_record *got = NULL;
  size_t n = 0;
  if (sweep_csv_read_opening(path, problems, nproblems, MAX_SPECS, &got, &n, msg, sizeof msg) !=
      0) {
    return usage_error("%s", msg);
  }
  mbdae_record *all = realloc(*rows, sizeof *all * (*nrows + n + 1));
  if (!all) {
    mbdae_records_free(got, n);
    return usage_error("out of memory");
  }
  memcpy(all + *nrows, got, sizeof *all * n); /* the records move: free the array only */
  free(got);
  *rows = all;
  *nrows += n;
  return EXIT_OK;
}

/* The solvers of the rows, each once, in the order they appear. */
static int solvers_of(const mbdae_record *rows, size_t nrows, const char **solvers)
{
  int n = 0;
  for (size_t k = 0; k < nrows; k++) {
    int seen = 0;
    for (int s = 0; s < n && !seen; s++) {
      seen = strcmp(solvers[s], rows[k].solver) == 0;
    }
    if (!seen && n < MAX_SPECS) {
      solvers[n++] = rows[k].solver;
    }
  }
  return n;
}

/* --report DIR: the outputs again from DIR/runs.csv.  --report DIR SHARD...: DIR's whole set
 * (runs.csv and its side files too) from the shards' runs.csv, their rows in the order given. */
static int report_again(const char *dir, const char *const *shards, int nshards, int plots)
{
  char path[4200];
  mbdae_record *rows = NULL;
  size_t nrows = 0;
  int nproblems = 0, rc = EXIT_OK, failed = 0;
  mbdae_problem *problems[MAX_SPECS];
  const char *solvers[MAX_SPECS];
  for (int k = 0; k < (nshards ? nshards : 1) && rc == EXIT_OK; k++) {
    join(path, sizeof path, nshards ? shards[k] : dir, "runs.csv");
    rc = read_rows(path, problems, &nproblems, &rows, &nrows);
  }
  if (rc == EXIT_OK && nshards && make_dirs(dir) != 0) {
    rc = usage_error("cannot create the output folder %s: %s", dir, strerror(errno));
  }
  for (size_t k = 0; k < nrows; k++) {
    failed += rows[k].status != MBDAE_OK;
  }
  if (rc == EXIT_OK) {
    int nsolvers = solvers_of(rows, nrows, solvers);
    rc = write_outputs(dir, nshards > 0, problems, nproblems, solvers, nsolvers, rows, nrows);
    rc = rc == EXIT_OK && plots
             ? sweep_draw_pictures(dir, (const mbdae_problem *const *)problems, nproblems)
             : rc;
    rc = rc == EXIT_OK && failed ? EXIT_FAILED_RUN : rc;
    fprintf(stderr, "mbdae sweep: %zu runs (%d failed) from %s%s\n", nrows, failed,
            nshards ? "the runs.csv of the shard folders into " : "", nshards ? dir : path);
  }
  for (int i = 0; i < nproblems; i++) {
    mbdae_problem_destroy(problems[i]);
  }
  mbdae_records_free(rows, nrows);
  return rc;
}

/* ---- the folder: sweep.conf, an earlier sweep's files ----------------------------------- */

/* The settings lines of sweep.conf: every option that changes a row (not --jobs, --no-plots). */
static void describe_settings(FILE *out, const sweep_args *a, mbdae_problem *const *problems,
                              int nproblems)
{
  fputs("configurations:", out);
  for (int i = 0; i < nproblems; i++) {
    fprintf(out, " %s", mbdae_problem_spec(problems[i]));
  }
  fputs("\nsolvers:", out);
  for (int i = 0; i < a->nsolvers; i++) {
    fprintf(out, " %s", a->solvers[i]);
  }
  if (a->nrtols) {
    fputs("\ntolerances: --rtol ", out);
    for (int i = 0; i < a->nrtols; i++) {
      fprintf(out, "%s%.17g", i ? "," : "", a->rtols[i]);
    }
  } else if (a->m_hi >= 0) {
    fprintf(out, "\ntolerances: --m %d:%d", a->m_lo, a->m_hi);
  } else {
    fputs("\ntolerances: the test set's m = 0..m_max", out);
  }
  fprintf(out, a->atol > 0 ? "\natol: %.17g\n" : "\natol: rtol\n", a->atol);
  fprintf(out, a->h0 > 0 ? "h0: %.17g\n" : "h0: the test set's\n", a->h0);
  fprintf(out, a->max_steps > 0 ? "max-steps: %ld\n" : "max-steps: the solver's default\n",
          a->max_steps);
  fprintf(out, "linsys: %s\nrepeat: %d\n", mbdae_jac_kind_name(a->linsys), a->repeat);
  fprintf(out, a->timeout > 0 ? "timeout: %.17g s\n" : "timeout: none\n", a->timeout);
  fprintf(out, "shard: %d/%d\nref: %s\n", a->shard, a->nshards, a->ref_file ? a->ref_file : "none");
}

/* The owned lines of sweep.conf: the problems whose pictures, the tables and the rows' side files
 * the sweep writes; -1 (reported) when a table name cannot be made. */
static int describe_owned(FILE *out, mbdae_problem *const *problems, int nproblems, int nrows)
{
  char name[TABLE_NAME_LEN];
  fputs("problems:", out);
  for (int i = 0; i < nproblems; i++) {
    fprintf(out, " %s", mbdae_problem_name(problems[i]));
  }
  fputs("\ntables:", out);
  for (int i = 0; i < nproblems; i++) {
    if (table_name(problems, nproblems, i, name) != 0) {
      return -1;
    }
    fprintf(out, " %s", name);
  }
  fprintf(out, "\nrows: %d\n", nrows);
  return 0;
}

/* What prepare_folder returns for --resume on a folder whose sweep is finished (reported). */
enum { FOLDER_FINISHED = -1 };

/* Before the first run: refuse a folder that holds something else than this sweep (unless
 * --force), then write sweep.conf, which names the files of the sweep it held (replaced once this
 * one's set is complete); EXIT_OK, EXIT_USAGE (reported), or FOLDER_FINISHED. */
static int prepare_folder(const sweep_args *a, const char *partial_path, const char *settings,
                          const char *owned)
{
  char why[1200];
  int partial = access(partial_path, F_OK) == 0, resuming = partial && a->resume;
  int state = sweep_folder_state(a->out, settings, why, sizeof why);
  if (partial && !a->resume && !a->force) {
    return usage_error("%s holds the runs of an interrupted sweep: rerun with --resume to run only "
                       "the missing ones, or --force to start over",
                       partial_path);
  }
  if (resuming && state == SWEEP_FOLDER_OTHER) {
    return usage_error("--resume: %s was made by a sweep with other settings (%s); resume with the "
                       "options of the interrupted sweep",
                       partial_path, why);
  }
  if (!resuming && !a->force && state == SWEEP_FOLDER_OTHER) {
    return usage_error("%s holds a sweep with other settings (%s): sweep into another --out, or "
                       "give --force to replace that sweep's files",
                       a->out, why);
  }
  char csv[4200];
  snprintf(csv, sizeof csv, "%s/runs.csv", a->out);
  if (a->resume && !partial && state == SWEEP_FOLDER_SAME && access(csv, F_OK) == 0) {
    fprintf(stderr,
            "mbdae sweep: nothing to do: %s holds this sweep, finished (runs.csv; no "
            "runs.partial.csv to resume); leave out --resume to run it again\n",
            a->out);
    return FOLDER_FINISHED;
  }
  if (!resuming && !a->force && state == SWEEP_FOLDER_FOREIGN) {
    return usage_error("%s is not empty and holds no sweep (%s): sweep into a new or empty "
                       "folder, or give --force to write this sweep's files beside the others",
                       a->out, why);
  }
  /* the earlier sweep's files stay until this one's set is complete (sweep_folder_replaced);
   * --force drops the runs of an interrupted one */
  char *replaced = sweep_folder_replaced(a->out);
  if (!replaced) {
    return usage_error("out of memory");
  }
  if (partial && !resuming && remove(partial_path) != 0) {
    free(replaced);
    return usage_error("cannot remove %s: %s", partial_path, strerror(errno));
  }
  size_t olen = strlen(owned), rlen = strlen(replaced);
  char *lines = malloc(olen + rlen + 1);
  int rc = lines ? EXIT_OK : usage_error("out of memory");
  if (lines) {
    memcpy(lines, owned, olen);
    memcpy(lines + olen, replaced, rlen + 1);
    rc = sweep_folder_write(a->out, settings, lines) != 0
             ? usage_error("cannot write %s/sweep.conf: %s", a->out, strerror(errno))
             : EXIT_OK;
  }
  free(lines);
  free(replaced);
  return rc;
}

/* sweep.conf's settings and owned lines (malloc'ed), then prepare_folder. */
static int settle_folder(const sweep_args *a, mbdae_problem *const *problems, int nproblems,
                         int nrows, const char *partial_path)
{
  char *settings = NULL, *owned = NULL;
  size_t slen = 0, olen = 0;
  FILE *f = open_memstream(&settings, &slen), *g = open_memstream(&owned, &olen);
  int rc = f && g ? EXIT_OK : usage_error("out of memory");
  if (f) {
    describe_settings(f, a, problems, nproblems);
  }
  if (g && describe_owned(g, problems, nproblems, nrows) != 0) {
    rc = EXIT_USAGE;
  }
  if (f && fclose(f) != 0 && rc == EXIT_OK) {
    rc = usage_error("out of memory");
  }
  if (g && fclose(g) != 0 && rc == EXIT_OK) {
    rc = usage_error("out of memory");
  }
  if (rc == EXIT_OK) {
    rc = prepare_folder(a, partial_path, settings, owned);
  }
  free(settings);
  free(owned);
  return rc;
}

/* ---- runs.partial.csv and --resume ------------------------------------------------------- */

/* The option a row records with another value than task t (run with `repeat` timed runs) would
 * give it: "max_steps 5 there, 0 here" in why, 1; 0 when they agree.  The repeats of a failed run
 * are those it got to (the first failure ends them): compared for an ok row only. */
static int row_options_differ(const sweep_task *t, int repeat, const mbdae_record *r, char *why,
                              size_t len)
{
  const mbdae_options *o = &t->opt;
  char a[64], b[64];
  snprintf(a, sizeof a, "%.10g", o->hmax);
  snprintf(b, sizeof b, "%.10g", r->hmax);
  if (r->max_steps != o->max_steps) {
    snprintf(why, len, "max_steps %ld there, %ld here", r->max_steps, o->max_steps);
  } else if (strcmp(a, b) != 0) {
    snprintf(why, len, "hmax %s there, %s here", b, a);
  } else if (r->status == MBDAE_OK && r->repeats != repeat) {
    snprintf(why, len, "repeats %d there, %d here", r->repeats, repeat);
  } else {
    return 0;
  }
  return 1;
}

/* The slice's task of row r that is not yet done, or -1; -1 with why set when the row is a task's
 * run made with other options (row_options_differ). */
static int task_of_row(const sweep_state *s, const sweep_task *tasks, int repeat,
                       const mbdae_record *r, char *why, size_t len)
{
  for (int k = 0; k < s->total; k++) {
    const mbdae_options *o = &tasks[k].opt;
    char a[96], b[96];
    snprintf(a, sizeof a, "%.10g %.10g %.10g", o->rtol, o->atol, o->h0);
    snprintf(b, sizeof b, "%.10g %.10g %.10g", r->rtol, r->atol, r->h0);
    if (!s->have[k] && strcmp(mbdae_problem_spec(tasks[k].problem), r->spec) == 0 &&
        strcmp(tasks[k].solver, r->solver) == 0 && strcmp(a, b) == 0) {
      return row_options_differ(&tasks[k], repeat, r, why, len) ? -1 : k;
    }
  }
  return -1;
}

/* The first component (1-based) of an ok row's y that is not finite, or 0: an ok run ends at a
 * finite state (the harness checks it), so such a row was edited or damaged. */
static int ok_row_not_finite(const mbdae_record *r)
{
  for (int i = 0; r->status == MBDAE_OK && r->y && i < r->neq; i++) {
    if (!isfinite(r->y[i])) {
      return i + 1;
    }
  }
  return r->status == MBDAE_OK && !r->y && r->neq > 0 ? 1 : 0;
}

/* --resume: the rows of runs.partial.csv become done runs of the slice; EXIT_OK or EXIT_USAGE. */
static int resume_rows(sweep_state *s, const sweep_task *tasks, int repeat)
{
  char msg[600], why[200] = "";
  mbdae_record *rows = NULL;
  size_t nrows = 0;
  /* read + rewrite + rename; a last line a kill cut off is dropped (that run is done again) */
  if ((s->partial = new_file_reopen(s->partial_path, BOUNDED_SLACK, 1)) < 0) {
    return usage_error("cannot read and rewrite %s: %s", s->partial_path,
                       errno == EOVERFLOW ? "larger than the size it reports" : strerror(errno));
  }
  if (sweep_csv_read_tasks(s->partial_path, tasks, s->total, &rows, &nrows, msg, sizeof msg) != 0) {
    return usage_error("--resume: %s", msg);
  }
  for (size_t i = 0; i < nrows; i++) {
    int bad = ok_row_not_finite(&rows[i]);
    if (bad > 0) {
      int rc = usage_error("--resume: %s, row %zu (%s, %s, rtol %g): status ok, but y[%d] is not a "
                           "finite number; remove the row to run it again",
                           s->partial_path, i + 1, rows[i].spec, rows[i].solver, rows[i].rtol, bad);
      mbdae_records_free(rows, nrows);
      return rc;
    }
    int k = task_of_row(s, tasks, repeat, &rows[i], why, sizeof why);
    if (k < 0) {
      int rc = usage_error(
          "--resume: %s holds a run that is not in this sweep (%s, %s, rtol %g%s%s); "
          "resume with the options of the interrupted sweep",
          s->partial_path, rows[i].spec, rows[i].solver, rows[i].rtol, why[0] ? ": " : "", why);
      mbdae_records_free(rows, nrows);
      return rc;
    }
    s->rows[k] = rows[i]; /* s->rows takes over y, yref and names */
    memset(&rows[i], 0, sizeof rows[i]);
    s->have[k] = 1;
    apply_reference(s, &s->rows[k]);
    s->failed += s->rows[k].status != MBDAE_OK;
  }
  s->resumed = s->done = (int)nrows;
  mbdae_records_free(rows, nrows);
  fprintf(stderr, "mbdae sweep: resuming: %d of %d runs from %s, %d to run\n", s->resumed, s->total,
          s->partial_path, s->total - s->resumed);
  return EXIT_OK;
}

/* Open runs.partial.csv before the first run, so that a folder that takes no file stops the
 * sweep before it computes; EXIT_OK or EXIT_USAGE (reported). */
static int open_partial(sweep_state *s, const sweep_task *tasks, int resume, int repeat)
{
  int exists = access(s->partial_path, F_OK) == 0;
  if (exists && !resume) {
    return usage_error("%s holds the runs of an interrupted sweep: rerun with --resume to run only "
                       "the missing ones, or remove it",
                       s->partial_path);
  }
  if (exists && resume_rows(s, tasks, repeat) != EXIT_OK) {
    return EXIT_USAGE;
  }
  if (!exists && resume) {
    fprintf(stderr, "mbdae sweep: nothing to resume (no %s): all %d runs\n", s->partial_path,
            s->total);
  }
  if (!exists) {
    mbdae_environment env;
    mbdae_environment_get(&env);
    char tmp[NEW_FILE_PATH_LEN];
    s->partial = new_file_fd(s->partial_path, tmp, sizeof tmp);
    if (s->partial < 0 || append_partial(s->partial, NULL, &env) != 0 ||
        rename(tmp, s->partial_path) != 0) {
      int err = errno;
      if (s->partial >= 0) {
        close(s->partial);
        s->partial = -1;
        unlink(tmp);
      }
      return usage_error("cannot write %s: %s", s->partial_path, strerror(err));
    }
  }
  return EXIT_OK;
}

/* What SIGINT or SIGTERM to the sweep prints before it ends: how to go on.  Written by the handler
 * with write(2) (async-signal-safe), so made before the runs start. */
static char interrupted_note[4600];
static size_t interrupted_len;

static void on_interrupt(int sig)
{
  ssize_t ignored = write(STDERR_FILENO, interrupted_note, interrupted_len);
  (void)ignored;
  signal(sig, SIG_DFL);
  raise(sig); /* the exit status says which signal ended the sweep */
}

/* Say on SIGINT or SIGTERM where the finished runs are and how to resume (the workers end with
 * the sweep: sweep_pool.c). */
static void note_interrupts(const sweep_state *s)
{
  int n = snprintf(interrupted_note, sizeof interrupted_note,
                   "\nmbdae sweep: interrupted; the finished runs are in %s: rerun the same "
                   "command with --resume to run only the others\n",
                   s->partial_path);
  interrupted_len = n > 0 && (size_t)n < sizeof interrupted_note ? (size_t)n : 0;
  struct sigaction sa;
  memset(&sa, 0, sizeof sa);
  sa.sa_handler = on_interrupt;
  sigemptyset(&sa.sa_mask);
  sigaction(SIGINT, &sa, NULL);
  sigaction(SIGTERM, &sa, NULL);
}

/* Run the slice's tasks that are not done; every one ends with a row. */
static void run_missing(sweep_state *s, const sweep_task *tasks, const sweep_args *a)
{
  sweep_task *todo = calloc((size_t)s->total + 1, sizeof *todo);
  int n = 0;
  for (int k = 0; todo && k < s->total; k++) {
    if (!s->have[k]) {
      s->index[n] = k;
      todo[n++] = tasks[k];
    }
  }
  if (s->partial >= 0) {
    note_interrupts(s);
  }
  if (todo && sweep_pool_run(todo, n, a->repeat, a->jobs, a->timeout, on_done, s) != 0) {
    fprintf(stderr, "mbdae: cannot start worker processes: %s\n", strerror(errno));
  }
  free(todo);
  signal(SIGINT, SIG_DFL); /* the runs are over: the note no longer holds */
  signal(SIGTERM, SIG_DFL);
  for (int k = 0; k < s->total; k++) { /* none, unless memory or the pool failed */
    if (!s->have[k]) {
      sweep_record_for_task(&tasks[k], &s->rows[k]);
      apply_reference(s, &s->rows[k]);
      snprintf(s->rows[k].message, sizeof s->rows[k].message, "lost: never reported");
      s->have[k] = 1;
      s->failed++;
    }
  }
  if (s->tty && s->total > 0) {
    fputc('\n', stderr);
  }
}

/* runs.csv, then (runs.partial.csv removed) the reports; the exit status. */
static int finish_sweep(sweep_state *s, const sweep_args *a, mbdae_problem *const *problems,
                        int nproblems)
{
  char took[32];
  int rc = EXIT_OK;
  format_duration(took, sizeof took, wall_now() - s->start);
  rc = write_outputs(a->out, 1, problems, nproblems, a->solvers, a->nsolvers, s->rows,
                     (size_t)s->total);
  if (rc != EXIT_OK) {
    fprintf(stderr, "mbdae: the results in %s were not replaced%s\n", a->out,
            s->partial >= 0 ? "; the finished runs are in runs.partial.csv (--resume)" : "");
  } else {
    remove(s->partial_path);
    rc = a->plots ? sweep_draw_pictures(a->out, (const mbdae_problem *const *)problems, nproblems)
                  : EXIT_OK;
  }
  fprintf(stderr, "mbdae sweep: %d runs (%d resumed), %d failed, %s (%d job%s); results in %s\n",
          s->total, s->resumed, s->failed, took, a->jobs, a->jobs > 1 ? "s" : "", a->out);
  return rc == EXIT_OK && s->failed ? EXIT_FAILED_RUN : rc;
}

/* Why --ref does not fit a sweep of several configurations. */
static const char *ref_refusal(const sweep_args *a)
{
  if (strcmp(a->specs[0], "all") == 0) {
    return "'all' is every problem";
  }
  return a->nforms > 1 ? "several --forms" : "several problem specs";
}

int cmd_sweep(int argc, char **argv)
{
  char solvers_buf[4096], rtol_buf[4096], partial[4200];
  sweep_args a;
  if (parse_sweep_args(argc, argv, &a, solvers_buf, rtol_buf, sizeof solvers_buf) != 0) {
    return EXIT_USAGE;
  }
  if (a.report) {
    return report_again(a.report, a.specs, a.nspecs, a.plots);
  }
  mbdae_problem *problems[MAX_SPECS];
  int nproblems = 0, ntasks = 0, rc = EXIT_OK;
  sweep_task *tasks = NULL;
  sweep_state s;
  memset(&s, 0, sizeof s);
  s.partial = -1;
  double *yref = NULL;
  if (open_problems(&a, problems, &nproblems) != 0) {
    rc = EXIT_USAGE;
  } else if (a.ref_file && nproblems != 1) {
    rc =
        usage_error("--ref FILE is the reference of one configuration, and this sweep has %d (%s): "
                    "sweep one problem spec in at most one form with --ref",
                    nproblems, ref_refusal(&a));
  } else if (a.ref_file && !(yref = load_reference(a.ref_file, problems[0]))) {
    rc = EXIT_USAGE;
  } else if (make_dirs(a.out) != 0) {
    rc = usage_error("cannot create the output folder %s: %s", a.out, strerror(errno));
  } else if (!(tasks = make_plan(&a, problems, nproblems, &ntasks))) {
    rc = usage_error("out of memory");
  }
  /* the shard's slice [lo, hi) of the whole plan */
  int lo = (int)((long long)ntasks * (a.shard - 1) / a.nshards);
  int hi = (int)((long long)ntasks * a.shard / a.nshards);
  s.total = hi - lo;
  s.tty = isatty(STDERR_FILENO);
  s.start = wall_now();
  join(partial, sizeof partial, a.out, "runs.partial.csv");
  s.partial_path = partial;
  s.yref = yref;
  s.problem = nproblems ? problems[0] : NULL;
  if (rc == EXIT_OK) {
    s.rows = calloc((size_t)s.total + 1, sizeof *s.rows);
    s.have = calloc((size_t)s.total + 1, 1);
    s.index = calloc((size_t)s.total + 1, sizeof *s.index);
    rc = s.rows && s.have && s.index ? settle_folder(&a, problems, nproblems, s.total, partial)
                                     : usage_error("out of memory");
  }
  int finished = rc == FOLDER_FINISHED;
  rc = finished ? EXIT_OK : rc;
  if (rc == EXIT_OK && !finished) {
    rc = open_partial(&s, tasks + lo, a.resume, a.repeat);
  }
  if (rc == EXIT_OK && !finished) {
    if (a.nshards > 1) {
      fprintf(stderr, "mbdae sweep: shard %d/%d: runs %d..%d of %d\n", a.shard, a.nshards, lo + 1,
              hi, ntasks);
    }
    run_missing(&s, tasks + lo, &a);
    rc = finish_sweep(&s, &a, problems, nproblems);
  }
  if (s.partial >= 0) {
    close(s.partial);
  }
  for (int k = 0; s.rows && k < s.total; k++) {
    mbdae_record_free(&s.rows[k]); /* rows not filled are zeroed: a no-op */
  }
  free(s.rows);
  free(s.have);
  free(s.index);
  free(yref);
  free(tasks);
  for (int i = 0; i < nproblems; i++) {
    mbdae_problem_destroy(problems[i]);
  }
  return rc;
}
