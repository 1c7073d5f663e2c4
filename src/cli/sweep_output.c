/* The output folder of mbdae sweep: runs.csv, runs.json, <problem>-table.md and the gnuplot
 * script workprecision.gp that draws the work-precision diagrams from runs.csv.
 *
 * runs.csv, runs.json and the tables are the library's record writers (mbdae_record_write_*,
 * src/core/record_*.c); with the script they are one set, staged in DIR/runs.staging and moved
 * into DIR together, runs.csv last (sweep.h).  Rows read back are checked against their
 * configuration (mbdae_record_fits) before their vectors are used.
 *
 * The figures follow the report's work-precision diagrams (Test Set for IVP Solvers, report 2.4,
 * e.g. Figures II.17.3-II.17.6): scd or mescd horizontally, CPU time on a log axis vertically,
 * one curve per solver; a second set puts residual evaluations on the vertical axis.  A third
 * measure is ours: the constraint drift, -log10 of the largest |g| over the run (issue 12).  A
 * problem swept in several forms (--forms) has one curve per form and solver in its diagrams. */
#include <dirent.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "sweep.h"

/* The check of the reader: a row of a configuration among problems[0..n-1] must fit it; with
 * max > 0, a configuration not among them is opened (open_problem) and added, up to max. */
typedef struct fit_ctx {
  mbdae_problem **problems;
  int n, max;
} fit_ctx;

static int row_fits(void *ctx, const mbdae_record *rec, char *why, size_t len)
{
  fit_ctx *fc = ctx;
  for (int i = 0; i < fc->n; i++) {
    if (strcmp(mbdae_problem_spec(fc->problems[i]), rec->spec) == 0) {
      return mbdae_record_fits(rec, fc->problems[i], why, len);
    }
  }
  if (fc->max == 0) {
    return 0; /* a row of no configuration of the sweep: the caller refuses it by its settings */
  }
  if (fc->n == fc->max) {
    snprintf(why, len, "more than %d configurations", fc->max);
    return -1;
  }
  if (!(fc->problems[fc->n] = open_problem(rec->spec))) {
    snprintf(why, len, "%.80s is not a configuration this mbdae knows (see above)", rec->spec);
    return -1;
  }
  return mbdae_record_fits(rec, fc->problems[fc->n++], why, len);
}

static int read_fitting(const char *path, fit_ctx *fc, mbdae_record **recs, size_t *n, char *msg,
                        size_t msglen)
{
  *recs = NULL;
  *n = 0;
  struct stat st;
  FILE *f = fopen(path, "r");
  if (!f) {
    snprintf(msg, msglen, "cannot read %s: %s", path, strerror(errno));
    return -1;
  }
  if (fstat(fileno(f), &st) != 0 || !S_ISREG(st.st_mode)) { /* not /dev/zero, not a pipe */
    snprintf(msg, msglen, "%s: not a regular file", path);
    fclose(f);
    return -1;
  }
  int rc = mbdae_record_read_csv_checked(f, path, fc ? row_fits : NULL, fc, recs, n, msg, msglen);
  fclose(f);
  return rc;
}

int sweep_csv_read(const char *path, mbdae_record **recs, size_t *n, char *msg, size_t msglen)
{
  return read_fitting(path, NULL, recs, n, msg, msglen);
}

int sweep_csv_read_opening(const char *path, mbdae_problem **problems, int *nproblems, int max,
                           mbdae_record **recs, size_t *n, char *msg, size_t msglen)
{
  fit_ctx fc = {problems, *nproblems, max};
  int rc = read_fitting(path, &fc, recs, n, msg, msglen);
  *nproblems = fc.n; /* those opened before a refusal too: the caller destroys them */
  return rc;
}

int sweep_csv_read_tasks(const char *path, const sweep_task *tasks, int ntasks, mbdae_record **recs,
                         size_t *n, char *msg, size_t msglen)
{
  fit_ctx fc = {calloc((size_t)ntasks + 1, sizeof(mbdae_problem *)), 0, 0};
  if (!fc.problems) {
    snprintf(msg, msglen, "%s: out of memory", path);
    return -1;
  }
  for (int k = 0; k < ntasks; k++) { /* each configuration once */
    int seen = 0;
    for (int i = 0; i < fc.n && !seen; i++) {
      seen = fc.problems[i] == tasks[k].problem;
    }
    if (!seen) {
      fc.problems[fc.n++] = (mbdae_problem *)tasks[k].problem; /* only read */
    }
  }
  int rc = read_fitting(path, &fc, recs, n, msg, msglen);
  free(fc.problems);
  return rc;
}

