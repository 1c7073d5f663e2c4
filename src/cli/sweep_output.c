/* The output folder of mbdae sweep: runs.csv, runs.json, <problem>-table.md and the gnuplot
 * script workprecision.gp that draws the work-precision diagrams from runs.csv.
 *
 * runs.csv, runs.json and the tables are the library's record writers (mbdae_record_write_*,
 * src/harness/record_*.c); with the script they are one set, staged in DIR/runs.staging and moved
 * into DIR together, runs.csv last (sweep.h).  Rows read back are checked against their
 * configuration (mbdae_record_fits) before their vectors are used.
 *
 * The figures follow the report's work-precision diagrams (Test Set for IVP Solvers, report 2.4,
 * e.g. Figures II.17.3-II.17.6): scd or mescd horizontally, CPU time on a log axis vertically,
 * one curve per solver; a second set puts residual evaluations on the vertical axis.  A third
 * measure is ours: the constraint drift, -log10 of the largest |g| over the run (issue 12), drawn
 * for the problems with constraints (no_drift in the script lists the others); so are tscd and
 * tmescd, the least scd and mescd along the reference trajectory (issue 35).  A
 * problem swept in several forms (--forms) has one curve per form and solver in its diagrams.
 * Every string of the sweep in the script is quoted by gnuplot_quote (gnuplot.c); the sweep runs
 * the script once per problem (`gnuplot -c workprecision.gp PROBLEM`, ARG1 never parsed as
 * commands) with a line on stderr before each, and the script plots only curves with points and
 * counts rows so that gnuplot has nothing to warn about. */
