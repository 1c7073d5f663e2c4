/* What plot and a sweep's diagrams show for the cases a newcomer meets (issue 33, item 17):
 *  - plot with a solver that has no continuous output (tests/plugin/silent.c, no_output): one
 *    message that says so, exit 2, no picture and no script;
 *  - plot of a plug-in problem (tests/plugin/variants.c, decay: two components) draws every
 *    component, not only y_1;
 *  - names as written: a solver id with '_' in a sweep's legends (gnuplot's enhanced text would
 *    make it a subscript) and the page title of plot, both noenhanced;
 *  - a problem without constraints (decay) gets no drift diagram in a sweep, a problem with them
 *    (the car axis) does;
 *  - `mbdae list` keeps its columns aligned: the tolerance column starts at one place on every
 *    problem's line, long titles and a plug-in's problem included. */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "check.h"
#include "support.h"

#include "gnuplot_support.h"

static char tmpdir[] = "/tmp/mbdae-test-plot-faces-XXXXXX";
static char out[1 << 16];
static int have_gnuplot;

static int exists(const char *dir, const char *name)
{
  char path[512];
  snprintf(path, sizeof path, "%s/%s", dir, name);
  return access(path, F_OK) == 0;
}

/* How often needle occurs in dir/name. */
static int count_in(const char *dir, const char *name, const char *needle)
{
  static char text[1 << 20];
  char path[512];
  snprintf(path, sizeof path, "%s/%s", dir, name);
  if (slurp(path, text, sizeof text) != 0) {
    return -1;
  }
  int n = 0;
  for (const char *s = strstr(text, needle); s; s = strstr(s + 1, needle)) {
    n++;
  }
  return n;
}

static void check_no_output(void)
{
  char dir[300];
  snprintf(dir, sizeof dir, "%s/none", tmpdir);
  int rc = run_clif(out, sizeof out, "plot caraxis --plugin %s --solver no_output --out %s/q.png",
                    PLUGIN_FILE_SILENT, dir);
  int lines = 0;
  for (const char *s = out; (s = strchr(s, '\n')); s++) {
    lines++;
  }
  CHECK(rc == 2 && strstr(out, "no_output gives no continuous output") && lines == 1,
        "plot with a solver without continuous output: exit %d, expected 2 and one line:\n%s", rc,
        out);
  CHECK(!exists(dir, "q.png") && !exists(dir, "q.gp"), "an empty picture or script was written");
}

static void check_plugin_problem(void)
{
  char dir[300];
  snprintf(dir, sizeof dir, "%s/decay", tmpdir);
  int rc =
      run_clif(out, sizeof out, "plot decay --plugin %s --out %s/q.svg", PLUGIN_FILE_DECAY, dir);
  CHECK(rc == (have_gnuplot ? 0 : 1), "plot decay: exit %d\n%s", rc, out);
  CHECK(count_in(dir, "q.gp", "plot $panel") == 2,
        "plot of the plug-in problem decay: %d panels, expected its 2 components",
        count_in(dir, "q.gp", "plot $panel"));
  CHECK(count_in(dir, "q.gp", "noenhanced") >= 1, "plot: the page title is not noenhanced");
}

static void check_sweep_diagrams(void)
{
  char dir[300];
  snprintf(dir, sizeof dir, "%s/sweep", tmpdir);
  int rc = run_clif(out, sizeof out,
                    "sweep decay caraxis --plugin %s --plugin %s --solvers no_output,radau5 --m "
                    "0:1 --out %s",
                    PLUGIN_FILE_DECAY, PLUGIN_FILE_SILENT, dir);
  CHECK(rc == 0, "sweep decay caraxis: exit %d\n%s", rc, out);
  CHECK(count_in(dir, "workprecision.gp", "no_drift = 'decay'") == 1,
        "workprecision.gp: decay not among the problems without a drift diagram");
  if (!have_gnuplot) {
    return;
  }
  CHECK(!exists(dir, "decay-drift.png") && !exists(dir, "decay-drift-nres.svg"),
        "a drift diagram for decay, which has no constraints");
  CHECK(exists(dir, "decay-scd.png") && exists(dir, "caraxis-drift.png"),
        "decay's scd diagram or the car axis's drift diagram missing");
  CHECK(count_in(dir, "caraxis-scd.svg", ">no_output<") >= 1,
        "caraxis-scd.svg: the legend does not show 'no_output' as written");
}

static void check_list_columns(void)
{
  int rc = run_clif(out, sizeof out, "list --plugin %s", PLUGIN_FILE_DECAY);
  CHECK(rc == 0, "list: exit %d\n%s", rc, out);
  long column = -1;
  int lines = 0;
  for (char *line = out, *end; line && *line && strncmp(line, "\nsolvers:", 10) != 0; line = end) {
    end = strchr(line, '\n');
    end = end ? end + 1 : NULL;
    const char *tol = strstr(line, "10^-(");
    if (line[0] != ' ' && tol && (!end || tol < end)) {
      lines++;
      column = column < 0 ? (long)(tol - line) : column;
      CHECK(tol - line == column, "list: the tolerances at column %ld, not %ld:\n%.*s",
            (long)(tol - line), column, end ? (int)(end - line) : 200, line);
    }
  }
  CHECK(lines >= 9, "list: %d problem lines, expected the 8 built-in ones and decay", lines);
}

int main(void)
{
  if (!mkdtemp(tmpdir)) {
    perror("mkdtemp");
    return 1;
  }
  have_gnuplot = system("gnuplot -V > /dev/null 2>&1") == 0;
  check_no_output();
  check_plugin_problem();
  check_sweep_diagrams();
  check_list_columns();
  char cmd[300];
  snprintf(cmd, sizeof cmd, "rm -rf '%s'", tmpdir);
  if (check_failed == 0 && system(cmd) != 0) {
    fprintf(stderr, "cannot remove %s\n", tmpdir);
  }
  return check_summary("test_plot_faces");
}