/* ---- writing a file whole or not at all --------------------------------------------------- */

FILE *sweep_open_atomic(const char *path, char *tmp, size_t tmplen)
{
  if (snprintf(tmp, tmplen, "%s.tmp", path) >= (int)tmplen) {
    errno = ENAMETOOLONG;
    return NULL;
  }
  return fopen(tmp, "w");
}

int sweep_close_atomic(FILE *out, const char *tmp, const char *path)
{
  errno = 0;
  int err = (fflush(out) != 0 || ferror(out)) ? (errno ? errno : EIO) : 0;
  if (fclose(out) != 0 && !err) {
    err = errno;
  }
  if (!err && rename(tmp, path) != 0) {
    err = errno;
  }
  if (err) {
    remove(tmp);
    errno = err;
    return -1;
  }
  return 0;
}

/* ---- the set of a sweep's files, committed together -------------------------------------- */

/* Remove the files in the staging folder (what an interrupted commit left) and the folder; -1
 * when it stays (it holds a folder) or is not a folder (a file, a link to elsewhere: left alone).
 */
static int stage_clear(const char *stage)
{
  struct stat st;
  if (lstat(stage, &st) != 0) {
    return errno == ENOENT ? 0 : -1;
  }
  if (!S_ISDIR(st.st_mode)) {
    errno = ENOTDIR;
    return -1;
  }
  DIR *d = opendir(stage);
  if (!d) {
    return errno == ENOENT ? 0 : -1;
  }
  char path[4400];
  for (struct dirent *e; (e = readdir(d));) {
    if (strcmp(e->d_name, ".") != 0 && strcmp(e->d_name, "..") != 0) {
      snprintf(path, sizeof path, "%s/%s", stage, e->d_name);
      unlink(path);
    }
  }
  closedir(d);
  return rmdir(stage) == 0 || errno == ENOENT ? 0 : -1;
}

int sweep_stage_open(const char *dir, char *stage, size_t len)
{
  if (snprintf(stage, len, "%s/%s", dir, SWEEP_STAGE) >= (int)len) {
    errno = ENAMETOOLONG;
    return -1;
  }
  if (stage_clear(stage) != 0) {
    return -1;
  }
  return mkdir(stage, 0777);
}

void sweep_stage_abort(const char *stage)
{
  int err = errno;
  stage_clear(stage);
  errno = err;
}

int sweep_stage_csv(const char *stage, const mbdae_record *rows, size_t nrows)
{
  char path[4200], side[32];
  snprintf(path, sizeof path, "%s/runs.csv", stage);
  FILE *out = fopen(path, "w");
  if (!out) {
    return -1;
  }
  int err = mbdae_record_write_csv_header(out, NULL) != 0 ? (errno ? errno : EIO) : 0;
  for (size_t k = 0; k < nrows && !err; k++) { /* a large final vector: runs-<row>.vec beside it */
    snprintf(side, sizeof side, "runs-%zu.vec", k + 1);
    errno = 0;
    if (mbdae_record_write_csv_row_side(out, &rows[k], stage, side) != 0) {
      err = errno ? errno : EIO;
    }
  }
  if ((fflush(out) != 0 || ferror(out)) && !err) {
    err = errno ? errno : EIO;
  }
  if (fclose(out) != 0 && !err) {
    err = errno;
  }
  errno = err;
  return err ? -1 : 0;
}

static int push_name(char ***names, int *n, int *cap, const char *name)
{
  if (*n == *cap) {
    char **grown = realloc(*names, sizeof **names * (size_t)(*cap = 2 * *cap + 16));
    if (!grown) {
      return 0;
    }
    *names = grown;
  }
  return ((*names)[*n] = strdup(name)) ? (++*n, 1) : 0;
}

static void free_names(char **names, int n)
{
  for (int i = 0; names && i < n; i++) {
    free(names[i]);
  }
  free(names);
}

