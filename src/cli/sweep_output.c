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
 * one curve per solver; a second pair puts residual evaluations on the vertical axis. */
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

int sweep_write_table(const char *path, const mbdae_problem *p, const mbdae_record *recs, size_t n)
{
  char tmp[4200];
  FILE *out = sweep_open_atomic(path, tmp, sizeof tmp);
  if (!out) {
    return -1;
  }
  mbdae_record_write_table(out, p, recs, n);
  return sweep_close_atomic(out, tmp, path);
}

/* ---- the gnuplot script ------------------------------------------------------------------- */

/* The part of the script that does not depend on the sweep. */
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
    "# Failed runs: crosses in a strip at the bottom (second y axis, 0..1), one row per solver,\n"
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
    "\n"
    "is_run(p, s) = strcol(\"problem\") eq p && strcol(\"solver\") eq s\n"
    "is_ok(p, s) = is_run(p, s) && strcol(\"status\") eq \"ok\"\n"
    "is_failed(p, s) = is_run(p, s) && strcol(\"status\") ne \"ok\"\n"
    "work(w) = (w == 1) ? column(\"cpu_seconds\") : column(\"nres\") + column(\"nres_fd\")\n"
    "measures = \"scd mescd\"\n"
    "array work_label[2] = [\"CPU time [s]\", \"residual evaluations\"]\n"
    "array work_title[2] = [\"CPU-time\", \"residual evaluations\"]\n"
    "array work_suffix[2] = [\"\", \"-nres\"]\n"
    "ns = words(solvers)\n"
    "array nok[ns]\n"
    "array nfailed[ns]\n"
    "\n"
    "do for [i = 1:words(problems)] {\n"
    "  p = word(problems, i)\n"
    "  total = 0\n"
    "  any_ok = 0\n"
    "  # points per solver: ok runs with a reference (scd), failed runs (an empty plot is an "
    "error)\n"
    "  do for [k = 1:ns] {\n"
    "    stats csv using (is_ok(p, word(solvers, k)) ? column(\"scd\") : NaN) nooutput\n"
    "    nok[k] = exists(\"STATS_records\") ? STATS_records : 0\n"
    "    stats csv using (is_failed(p, word(solvers, k)) ? 1 : NaN) nooutput\n"
    "    nfailed[k] = exists(\"STATS_records\") ? STATS_records : 0\n"
    "    total = total + nok[k] + nfailed[k]\n"
    "    any_ok = any_ok + nok[k]\n"
    "  }\n"
    "  if (total == 0) {\n"
    "    print sprintf(\"%s: nothing to draw (no runs in %s, or none with a reference)\", p, csv)\n"
    "  } else {\n"
    "    do for [j = 1:words(measures)] {\n"
    "      m = word(measures, j)\n"
    "      do for [w = 1:2] {\n"
    "        set autoscale xy\n"
    "        set xlabel m\n"
    "        set ylabel work_label[w]\n"
    "        if (any_ok == 0) {\n"
    "          set yrange [1:10]   # no successful run: an empty frame around the failures\n"
    "          set ylabel work_label[w].\" (no successful run)\"\n"
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
    "          plot for [k = 1:ns] csv using (is_ok(p, word(solvers, k)) ? column(m) : "
    "NaN):(work(w)) \\\n"
    "                 ls k title (nok[k] > 0 ? word(solvers, k) : \"\"), \\\n"
    "               for [k = 1:ns] csv using (is_failed(p, word(solvers, k)) ? "
    "-log10(column(\"rtol\")) : NaN):(0.035 * k) \\\n"
    "                 axes x1y2 with points ls k pt 2 ps 1.5 lw 2 \\\n"
    "                 title (nfailed[k] > 0 ? sprintf(\"%s failed (at -log_{10} rtol)\", "
    "word(solvers, k)) : \"\")\n"
    "          unset output\n"
    "        }\n"
    "      }\n"
    "    }\n"
    "  }\n"
    "}\n";

int sweep_write_script(const char *path, const mbdae_problem *const *problems, int nproblems,
                       const char *const *solvers, int nsolvers)
{
  for (int i = 0; i < nproblems + nsolvers; i++) {
    if (!mbdae_record_id_ok(i < nproblems ? mbdae_problem_name(problems[i])
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
  fputs("# Work-precision diagrams of a mbdae sweep, drawn from runs.csv in this folder.\n"
        "# Written by `mbdae sweep`; edit and rerun with:   gnuplot workprecision.gp\n"
        "# For every problem: <problem>-scd and <problem>-mescd against CPU time, and\n"
        "# <problem>-scd-nres and <problem>-mescd-nres against residual evaluations (the same on\n"
        "# every machine), one curve per solver, in the layout of the work-precision diagrams of\n"
        "# the Test Set for IVP Solvers, report 2.4 (e.g. Figures II.17.3-II.17.6).\n"
        "# Merged shards: concatenate their runs.csv keeping one header line,\n"
        "#   awk 'FNR > 1 || NR == 1' shard*/runs.csv > runs.csv\n"
        "# then run this script (or `mbdae sweep --report DIR`) where that runs.csv is.\n\n",
        out);
  fputs("csv = \"runs.csv\"\nproblems = \"", out);
  for (int i = 0; i < nproblems; i++) {
    fprintf(out, "%s%s", i ? " " : "", mbdae_problem_name(problems[i]));
  }
  fprintf(out, "\"\narray titles[%d] = [", nproblems);
  for (int i = 0; i < nproblems; i++) {
    fputs(i ? ", " : "", out);
    gnuplot_string(out, mbdae_problem_title(problems[i]));
  }
  fputs("]\nsolvers = \"", out);
  for (int s = 0; s < nsolvers; s++) {
    fprintf(out, "%s%s", s ? " " : "", solvers[s]);
  }
  fputs("\"\n", out);
  fputs(script_body, out);
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
