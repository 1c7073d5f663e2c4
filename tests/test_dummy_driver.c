/* mbdae_solve_dummy's tend (0: the problem's own; -5, NaN, inf and times not after t0 are refused
 * with MBDAE_ERR_ARG, where -5 and NaN silently ran to the problem's tend), and form=dummy in the
 * commands: run and table go through the switching driver (the selection's pivot degenerates at
 * t = 0.59 for radau5 on one selection) and report the switches; plot refuses it, naming run. */
#define _POSIX_C_SOURCE 200809L
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "mbdae/mbdae.h"
#include "support.h"

static void tend_is_checked(void)
{
  mbdae_problem *p = create_problem("pendulum:form=dummy");
  double y[16], yp[16];
  mbdae_options opt;
  mbdae_options_default(&opt);
  mbdae_result r;
  int switches = -1;
  const mbdae_solver_type *radau5 = mbdae_solver_find("radau5");
  const double bad[] = {-5.0, NAN, INFINITY, -INFINITY, 1e-300 * -1.0};
  for (size_t k = 0; k < sizeof bad / sizeof bad[0]; k++) {
    CHECK(mbdae_problem_init(p, y, yp) == 0, "init");
    int rc = mbdae_solve_dummy(p, radau5, bad[k], &opt, y, yp, &r, &switches);
    CHECK(rc == MBDAE_ERR_ARG && strstr(r.message, "tend must be 0") && r.stats.steps == 0,
          "tend = %g: rc %d, %s", bad[k], rc, r.message);
  }
  CHECK(mbdae_problem_init(p, y, yp) == 0, "init");
  int rc = mbdae_solve_dummy(p, radau5, 2.0, &opt, y, yp, &r, &switches);
  CHECK(rc == 0 && r.t == 2.0, "tend = 2: rc %d, t = %g, %s", rc, r.t, r.message);
  CHECK(mbdae_problem_init(p, y, yp) == 0, "init");
  rc = mbdae_solve_dummy(p, radau5, 0.0, &opt, y, yp, &r, &switches);
  CHECK(rc == 0 && r.t == mbdae_problem_tend(p), "tend = 0: rc %d, t = %g", rc, r.t);
  mbdae_problem_destroy(p);
}

/* The number after key in out (-1 when absent). */
static long number_after(const char *out, const char *key)
{
  const char *at = strstr(out, key);
  return at ? atol(at + strlen(key)) : -1;
}

/* run, table and sweep of form=dummy switch the selection (mbdae_record_run); plot refuses. */
static void commands_switch(void)
{
  static char out[1 << 16];
  int rc = run_cli("run pendulum:form=dummy --solver radau5", out, sizeof out);
  long shown = number_after(out, "state selection: ");
  CHECK(rc == 0 && shown > 10,
        "run pendulum:form=dummy --solver radau5: exit %d (it failed at "
        "t = 0.59 on one selection), switches %ld:\n%s",
        rc, shown, out);
  rc = run_cli("run pendulum:form=dummy --solver radau5 --json", out, sizeof out);
  CHECK(rc == 0 && number_after(out, "\"switches\": ") == shown, "--json switches: %s", out);
  rc = run_cli("table pendulum:form=dummy --solver radau5", out, sizeof out);
  CHECK(rc == 0 && strstr(out, "radau5   1e-10") && !strstr(out, "failed"),
        "table pendulum:form=dummy (every tolerance failed): exit %d:\n%s", rc, out);
  char dir[] = "/tmp/mbdae_dummy_XXXXXX", args[512];
  CHECK(mkdtemp(dir) != NULL, "temporary directory");
  snprintf(args, sizeof args,
           "sweep pendulum:form=dummy --solvers radau5 --m 0 --no-plots "
           "--out %s/s && grep -c ',ok,' %s/s/runs.csv && head -1 %s/s/runs.csv",
           dir, dir, dir);
  rc = run_cli(args, out, sizeof out);
  CHECK(rc == 0 && strstr(out, ",switches"), "sweep of form=dummy: %s", out);
  snprintf(args, sizeof args, "plot pendulum:form=dummy --out %s/p.png", dir);
  rc = run_cli(args, out, sizeof out);
  CHECK(rc == 2 && strstr(out, "mbdae run pendulum:form=dummy"), "plot: exit %d: %s", rc, out);
  snprintf(args, sizeof args, "rm -rf %s", dir);
  CHECK(system(args) == 0, "%s", args);
}

int main(void)
{
  tend_is_checked();
  commands_switch();
  return check_summary("test_dummy_driver");
}