/* The names in the staging folder, runs.csv last; NULL when it cannot be listed. */
static char **staged_names(const char *stage, int *n)
{
  DIR *d = opendir(stage);
  char **names = NULL;
  int cap = 0, ok = d != NULL, csv = 0;
  *n = 0;
  for (struct dirent *e; ok && (e = readdir(d));) {
    if (strcmp(e->d_name, "runs.csv") == 0) {
      csv = 1;
    } else if (strcmp(e->d_name, ".") != 0 && strcmp(e->d_name, "..") != 0) {
      ok = push_name(&names, n, &cap, e->d_name);
    }
  }
  if (d) {
    closedir(d);
  }
  ok = ok && (!csv || push_name(&names, n, &cap, "runs.csv"));
  if (!ok) {
    free_names(names, *n);
    return NULL;
  }
  return names ? names : calloc(1, sizeof *names); /* nothing staged: an empty list */
}

/* Move the staged files into dir, runs.csv last; a folder in a file's place is found before any
 * file moves.  On a failure after the old runs.csv was removed, the files moved are removed too:
 * no runs.csv, and nothing of a set without one. */
static int move_staged(const char *stage, const char *dir, char **names, int n, char *failed,
                       size_t len)
{
  char from[4400], to[4400];
  struct stat st;
  for (int i = 0; i < n; i++) {
    snprintf(failed, len, "%s/%s", dir, names[i]);
    if (stat(failed, &st) == 0 && S_ISDIR(st.st_mode)) {
      errno = EISDIR;
      return -1;
    }
  }
  int csv = n > 0 && strcmp(names[n - 1], "runs.csv") == 0, i = 0;
  snprintf(failed, len, "%s/runs.csv", dir);
  if (csv && remove(failed) != 0 && errno != ENOENT) {
    return -1;
  }
  for (; i < n; i++) {
    snprintf(from, sizeof from, "%s/%s", stage, names[i]);
    snprintf(failed, len, "%s/%s", dir, names[i]);
    if (rename(from, failed) != 0) {
      break;
    }
  }
  if (i == n) {
    return 0;
  }
  int err = errno;
  for (int k = 0; csv && k < i; k++) {
    snprintf(to, sizeof to, "%s/%s", dir, names[k]);
    remove(to);
  }
  errno = err;
  return -1;
}

/* 1 when name is a side file's, runs-<row>.vec, and not among names[0..n-1]. */
static int stale_side(const char *name, char **names, int n)
{
  size_t digits = strncmp(name, "runs-", 5) == 0 ? strspn(name + 5, "0123456789") : 0;
  if (digits == 0 || strcmp(name + 5 + digits, ".vec") != 0) {
    return 0;
  }
  for (int i = 0; i < n; i++) {
    if (strcmp(names[i], name) == 0) {
      return 0;
    }
  }
  return 1;
}

/* After a new runs.csv: the side files of the old one it does not name are removed. */
static void remove_stale_sides(const char *dir, char **names, int n)
{
  DIR *d = opendir(dir);
  char path[4400];
  for (struct dirent *e; d && (e = readdir(d));) {
    if (stale_side(e->d_name, names, n)) {
      snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
      remove(path);
    }
  }
  if (d) {
    closedir(d);
  }
}

int sweep_stage_commit(const char *stage, const char *dir, char *failed, size_t len)
{
  int n = 0;
  char **names = staged_names(stage, &n);
  snprintf(failed, len, "%s", stage);
  int rc = names ? move_staged(stage, dir, names, n, failed, len) : -1;
  if (rc == 0 && n > 0 && strcmp(names[n - 1], "runs.csv") == 0) {
    remove_stale_sides(dir, names, n);
  }
  int err = errno;
  free_names(names, n);
  stage_clear(stage);
  errno = err;
  return rc;
}

/* ---- runs.json and the tables ------------------------------------------------------------ */

int sweep_write_json(const char *path, const mbdae_record *recs, size_t n)
{
  char tmp[4200];
  FILE *out = sweep_open_atomic(path, tmp, sizeof tmp);
  if (!out) {
    return -1;
  }
  fputs("[\n", out);
  for (size_t k = 0; k < n; k++) {
    fputs("  ", out);
    mbdae_record_write_json(out, &recs[k]);
    fputs(k + 1 < n ? ",\n" : "\n", out);
  }
  fputs("]\n", out);
  return sweep_close_atomic(out, tmp, path);
}

