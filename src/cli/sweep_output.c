/* The output folder of mbdae sweep: runs.csv, runs.json, <problem>-table.md and the gnuplot
 * script workprecision.gp that draws the work-precision diagrams from runs.csv.
 *
 * runs.csv, runs.json and the tables are the library's record writers (mbdae_record_write_*,
 * src/core/record_*.c) put into files written whole or not at all.  Shards concatenate with
 * `awk 'FNR > 1 || NR == 1' a/runs.csv b/runs.csv` (keep the first header line; each shard's "#"
 * lines stay with its rows).
 *
 * The figures follow the report's work-precision diagrams (Test Set for IVP Solvers, report 2.4,
 * e.g. Figures II.17.3-II.17.6): scd or mescd horizontally, CPU time on a log axis vertically,
 * one curve per solver; a second set puts residual evaluations on the vertical axis.  A third
 * measure is ours: the constraint drift, -log10 of the largest |g| over the run (issue 12).  A
 * problem swept in several forms (--forms) has one curve per form and solver in its diagrams. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "sweep.h"

int sweep_csv_read(const char *path, mbdae_record **recs, size_t *n, char *msg, size_t msglen)
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
  int rc = mbdae_record_read_csv(f, path, recs, n, msg, msglen);
  fclose(f);
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
