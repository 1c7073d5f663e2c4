/* mbdae plot --reference (issue 35): the problem's reference trajectory drawn beside the run.
 * The script holds, for every panel, a data block $refK with the reference at each of its output
 * times (mbdae_problem_reference_trajectory), through the panel's components and wrapping, and
 * plots it as points in the panel's frame with a key naming the solver and "reference"; without
 * --reference the script has none.  A configuration without a reference trajectory (a chain of 9
 * links) and --reference without a picture are refused with exit 2 and a message, before any
 * run or file. */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "check.h"
#include "support.h"

#include "gnuplot_support.h"

static char tmpdir[] = "/tmp/mbdae-test-plot-reference-XXXXXX";
static char script[1 << 20];

/* The lines of block $name in text: up to max (t, v) pairs into tv; the count, -1 when absent. */
static int read_block(const char *text, const char *name, double (*tv)[2], int max)
{
  char head[64];
  snprintf(head, sizeof head, "$%s << EOD\n", name);
  const char *at = strstr(text, head);
  if (!at) {
    return -1;
  }
  at += strlen(head);
  int n = 0;
  while (strncmp(at, "EOD\n", 4) != 0 && *at) {
    if (*at != '\n' && n < max && sscanf(at, "%lf %lf", &tv[n][0], &tv[n][1]) == 2) {
      n++;
    }
    at = strchr(at, '\n');
    at = at ? at + 1 : "";
  }
  return n;
}

/* `plot SPEC --reference`: block $ref<panel> holds component comp (1-based; over t) of the
 * reference trajectory at every output time, as the script prints numbers (%.10g); wrapped
 * into [-pi, pi] when wrap. */
static void check_reference_block(const char *spec, int panel, int comp, int wrap)
{
  char gp[512], png[512], name[16];
  snprintf(png, sizeof png, "%s/%s.png", tmpdir, spec);
  snprintf(gp, sizeof gp, "%s/%s.gp", tmpdir, spec);
  static char log[1 << 16];
  int rc = run_clif(log, sizeof log, "plot %s --solver radau5 --points 50 --reference --out %s",
                    spec, png);
  CHECK(rc == 0 || strstr(log, "gnuplot not found"), "plot %s --reference: exit %d:\n%s", spec, rc,
        log);
  CHECK(slurp(gp, script, sizeof script) == 0, "no script %s", gp);
  mbdae_problem *p = create_problem(spec);
  size_t nt = 0, neq = (size_t)mbdae_problem_neq(p);
  const double *t = NULL;
  CHECK(mbdae_problem_reference_trajectory(p, &nt, &t, NULL) == 0 && nt >= 100,
        "%s has a reference trajectory", spec);
  double *y = malloc(sizeof(double) * nt * neq), (*tv)[2] = malloc(sizeof *tv * (nt + 1));
  mbdae_problem_reference_trajectory(p, &nt, &t, y);
  snprintf(name, sizeof name, "ref%d", panel);
  int n = read_block(script, name, tv, (int)nt + 1), bad = 0;
  CHECK(n == (int)nt, "%s: $%s has %d lines, the reference trajectory %zu times", spec, name, n,
        nt);
  for (int k = 0; k < n && k < (int)nt; k++) {
    double v = y[(size_t)comp - 1 + (size_t)k * neq];
    v = wrap ? remainder(v, 2.0 * 3.14159265358979323846) : v;
    bad += fabs(tv[k][0] - t[k]) > 1e-9 * (1.0 + fabs(t[k])) ||
           fabs(tv[k][1] - v) > 1e-9 * (1.0 + fabs(v));
  }
  CHECK(n > 0 && bad == 0, "%s: %d of the %d points of $%s are not y_%d(t_k) of the reference",
        spec, bad, n, name, comp);
  char plot[128];
  snprintf(plot, sizeof plot, ", $ref%d using 1:2 with points ls 2 title \"reference\"", panel);
  CHECK(strstr(script, plot) && strstr(script, "title 'radau5' noenhanced, $ref"),
        "%s: the panel plots the run (key: the solver) and '%s':\n%.3000s", spec, plot, script);
  free(y);
  free(tv);
  mbdae_problem_destroy(p);
}

int main(void)
{
  if (!mkdtemp(tmpdir)) {
    return 1;
  }
  /* the pendulum's default panels: (x, y), x over t, y over t */
  check_reference_block("pendulum", 2, 1, 0);
  check_reference_block("pendulum", 3, 2, 0);
  /* Andrews' angles wrapped, as the run's */
  check_reference_block("andrews", 1, 1, 1);
  char args[600], path[512];
  static char log[1 << 16];
  snprintf(args, sizeof args, "plot pendulum --solver radau5 --points 50 --out %s/plain.png",
           tmpdir);
  int rc = run_cli(args, log, sizeof log);
  snprintf(path, sizeof path, "%s/plain.gp", tmpdir);
  CHECK(slurp(path, script, sizeof script) == 0 && !strstr(script, "$ref") &&
            strstr(script, "unset key"),
        "without --reference no reference in the script (exit %d)", rc);
  snprintf(args, sizeof args, "plot chain:n=9 --reference --out %s/chain9.png", tmpdir);
  expect(args, 2, "plot --reference: chain:n=9");
  expect(args, 2, "has no reference trajectory to draw");
  snprintf(path, sizeof path, "%s/chain9.gp", tmpdir);
  CHECK(access(path, F_OK) != 0, "a refused plot writes no script");
  snprintf(args, sizeof args, "plot pendulum --reference --data %s/only.csv", tmpdir);
  expect(args, 2,
         "--reference draws the reference trajectory into the picture: it goes with --out");
  snprintf(path, sizeof path, "%s/only.csv", tmpdir);
  CHECK(access(path, F_OK) != 0, "a refused plot writes no data file");
  snprintf(args, sizeof args, "rm -rf '%s'", tmpdir);
  CHECK(system(args) == 0, "cannot remove %s", tmpdir);
  return check_summary("test_plot_reference");
}