/* A configuration without a reference of its own whose rows have one took it from sweep --ref
 * FILE: the table says so under the library's "no reference" line. */
static void note_file_reference(FILE *out, const mbdae_problem *p, const mbdae_record *recs,
                                size_t n)
{
  double *own = malloc(sizeof(double) * (size_t)mbdae_problem_neq(p));
  int from_file = own && mbdae_problem_ref(p, own) == MBDAE_ERR_NOREF;
  free(own);
  for (size_t k = 0; from_file && k < n; k++) {
    if (recs[k].yref && strcmp(recs[k].spec, mbdae_problem_spec(p)) == 0) {
      fprintf(out, "\nscd and mescd: against the reference values of the rows (yref in runs.csv), "
                   "from `mbdae sweep --ref FILE`.\n");
      return;
    }
  }
}

int sweep_write_table(const char *path, const mbdae_problem *p, const mbdae_record *recs, size_t n)
{
  char tmp[4200];
  FILE *out = sweep_open_atomic(path, tmp, sizeof tmp);
  if (!out) {
    return -1;
  }
  mbdae_record_write_table(out, p, recs, n);
  note_file_reference(out, p, recs, n);
  return sweep_close_atomic(out, tmp, path);
}

/* ---- the gnuplot script ------------------------------------------------------------------- */

/* The part of the script that does not depend on the sweep.  Curves are given by the sweep part:
 * curve c is the runs of problem curve_problem[c] with solver curve_solver[c] (and, when the
 * problem was swept in several configurations, whose spec starts with curve_key[c], the spec up
 * to its first comma: gnuplot 5.4's strcol cuts a quoted CSV field there), drawn with line style
 * curve_style[c] and legend curve_label[c]. */
static const char script_body[] =
    "formats = \"png svg\"   # drop svg to draw PNG files only\n"
    "\n"
    "set datafile separator comma\n"
    "set datafile columnheaders\n"
    "set style data linespoints\n"
    "set logscale y\n"
    "set format y \"10^{%L}\"\n"
    "set grid xtics ytics mytics\n"
    "set key top left box opaque\n"
    "set mxtics 2\n"
    "set offsets graph 0.03, graph 0.03, 0, 0   # keep the markers at the ends inside the frame\n"
    "# Failed runs: crosses in a strip at the bottom (second y axis, 0..1), one row per curve,\n"
    "# at -log10(rtol), the number of digits that was asked for.\n"
    "set y2range [0:1]\n"
    "unset y2tics\n"
    "set style line 1 lc rgb \"#0072b2\" lw 1.5 pt 7 ps 0.9\n"
    "set style line 2 lc rgb \"#d55e00\" lw 1.5 pt 5 ps 0.9\n"
    "set style line 3 lc rgb \"#009e73\" lw 1.5 pt 9 ps 1.1\n"
    "set style line 4 lc rgb \"#cc79a7\" lw 1.5 pt 11 ps 1.1\n"
    "set style line 5 lc rgb \"#e69f00\" lw 1.5 pt 13 ps 1.0\n"
    "set style line 6 lc rgb \"#56b4e9\" lw 1.5 pt 4 ps 0.9\n"
    "set style line 7 lc rgb \"#000000\" lw 1.5 pt 6 ps 0.9\n"
    "set style line 8 lc rgb \"#999999\" lw 1.5 pt 8 ps 0.9\n"
    "set style increment user\n"
    "\n"
    "# the spec up to its first comma, without a quote (whatever strcol makes of a quoted field)\n"
    "unquote(s) = (s[1:1] eq \"\\\"\") ? s[2:*] : s\n"
    "head(s) = (strstrt(s, \",\") > 0) ? s[1:strstrt(s, \",\") - 1] : s\n"
    "spec_key(dummy) = head(unquote(strcol(\"spec\")))\n"
    "is_run(c) = strcol(\"problem\") eq curve_problem[c] && strcol(\"solver\") eq "
    "curve_solver[c] && (curve_key[c] eq \"\" || spec_key(0) eq curve_key[c])\n"
    "is_ok(c) = is_run(c) && strcol(\"status\") eq \"ok\"\n"
    "is_failed(c) = is_run(c) && strcol(\"status\") ne \"ok\"\n"
    "work(w) = (w == 1) ? column(\"cpu_seconds\") : column(\"nres\") + column(\"nres_fd\")\n"
    "# drift: digits of the position constraint, -log10 max |g| (none: an empty field, NaN)\n"
    "drift_digits(dummy) = column(\"drift_pos_max\") > 0 ? -log10(column(\"drift_pos_max\")) : "
    "NaN\n"
    "precision(m) = (m eq \"drift\") ? drift_digits(0) : column(m)\n"
    "measures = \"scd mescd drift\"\n"
    "array measure_label[3] = [\"scd\", \"mescd\", \"-log_{10} max |g|  (largest position "
    "drift over the run)\"]\n"
    "array work_label[2] = [\"CPU time [s]\", \"residual evaluations\"]\n"
    "array work_title[2] = [\"CPU-time\", \"residual evaluations\"]\n"
    "array work_suffix[2] = [\"\", \"-nres\"]\n"
    "array nok[ncurves]\n"
    "array nfailed[ncurves]\n"
    "\n";

