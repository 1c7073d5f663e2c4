/* What a solver reports is checked by the harness (mbdae_solve_with): the plug-in solvers of
 * tests/plugin/liar.c run radau5 and then spoil their report while claiming success.  A NaN y at
 * the end passed as a run with "max |g| = 0" (fmax dropped the NaN) and the sweep called the
 * problem one without a reference; negative or 2e18 counters were printed as they came.  Each is
 * now a failed run (exit 1, MBDAE_ERR_SOLVER) whose message names the component or counter, the
 * drift stays NaN (JSON null), and the sweep's line says "failed". */
#define _POSIX_C_SOURCE 200809L
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "check.h"
#include "mbdae/mbdae.h"
#include "support.h"

static char out[1 << 16];

/* `mbdae run pendulum --plugin liar --solver solver EXTRA`: exit 1, a failed run whose output
 * mentions what. */
static void run_fails(const char *solver, const char *extra, const char *what)
{
  char args[1024];
  snprintf(args, sizeof args, "run pendulum --plugin %s --solver %s %s", PLUGIN_FILE_LIAR, solver,
           extra);
  int rc = run_cli(args, out, sizeof out);
  CHECK(rc == 1 && strstr(out, what) && strstr(out, " failed on pendulum"),
        "mbdae %s: exit %d, expected 1 naming '%s' (MBDAE_ERR_SOLVER):\n%s", args, rc, what, out);
}

static void spoiled_reports_fail(void)
{
  run_fails("nan_state", "", "y_1 (x) = nan at the end is not finite");
  CHECK(strstr(out, "drift: not finite"), "a NaN state's drift is NaN, not 0:\n%s", out);
  run_fails("nan_state", "--json", "\"drift_pos_max\": null");
  run_fails("nan_drift", "", "the constraint drift is not finite");
  run_fails("neg_steps", "", "reported steps = -3, outside [0, 1000000000000000]");
  run_fails("huge_nres", "", "reported nres = 2000000000000000000, outside [0, ");
  char args[1024];
  snprintf(args, sizeof args, "table pendulum --plugin %s --solver nan_state", PLUGIN_FILE_LIAR);
  int rc = run_cli(args, out, sizeof out);
  CHECK(rc == 1 && strstr(out, "is not finite"), "mbdae %s: exit %d:\n%s", args, rc, out);
}

/* The sweep's progress line says the run failed, not that the problem has no reference. */
static void sweep_says_failed(void)
{
  char dir[] = "/tmp/mbdae_liar_XXXXXX", args[1024];
  CHECK(mkdtemp(dir) != NULL, "temporary directory");
  snprintf(args, sizeof args,
           "sweep pendulum --plugin %s --solvers nan_state,neg_steps "
           "--m 0 --out %s/s",
           PLUGIN_FILE_LIAR, dir);
  run_cli(args, out, sizeof out);
  CHECK(strstr(out, "nan_state rtol 0.0001: failed: ") && strstr(out, "is not finite") &&
            strstr(out, "neg_steps rtol 0.0001: failed: ") && !strstr(out, "no reference"),
        "mbdae %s:\n%s", args, out);
  snprintf(args, sizeof args, "rm -rf %s", dir);
  CHECK(system(args) == 0, "%s", args);
}

int main(void)
{
  spoiled_reports_fail();
  sweep_says_failed();
  return check_summary("test_plugin_report");
}