#include <dirent.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "bounded_read.h"
#include "new_file.h"
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
  FILE *f = bounded_open(path, BOUNDED_SLACK); /* not /dev/zero, not a pipe, not /proc's */
  if (!f) {
    if (errno == EINVAL) {
      snprintf(msg, msglen, "%s: not a regular file", path);
    } else {
      snprintf(msg, msglen, "cannot read %s: %s", path, strerror(errno));
    }
    return -1;
  }
  int rc = mbdae_record_read_csv_checked(f, path, fc ? row_fits : NULL, fc, recs, n, msg, msglen);
  if (rc != 0 && ferror(f) && errno == EFBIG) {
    snprintf(msg, msglen, "%s: more bytes than the file's size and %d MiB: not a runs.csv", path,
             BOUNDED_SLACK >> 20);
  }
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
  new_file nf;
  FILE *out = new_file_open(&nf, path);
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
  if (err) {
    new_file_discard(&nf);
    errno = err;
    return -1;
  }
  return new_file_commit(&nf);
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
                       size_t len, void (*before)(const char *dir))
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
  if (before) {
    before(dir);
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

int sweep_stage_commit(const char *stage, const char *dir, char *failed, size_t len,
                       void (*before)(const char *dir))
{
  int n = 0;
  char **names = staged_names(stage, &n);
  snprintf(failed, len, "%s", stage);
  int rc = names ? move_staged(stage, dir, names, n, failed, len, before) : -1;
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
  new_file nf;
  FILE *out = new_file_open(&nf, path);
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
  return new_file_commit(&nf);
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
  new_file nf;
  FILE *out = new_file_open(&nf, path);
  if (!out) {
    return -1;
  }
  mbdae_record_write_table(out, p, recs, n);
  note_file_reference(out, p, recs, n);
  fputs("\nThe runs of a `mbdae sweep` (runs.csv in this folder; --m and --rtol choose the "
        "tolerances, `mbdae sweep --report` writes this table again).\n",
        out); /* the library's table says nothing of where its records came from */
  return new_file_commit(&nf);
}

/* ---- the gnuplot script ------------------------------------------------------------------- */

const char *const sweep_metrics[SWEEP_NMETRICS] = {"scd", "mescd", "tscd", "tmescd"};

int sweep_metric_parse(const char *text)
{
  for (int m = 0; m < SWEEP_NMETRICS; m++) {
    if (strcmp(text, sweep_metrics[m]) == 0) {
      return m;
    }
  }
  usage_error("--metric: '%.40s' is not a measure a sweep draws; use scd, mescd, tscd or tmescd "
              "(scd and mescd at t_end, tscd and tmescd their least along the reference "
              "trajectory)",
              text);
  return -1;
}

double sweep_metric_of(const mbdae_record *r, int m)
{
  const double v[SWEEP_NMETRICS] = {r->scd, r->mescd, r->tscd, r->tmescd};
  return v[m];
}

/* The part of the script that does not depend on the sweep.  Curves are given by the sweep part:
 * curve c is the runs of problem curve_problem[c] with solver curve_solver[c] (and, when the
 * problem was swept in several configurations, whose spec is curve_key[c]), drawn with line style
 * curve_style[c] and legend curve_label[c].  gnuplot 5.4's strcol cuts a quoted CSV field at its
 * first comma, and chain:n=4,...,form=index3 differs from its other forms after it: the specs are
 * read in a pass of their own, each line one field (no row has a space before its message), into
 * row_spec, indexed by the row's $0 in the passes over the columns. */
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
    "# each row's spec (column 2) from its whole line: strcol cuts a quoted field at a comma\n"
    "rest(s) = s[strstrt(s, \",\") + 1:*]\n"
    "field(s) = (s[1:1] eq \"\\\"\") ? s[2:strstrt(s[2:*], \"\\\"\")] : (strstrt(s, \",\") > 0) ? "
    "s[1:strstrt(s, \",\") - 1] : s\n"
    "stats csv using (0) nooutput\n"
    "array row_spec[(exists(\"STATS_records\") ? STATS_records : 0) + 1]\n"
    "set datafile separator whitespace\n"
    "stats csv using (row_spec[int($0) + 1] = field(rest(strcol(1))), 0) nooutput\n"
    "set datafile separator comma\n"
    "is_run(c) = strcol(\"problem\") eq curve_problem[c] && strcol(\"solver\") eq "
    "curve_solver[c] && (curve_key[c] eq \"\" || row_spec[int($0) + 1] eq curve_key[c])\n"
    "is_ok(c) = is_run(c) && strcol(\"status\") eq \"ok\"\n"
    "is_failed(c) = is_run(c) && strcol(\"status\") ne \"ok\"\n"
    "work(w) = (w == 1) ? column(\"cpu_seconds\") : column(\"nres\") + column(\"nres_fd\")\n"
    "# drift: digits of the position constraint, -log10 max |g| (none: an empty field, NaN)\n"
    "drift_digits(dummy) = column(\"drift_pos_max\") > 0 ? -log10(column(\"drift_pos_max\")) : "
    "NaN\n"
    "precision(m) = (m eq \"drift\") ? drift_digits(0) : column(m)\n"
    "measure_names = \"scd mescd tscd tmescd drift\"\n"
    "# the place of measure m in measure_names (its label's index)\n"
    "measure_index(m) = words((' '.measure_names.' ')[1:strstrt(' '.measure_names.' ', ' '.m.' "
    "')]) + 1\n"
    "# the diagrams to draw: the main metric's first, then the others in their order\n"
    "measures = metric\n"
    "do for [k = 1:words(measure_names)] {\n"
    "  measures = measures.((word(measure_names, k) eq metric) ? '' : ' '.word(measure_names, k))\n"
    "}\n"
    "array measure_label[5] = [\"scd (at t_{end})\", \"mescd (at t_{end})\", \"tscd (least scd "
    "along the reference trajectory)\", \"tmescd (least mescd along the reference trajectory)\", "
    "\"-log_{10} max |g|  (largest position drift over the run)\"]\n"
    "array work_label[2] = [\"CPU time [s]\", \"residual evaluations\"]\n"
    "array work_title[2] = [\"CPU-time\", \"residual evaluations\"]\n"
    "array work_suffix[2] = [\"\", \"-nres\"]\n"
    "# a point of curve c on diagram (m, w): a precision, and a work a log axis can show\n"
    "has_point(c, m, w) = is_ok(c) && precision(m) == precision(m) && work(w) > 0\n"
    "# the CPU axis says how the points were timed (mbdae sweep --repeat N, column repeats)\n"
    "cpu_label(lo, hi) = \"CPU time [s], \".((lo != hi) ? sprintf(\"median of %d to %d runs\", "
    "lo, hi) : (lo == 1) ? \"one run each\" : sprintf(\"median of %d runs\", lo))\n"
    "# counting rows with stats over 1/0, never over no point at all: gnuplot warns of that\n"
    "count(dummy) = exists(\"STATS_sum\") ? int(STATS_sum) : 0\n"
    "\n";

/* The loop over the problems and measures (a second string: C limits one to 4095 characters).
 * Only curves with points are plotted (ok_curves, failed_curves: their indices), so that gnuplot
 * has no empty data set to warn about; the plot command is built from those indices and fixed
 * text only, never from a name or title of the sweep, and run with eval. */
static const char script_loop[] =
    "do for [i = 1:words(problems)] {\n"
    "  p = word(problems, i)\n"
    "  title = p\n"
    "  do for [k = 1:words(all_problems)] {\n"
    "    title = (word(all_problems, k) eq p) ? titles[k] : title\n"
    "  }\n"
    "  set autoscale xy   # stats keeps to the ranges set (an empty frame's would hide rows)\n"
    "  total = 0\n"
    "  failed_curves = \"\"\n"
    "  do for [c = 1:ncurves] {\n"
    "    if (curve_problem[c] eq p) {\n"
    "      stats csv using (is_failed(c) ? 1 : 0) nooutput\n"
    "      failed_curves = failed_curves.(count(0) > 0 ? sprintf(\" %d\", c) : \"\")\n"
    "      stats csv using (is_run(c) ? 1 : 0) nooutput\n"
    "      total = total + count(0)\n"
    "    }\n"
    "  }\n"
    "  if (total == 0) {\n"
    "    print sprintf(\"%s: nothing to draw (no runs in %s)\", p, csv)\n"
    "  } else {\n"
    "    stats csv using (strcol(\"problem\") eq p ? column(\"repeats\") : NaN) nooutput\n"
    "    work_label[1] = cpu_label(int(STATS_min), int(STATS_max))\n"
    "    ms = (strstrt(' '.no_drift.' ', ' '.p.' ') > 0) ? measures[1:strstrt(measures, ' drift') "
    "- 1] : measures\n"
    "    do for [j = 1:words(ms)] {\n"
    "      m = word(ms, j)\n"
    "      do for [w = 1:2] {\n"
    "        set autoscale xy\n"
    "        ok_curves = \"\"\n"
    "        do for [c = 1:ncurves] {\n"
    "          if (curve_problem[c] eq p) {\n"
    "            stats csv using (has_point(c, m, w) ? 1 : 0) nooutput\n"
    "            ok_curves = ok_curves.(count(0) > 0 ? sprintf(\" %d\", c) : \"\")\n"
    "          }\n"
    "        }\n"
    "        set xlabel measure_label[measure_index(m)]\n"
    "        set ylabel work_label[w]\n"
    "        if (words(ok_curves) == 0) {\n"
    "          set yrange [1:10]   # no point: an empty frame (around the failures, if any)\n"
    "          set xrange [0:16]\n"
    "          set ylabel work_label[w].sprintf(\" (no run with %s)\", m)\n"
    "        }\n"
    "        # names as written (an id's _ is no subscript): noenhanced\n"
    "        set title sprintf(\"%s: work-precision diagram (%s versus %s)\", title, m, "
    "work_title[w]) noenhanced\n"
    "        # the curves with points, by index (a plot iteration over nothing would run once)\n"
    "        plot_command = \"plot NaN notitle\"\n"
    "        do for [k = 1:words(ok_curves)] {\n"
    "          c = word(ok_curves, k)\n"
    "          plot_command = plot_command.sprintf(\", csv using (has_point(%s, m, w) ? "
    "precision(m) : NaN):(work(w)) ls curve_style[%s] title curve_label[%s] noenhanced\", c, c, "
    "c)\n"
    "        }\n"
    "        do for [k = 1:words(failed_curves)] {\n"
    "          c = word(failed_curves, k)\n"
    "          plot_command = plot_command.sprintf(\", csv using (is_failed(%s) ? "
    "-log10(column(\\\"rtol\\\")) : NaN):(0.035 * curve_style[%s]) axes x1y2 with points "
    "ls curve_style[%s] pt 2 ps 1.5 lw 2 title sprintf(\\\"%%s failed (at -log10 rtol)\\\", "
    "curve_label[%s]) noenhanced\", c, c, c, c)\n"
    "        }\n"
    "        do for [f in formats] {\n"
    "          if (f eq \"svg\") {\n"
    "            set terminal svg size 800,600 enhanced font \"Helvetica,12\" background "
    "\"white\"\n"
    "          } else {\n"
    "            set terminal pngcairo size 800,600 enhanced font \"Helvetica,10\"\n"
    "          }\n"
    "          set output sprintf(\"%s-%s%s.%s\", p, m, work_suffix[w], f)\n"
    "          eval plot_command\n"
    "          unset output\n"
    "        }\n"
    "      }\n"
    "    }\n"
    "  }\n"
    "}\n";

/* The value of key= in a spec ("index3" of form= in "pendulum:form=index3,..."), or NULL. */
static const char *value_of(const char *spec, const char *key, size_t *len)
{
  size_t klen = strlen(key);
  const char *keys = strchr(spec, ':');
  for (const char *k = keys; k; k = strchr(k + 1, ',')) {
    if (strncmp(k + 1, key, klen) == 0) {
      *len = strcspn(k + 1 + klen, ",");
      return k + 1 + klen;
    }
  }
  return NULL;
}

/* The form of a spec as a label: form=X gives "X", crank's index=N "indexN"; "" when neither. */
static void form_label(const char *spec, char *buf, size_t len)
{
  size_t n = 0;
  const char *form = value_of(spec, "form=", &n);
  const char *index = form ? NULL : value_of(spec, "index=", &n); /* crank: index=N, form=indexN */
  snprintf(buf, len, "%s%.*s", index ? "index" : "", form || index ? (int)n : 0,
           form    ? form
           : index ? index
                   : "");
}

int sweep_config_label(const mbdae_problem *const *problems, int nproblems, int i, char *buf,
                       size_t len)
{
  char other[MBDAE_RECORD_SPEC_LEN];
  int configs = 0, clash = 0;
  form_label(mbdae_problem_spec(problems[i]), buf, len);
  for (int j = 0; j < nproblems; j++) {
    if (strcmp(mbdae_problem_name(problems[j]), mbdae_problem_name(problems[i])) == 0) {
      configs++;
      form_label(mbdae_problem_spec(problems[j]), other, sizeof other);
      clash += j != i && strcmp(other, buf) == 0; /* their files would have one name */
    }
  }
  if (configs == 1 || clash || !buf[0]) {
    buf[0] = '\0';
    return configs == 1 ? 0 : -1;
  }
  return 0;
}

/* What curve c (configuration c / nsolvers, solver c % nsolvers) is called in the script. */
typedef struct curve_names {
  char key[MBDAE_RECORD_SPEC_LEN];                             /* curve_key: "" or the spec */
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
  snprintf(cn->key, sizeof cn->key, "%s", config[0] ? mbdae_problem_spec(p) : "");
  snprintf(cn->label, sizeof cn->label, "%s%s%s", config, config[0] && nsolvers > 1 ? " " : "",
           !config[0] || nsolvers > 1 ? solvers[c % nsolvers] : "");
}

/* The curves: every configuration with every solver; -1 (errno EINVAL) when two configurations of
 * a problem have the same spec (the script could not tell their rows apart). */
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

/* 1 when configuration i is the first of its problem (a problem swept in several forms is one
 * set of diagrams). */
static int first_of_name(const mbdae_problem *const *problems, int i)
{
  for (int j = 0; j < i; j++) {
    if (strcmp(mbdae_problem_name(problems[j]), mbdae_problem_name(problems[i])) == 0) {
      return 0;
    }
  }
  return 1;
}

/* The value of key in a spec "name:k=v,k=v" (its length in *len), or NULL. */
static const char *spec_value(const char *spec, const char *key, size_t *len)
{
  size_t klen = strlen(key);
  for (const char *k = strchr(spec, ':'); k; k = strchr(k + 1, ',')) {
    if (strncmp(k + 1, key, klen) == 0 && k[1 + klen] == '=') {
      *len = strcspn(k + 2 + klen, ",");
      return k + 2 + klen;
    }
  }
  return NULL;
}

/* The title of a problem's diagrams: its title, then the keys of its spec that are not the
 * problem's default, and n (the size of a chain) always; the form is the curves' (legend). */
static void diagram_title(const mbdae_problem *p, char *buf, size_t len)
{
  mbdae_problem *def = NULL;
  char msg[256];
  const char *spec = mbdae_problem_spec(p), *dspec = "";
  if (mbdae_problem_create(mbdae_problem_name(p), &def, msg, sizeof msg) == 0) {
    dspec = mbdae_problem_spec(def);
  }
  size_t n = (size_t)snprintf(buf, len, "%s", mbdae_problem_title(p));
  for (const char *k = strchr(spec, ':'); k && n < len; k = strchr(k + 1, ',')) {
    size_t klen = strcspn(k + 1, "="), vlen = 0, dlen = 0;
    char key[64];
    snprintf(key, sizeof key, "%.*s", (int)klen, k + 1);
    const char *v = spec_value(spec, key, &vlen), *d = spec_value(dspec, key, &dlen);
    int shown = strcmp(key, "n") == 0 ||
                (strcmp(key, "form") != 0 && (!d || dlen != vlen || strncmp(d, v, vlen) != 0));
    if (v && shown) {
      n += (size_t)snprintf(buf + n, len - n, ", %s = %.*s", key, (int)vlen, v);
    }
  }
  mbdae_problem_destroy(def);
}

/* 1 when a configuration of problem `name` has hidden constraints: its diagrams include drift. */
static int has_drift(const mbdae_problem *const *problems, int nproblems, const char *name)
{
  for (int i = 0; i < nproblems; i++) {
    if (strcmp(mbdae_problem_name(problems[i]), name) == 0 &&
        mbdae_problem_nconstraints(problems[i]) > 0) {
      return 1;
    }
  }
  return 0;
}

/* no_drift = 'a b': the problems without constraints in any configuration (no drift diagram). */
static void write_no_drift(FILE *out, const mbdae_problem *const *problems, int nproblems)
{
  fputs("no_drift = '", out); /* ids only ([A-Za-z0-9_-]): checked before the script is written */
  for (int i = 0, k = 0; i < nproblems; i++) {
    const char *name = mbdae_problem_name(problems[i]);
    if (first_of_name(problems, i) && !has_drift(problems, nproblems, name)) {
      fprintf(out, "%s%s", k++ ? " " : "", name);
    }
  }
  fputs("'   # problems without constraints: no drift diagram\n", out);
}

/* name = 'a b c': the problems (first configurations only) or the solvers, one quoted word list. */
static void write_word_list(FILE *out, const char *name, const mbdae_problem *const *problems,
                            int nproblems, const char *const *solvers, int nsolvers)
{
  size_t len = 1;
  for (int i = 0; i < nproblems; i++) {
    len += strlen(mbdae_problem_name(problems[i])) + 1;
  }
  for (int i = 0; i < nsolvers; i++) {
    len += strlen(solvers[i]) + 1;
  }
  char *words = calloc(len, 1);
  for (int i = 0; words && i < nproblems; i++) {
    if (first_of_name(problems, i)) {
      strcat(strcat(words, words[0] ? " " : ""), mbdae_problem_name(problems[i]));
    }
  }
  for (int i = 0; words && i < nsolvers; i++) {
    strcat(strcat(words, words[0] ? " " : ""), solvers[i]);
  }
  fprintf(out, "%s = ", name);
  gnuplot_string(out, words ? words : "");
  fputc('\n', out);
  free(words);
}

/* The variables of the sweep: its problems (ARG1 of `gnuplot -c workprecision.gp PROBLEM` draws
 * one), their titles, its solvers and curves; -1 (errno set) when curves cannot be told apart. */
static int write_sweep_part(FILE *out, const mbdae_problem *const *problems, int nproblems,
                            const char *const *solvers, int nsolvers)
{
  fputs("csv = 'runs.csv'\n", out);
  write_word_list(out, "all_problems", problems, nproblems, NULL, 0);
  fputs("problems = (ARGC >= 1) ? ARG1 : all_problems   # gnuplot -c workprecision.gp PROBLEM\n",
        out);
  int nnames = 0;
  for (int i = 0; i < nproblems; i++) {
    nnames += first_of_name(problems, i);
  }
  fprintf(out, "array titles[%d] = [", nnames);
  for (int i = 0, k = 0; i < nproblems; i++) {
    if (first_of_name(problems, i)) {
      char title[512];
      diagram_title(problems[i], title, sizeof title);
      fputs(k++ ? ", " : "", out);
      gnuplot_string(out, title);
    }
  }
  fputs("]\n", out);
  write_word_list(out, "solvers", NULL, 0, solvers, nsolvers);
  write_no_drift(out, problems, nproblems);
  return write_curves(out, problems, nproblems, solvers, nsolvers);
}

int sweep_write_script(const char *path, const mbdae_problem *const *problems, int nproblems,
                       const char *const *solvers, int nsolvers, int metric)
{
  for (int i = 0; i < nproblems + nsolvers; i++) {
    if (!mbdae_record_id_ok(i < nproblems ? mbdae_problem_spec(problems[i])
                                          : solvers[i - nproblems])) {
      errno = EINVAL; /* the names go into the script: nothing but an id may */
      return -1;
    }
  }
  new_file nf;
  FILE *out = new_file_open(&nf, path);
  if (!out) {
    return -1;
  }
  fputs("# Work-precision diagrams of a mbdae sweep, drawn from runs.csv in this folder.\n"
        "# Written by `mbdae sweep`; edit and rerun with:   gnuplot workprecision.gp\n"
        "# (or one problem's: gnuplot -c workprecision.gp PROBLEM).\n"
        "# For every problem: <problem>-scd, -mescd, -tscd, -tmescd and -drift against CPU time,\n"
        "# and <problem>-scd-nres, -mescd-nres, ..., -drift-nres against residual evaluations (the "
        "same\n"
        "# on every machine), one curve per solver (per form with --forms), in the layout of the\n"
        "# work-precision diagrams of the Test Set for IVP Solvers, report 2.4 (e.g. Figures\n"
        "# II.17.3-II.17.6); tscd and tmescd are the least scd and mescd along the reference\n"
        "# trajectory (columns tscd, tmescd of runs.csv; an empty frame where no run has them);\n"
        "# drift is -log10 of the largest |g| over the run.\n"
        "# Merged shards: concatenate their runs.csv keeping one header line,\n"
        "#   awk 'FNR > 1 || NR == 1' shard*/runs.csv > runs.csv\n"
        "# then run this script (or `mbdae sweep --report DIR`) where that runs.csv is.\n"
        "# Every string below that comes from the sweep is single-quoted: gnuplot expands nothing "
        "there.\n\n",
        out);
  if (write_sweep_part(out, problems, nproblems, solvers, nsolvers) != 0) {
    new_file_discard(&nf);
    return -1;
  }
  fputs("metric = ", out); /* one of sweep_metrics, quoted all the same */
  gnuplot_string(out, sweep_metrics[metric]);
  fputs("   # mbdae sweep --metric: the main diagram, <problem>-METRIC, drawn first\n", out);
  fputs(script_body, out);
  fputs(script_loop, out);
  return new_file_commit(&nf);
}

/* The diagrams of one problem, drawn in the scratch folder, each checked (gnuplot exits 0 on a
 * full disk) and renamed into dir when complete; GNUPLOT_OK, GNUPLOT_MISSING, or -1 (reported). */
static int draw_problem(const char *scratch, const char *dir, const char *name, int drift)
{
  char picture[300], why[4600];
  int rc = gnuplot_run(scratch, "../workprecision.gp", name, "gnuplot.log");
  if (rc == GNUPLOT_MISSING) {
    return rc;
  }
  for (int k = 0; k < SWEEP_NPICTURE_KINDS; k++) {
    snprintf(picture, sizeof picture, "%s-%s", name, sweep_picture_kinds[k]);
    if (!drift && strncmp(sweep_picture_kinds[k], "drift", 5) == 0) {
      snprintf(why, sizeof why, "%s/%s", dir, picture);
      unlink(why); /* no drift diagram without constraints, nor an old one */
      continue;
    }
    if (!gnuplot_scratch_keep(scratch, dir, picture, why, sizeof why) && rc == GNUPLOT_OK) {
      fprintf(stderr, "mbdae: gnuplot reported success, but %s; see %s/gnuplot.log\n", why, dir);
      rc = GNUPLOT_FAILED;
    }
  }
  if (rc == GNUPLOT_FAILED) {
    fprintf(stderr, "mbdae: gnuplot failed on %s/workprecision.gp (%s); see %s/gnuplot.log\n", dir,
            name, dir);
  }
  return rc == GNUPLOT_OK ? GNUPLOT_OK : -1;
}

int sweep_draw_pictures(const char *dir, const mbdae_problem *const *problems, int nproblems)
{
  char scratch[4200];
  int nnames = 0, drawn = 0, rc = EXIT_OK, missing = 0;
  for (int i = 0; i < nproblems; i++) {
    nnames += first_of_name(problems, i);
  }
  if (gnuplot_scratch_make(dir, 1, scratch, sizeof scratch) != 0) {
    fprintf(stderr, "mbdae: cannot make a scratch folder for gnuplot in %s: %s\n", dir,
            strerror(errno));
    return EXIT_USAGE;
  }
  for (int i = 0; i < nproblems && !missing; i++) {
    if (!first_of_name(problems, i)) {
      continue;
    }
    const char *name = mbdae_problem_name(problems[i]);
    fprintf(stderr, "mbdae sweep: drawing the diagrams of %s (%d of %d)\n", name, ++drawn, nnames);
    int g = draw_problem(scratch, dir, name, has_drift(problems, nproblems, name));
    missing = g == GNUPLOT_MISSING;
    rc = !missing && g != GNUPLOT_OK ? EXIT_FAILED_RUN : rc;
  }
  gnuplot_scratch_done(scratch, dir, "gnuplot.log", !missing);
  if (missing) {
    fputs("mbdae: warning: gnuplot not found, the diagrams were skipped (runs.csv, runs.json "
          "and the tables are written); install gnuplot-nox and run `cd ",
          stderr);
    shell_word(stderr, dir);
    fputs(" && gnuplot workprecision.gp`\n", stderr);
    return EXIT_OK;
  }
  return rc;
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