/* The loop over the problems and measures (a second string: C limits one to 4095 characters). */
static const char script_loop[] =
    "do for [i = 1:words(problems)] {\n"
    "  p = word(problems, i)\n"
    "  total = 0\n"
    "  do for [c = 1:ncurves] {\n"
    "    nfailed[c] = 0\n"
    "    if (curve_problem[c] eq p) {\n"
    "      stats csv using (is_failed(c) ? 1 : NaN) nooutput\n"
    "      nfailed[c] = exists(\"STATS_records\") ? STATS_records : 0\n"
    "      stats csv using (is_run(c) ? 1 : NaN) nooutput\n"
    "      total = total + (exists(\"STATS_records\") ? STATS_records : 0)\n"
    "    }\n"
    "  }\n"
    "  if (total == 0) {\n"
    "    print sprintf(\"%s: nothing to draw (no runs in %s)\", p, csv)\n"
    "  } else {\n"
    "    do for [j = 1:words(measures)] {\n"
    "      m = word(measures, j)\n"
    "      any_ok = 0\n"
    "      # points per curve: ok runs with this measure (scd needs a reference, drift "
    "constraints)\n"
    "      do for [c = 1:ncurves] {\n"
    "        nok[c] = 0\n"
    "        if (curve_problem[c] eq p) {\n"
    "          stats csv using (is_ok(c) ? precision(m) : NaN) nooutput\n"
    "          nok[c] = exists(\"STATS_records\") ? STATS_records : 0\n"
    "          any_ok = any_ok + nok[c]\n"
    "        }\n"
    "      }\n"
    "      do for [w = 1:2] {\n"
    "        set autoscale xy\n"
    "        set xlabel measure_label[j]\n"
    "        set ylabel work_label[w]\n"
    "        if (any_ok == 0) {\n"
    "          set yrange [1:10]   # no point: an empty frame (around the failures, if any)\n"
    "          set xrange [0:16]\n"
    "          set ylabel work_label[w].sprintf(\" (no run with %s)\", m)\n"
    "        }\n"
    "        set title sprintf(\"%s: work-precision diagram (%s versus %s)\", titles[i], m, "
    "work_title[w])\n"
    "        do for [f in formats] {\n"
    "          if (f eq \"svg\") {\n"
    "            set terminal svg size 800,600 enhanced font \"Helvetica,12\" background "
    "\"white\"\n"
    "          } else {\n"
    "            set terminal pngcairo size 800,600 enhanced font \"Helvetica,10\"\n"
    "          }\n"
    "          set output sprintf(\"%s-%s%s.%s\", p, m, work_suffix[w], f)\n"
    "          plot NaN notitle, \\\n"
    "               for [c = 1:ncurves] csv using (curve_problem[c] eq p && is_ok(c) ? "
    "precision(m) : NaN):(work(w)) \\\n"
    "                 ls curve_style[c] title (nok[c] > 0 ? curve_label[c] : \"\"), \\\n"
    "               for [c = 1:ncurves] csv using (curve_problem[c] eq p && is_failed(c) ? "
    "-log10(column(\"rtol\")) : NaN):(0.035 * curve_style[c]) \\\n"
    "                 axes x1y2 with points ls curve_style[c] pt 2 ps 1.5 lw 2 \\\n"
    "                 title (nfailed[c] > 0 ? sprintf(\"%s failed (at -log_{10} rtol)\", "
    "curve_label[c]) : \"\")\n"
    "          unset output\n"
    "        }\n"
    "      }\n"
    "    }\n"
    "  }\n"
    "}\n";

/* The form of a configuration ("index3" of "pendulum:form=index3,..."), or NULL. */
static const char *form_of(const char *spec, size_t *len)
{
  const char *keys = strchr(spec, ':');
  for (const char *k = keys; k; k = strchr(k + 1, ',')) {
    if (strncmp(k + 1, "form=", 5) == 0) {
      *len = strcspn(k + 6, ",");
      return k + 6;
    }
  }
  return NULL;
}

int sweep_config_label(const mbdae_problem *const *problems, int nproblems, int i, char *buf,
                       size_t len)
{
  int configs = 0;
  for (int j = 0; j < nproblems; j++) {
    configs += strcmp(mbdae_problem_name(problems[j]), mbdae_problem_name(problems[i])) == 0;
  }
  size_t n = 0;
  const char *form = form_of(mbdae_problem_spec(problems[i]), &n);
  if (configs == 1 || !form) {
    buf[0] = '\0';
    return configs == 1 ? 0 : -1;
  }
  snprintf(buf, len, "%.*s", (int)n, form);
  return 0;
}

/* What curve c (configuration c / nsolvers, solver c % nsolvers) is called in the script. */
typedef struct curve_names {
  char key[MBDAE_RECORD_SPEC_LEN];                             /* curve_key: "" or the spec head */
  char label[MBDAE_RECORD_SPEC_LEN + MBDAE_RECORD_ID_LEN + 2]; /* form, solver, or both */
  int style; /* 1..8, in the order of its problem */
} curve_names;

static void name_curve(const mbdae_problem *const *problems, int nproblems,
                       const char *const *solvers, int nsolvers, int c, curve_names *cn)
{
  const mbdae_problem *p = problems[c / nsolvers];
  char config[MBDAE_RECORD_SPEC_LEN];
  int style = 1;
  for (int k = 0; k < c; k++) { /* earlier curves of the same problem */
    style += strcmp(mbdae_problem_name(problems[k / nsolvers]), mbdae_problem_name(p)) == 0;
  }
  cn->style = (style - 1) % 8 + 1;
  sweep_config_label(problems, nproblems, c / nsolvers, config, sizeof config);
  snprintf(cn->key, sizeof cn->key, "%.*s",
           config[0] ? (int)strcspn(mbdae_problem_spec(p), ",") : 0, mbdae_problem_spec(p));
  snprintf(cn->label, sizeof cn->label, "%s%s%s", config, config[0] && nsolvers > 1 ? " " : "",
           !config[0] || nsolvers > 1 ? solvers[c % nsolvers] : "");
}

/* The curves: every configuration with every solver; -1 (errno EINVAL) when two configurations of
 * a problem have the same spec head (the script could not tell their rows apart). */
static int write_curves(FILE *out, const mbdae_problem *const *problems, int nproblems,
                        const char *const *solvers, int nsolvers)
{
  int ncurves = nproblems * nsolvers;
  curve_names *cn = calloc((size_t)ncurves + 1, sizeof *cn);
  if (!cn) {
    return -1;
  }
  for (int c = 0; c < ncurves; c++) {
    name_curve(problems, nproblems, solvers, nsolvers, c, &cn[c]);
    for (int k = 0; k < c; k++) {
      if (cn[c].key[0] && strcmp(cn[k].key, cn[c].key) == 0 && c % nsolvers == k % nsolvers) {
        free(cn);
        errno = EINVAL;
        return -1;
      }
    }
  }
  fprintf(out, "ncurves = %d\n", ncurves);
  static const char *const arrays[] = {"curve_problem", "curve_key", "curve_solver", "curve_label",
                                       "curve_style"};
  for (int a = 0; a < 5; a++) {
    fprintf(out, "array %s[%d] = [", arrays[a], ncurves);
    for (int c = 0; c < ncurves; c++) {
      fputs(c ? ", " : "", out);
      if (a == 4) {
        fprintf(out, "%d", cn[c].style);
      } else {
        gnuplot_string(out, a == 0   ? mbdae_problem_name(problems[c / nsolvers])
                            : a == 1 ? cn[c].key
                            : a == 2 ? solvers[c % nsolvers]
                                     : cn[c].label);
      }
    }
    fputs("]\n", out);
  }
  free(cn);
  return 0;
}

int sweep_write_script(const char *path, const mbdae_problem *const *problems, int nproblems,
                       const char *const *solvers, int nsolvers)
{
  for (int i = 0; i < nproblems + nsolvers; i++) {
    if (!mbdae_record_id_ok(i < nproblems ? mbdae_problem_spec(problems[i])
                                          : solvers[i - nproblems])) {
      errno = EINVAL; /* the names go into the script: nothing but an id may */
      return -1;
    }
  }
  char tmp[4200];
  FILE *out = sweep_open_atomic(path, tmp, sizeof tmp);
  if (!out) {
    return -1;
  }
  fputs(
      "# Work-precision diagrams of a mbdae sweep, drawn from runs.csv in this folder.\n"
      "# Written by `mbdae sweep`; edit and rerun with:   gnuplot workprecision.gp\n"
      "# For every problem: <problem>-scd, <problem>-mescd and <problem>-drift against CPU time,\n"
      "# and <problem>-scd-nres, -mescd-nres, -drift-nres against residual evaluations (the same\n"
      "# on every machine), one curve per solver (per form with --forms), in the layout of the\n"
      "# work-precision diagrams of the Test Set for IVP Solvers, report 2.4 (e.g. Figures\n"
      "# II.17.3-II.17.6); drift is -log10 of the largest |g| over the run.\n"
      "# Merged shards: concatenate their runs.csv keeping one header line,\n"
      "#   awk 'FNR > 1 || NR == 1' shard*/runs.csv > runs.csv\n"
      "# then run this script (or `mbdae sweep --report DIR`) where that runs.csv is.\n\n",
      out);
  fputs("csv = \"runs.csv\"\nproblems = \"", out);
  int nnames = 0;
  for (int i = 0; i < nproblems; i++) {
    int first = 1; /* a problem swept in several forms is one set of diagrams */
    for (int j = 0; j < i && first; j++) {
      first = strcmp(mbdae_problem_name(problems[j]), mbdae_problem_name(problems[i])) != 0;
    }
    if (first) {
      fprintf(out, "%s%s", nnames++ ? " " : "", mbdae_problem_name(problems[i]));
    }
  }
  fprintf(out, "\"\narray titles[%d] = [", nnames);
  for (int i = 0, k = 0; i < nproblems; i++) {
    int first = 1;
    for (int j = 0; j < i && first; j++) {
      first = strcmp(mbdae_problem_name(problems[j]), mbdae_problem_name(problems[i])) != 0;
    }
    if (first) {
      fputs(k++ ? ", " : "", out);
      gnuplot_string(out, mbdae_problem_title(problems[i]));
    }
  }
  fputs("]\nsolvers = \"", out);
  for (int s = 0; s < nsolvers; s++) {
    fprintf(out, "%s%s", s ? " " : "", solvers[s]);
  }
  fputs("\"\n", out);
  if (write_curves(out, problems, nproblems, solvers, nsolvers) != 0) {
    int err = errno;
    fclose(out);
    remove(tmp);
    errno = err;
    return -1;
  }
  fputs(script_body, out);
  fputs(script_loop, out);
  return sweep_close_atomic(out, tmp, path);
}

int make_dirs(const char *path)
{
  char buf[4096];
  if (snprintf(buf, sizeof buf, "%s", path) >= (int)sizeof buf) {
    errno = ENAMETOOLONG;
    return -1;
  }
  for (char *s = buf + 1;; s++) {
    if (*s == '/' || *s == '\0') {
      char c = *s;
      *s = '\0';
      if (mkdir(buf, 0777) != 0 && errno != EEXIST) {
        return -1;
      }
      *s = c;
      if (c == '\0') {
        break;
      }
    }
  }
  struct stat st;
  if (stat(buf, &st) != 0 || !S_ISDIR(st.st_mode)) {
    errno = ENOTDIR;
    return -1;
  }
  return 0;
}
