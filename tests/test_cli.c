/* The mbdae command: bad input exits 2 with a message naming the valid choices; a solver
 * failure exits 1 with status "fail" and where and why; good runs exit 0. */
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "support.h"

/* `mbdae <args>` exits with code and its output does not mention text. */
static void expect_without(const char *args, int code, const char *text)
{
  static char out[1 << 16];
  int rc = run_cli(args, out, sizeof out);
  CHECK(rc == code, "mbdae %s: exit %d, expected %d; output:\n%s", args, rc, code, out);
  CHECK(strstr(out, text) == NULL, "mbdae %s: output should not mention '%s':\n%s", args, text,
        out);
}

/* The "steps" of `mbdae run <args> --json`, or -1. */
static long json_steps(const char *args)
{
  static char out[1 << 16];
  char cmd[512];
  snprintf(cmd, sizeof cmd, "run %s --json", args);
  const char *at = run_cli(cmd, out, sizeof out) == 0 ? strstr(out, "\"steps\": ") : NULL;
  return at ? strtol(at + 9, NULL, 10) : -1;
}

/* --linsys: refused unless auto, dense, band, sparse or condensed (on every command that runs
 * solvers); the kind used is shown (auto resolved) and reaches the solver: ida with KLU rounds
 * differently from the dense LU, and the pendulum's index-3 step control turns that into another
 * step count (measured at rtol 1e-6: 7204 dense and band, 7544 sparse). */
static void test_linsys(void)
{
  const char *valid = "auto, dense, band, sparse or condensed, got 'banded'";
  expect("run pendulum --linsys banded", 2, valid);
  expect("table pendulum --linsys banded", 2, valid);
  expect("bench pendulum --linsys banded", 2, valid);
  expect("sweep pendulum --out /nonexistent --linsys banded", 2, valid);
  expect("run pendulum --linsys", 2, "needs a value");
  expect("run --help", 0, "--linsys K");
  expect("run pendulum --rtol 1e-4", 0, "solver ida, linsys dense");
  expect("run pendulum --rtol 1e-4 --linsys sparse", 0, "solver ida, linsys sparse");
  expect("run pendulum --rtol 1e-4 --json", 0, "{\"linsys\": \"dense\", \"problem\"");
  expect("run pendulum --rtol 1e-4 --linsys band --json", 0, "\"linsys\": \"band\"");
  expect("table pendulum --rtol 1e-4 --linsys band", 0, "linsys band");
  long dense = json_steps("pendulum --rtol 1e-6 --linsys dense");
  long band = json_steps("pendulum --rtol 1e-6 --linsys band");
  long sparse = json_steps("pendulum --rtol 1e-6 --linsys sparse");
  CHECK(dense > 0 && band == dense && sparse > 0 && sparse != dense,
        "steps dense %ld, band %ld, sparse %ld", dense, band, sparse);
}

int main(void)
{
  const char *problems = "caraxis, andrews, crank, pendulum, dpendulum";
  expect("", 2, "usage");
  expect("--help", 0, "usage");
  expect("--version", 0, "mbdae " MBDAE_VERSION " (SUNDIALS ");
  expect("frobnicate", 2, "list, run, table, check, refsol");
  expect("run", 2, "problem spec is required");
  expect("run nosuch", 2, problems);
  expect("run crank:index=7", 2, "index=1|2|3");
  expect("run crank:colour=red", 2, "index=1|2|3");
  expect("run caraxis --solver euler", 2, "ida, radau5, radau, bdf");
  expect("run caraxis --rtol abc", 2, "--rtol expects a positive number");
  expect("run caraxis --rtol 1e-6x", 2, "--rtol expects a positive number");
  expect("run caraxis --rtol nan", 2, "positive and finite");
  expect("run caraxis --rtol inf", 2, "positive and finite");
  expect("run caraxis --rtol 0", 2, "positive and finite");
  expect("run caraxis --atol -1e-6", 2, "positive and finite");
  expect("run caraxis --h0 0", 2, "positive and finite");
  expect("run caraxis --hmax -1", 2, "positive and finite");
  expect("run caraxis --hmax", 2, "needs a value");
  expect("run caraxis --rtol", 2, "needs a value");
  expect("run caraxis --repeat 0", 2, "integer from 1");
  expect("run caraxis --frob", 2, "--hmax");
  expect("run caraxis pendulum", 2, "unexpected argument");
  expect("table nosuch", 2, problems);
  expect("check nosuch", 2, problems);
  expect("refsol caraxis", 2, "valid: pendulum, dpendulum");
  expect("list extra", 2, "no arguments");
  /* bench: nothing silently dropped or cut */
  expect("bench --solvers ,", 2, "without empty items");
  expect("bench --solvers ''", 2, "without empty items");
  expect("bench --solvers ida,,bdf", 2, "without empty items");
  expect("bench --solvers ida,ida", 2, "twice");
  expect("bench caraxis pendulum", 2, "unexpected argument 'pendulum'");
  char args[1024] = "bench caraxis --solvers ida";
  while (strlen(args) < 300) {
    strcat(args, ",ida");
  }
  expect(args, 2, "too long");

  expect("list", 0, "dpendulum");
  expect("check caraxis", 0, "Jacobian");
  /* form=dummy: its constraint rows have y' off the diagonal of dF/dy' and are rows of F (the
   * line check leaves them to the Jacobian check) */
  expect("check pendulum:form=dummy", 0, "Jacobian");
  expect("check dpendulum:form=dummy,select=y1+x2", 0, "Jacobian");
  expect("check crank:index=3,beam=nonlinear,damping=on,init=2", 0, "no reference");
  /* init1 is published for the undamped beam only: check says the values are not consistent. */
  expect("check crank:damping=on", 1, "TOO LARGE");

  /* Initial values that leave |F| = 2.2 (the damped beam from the undamped beam's values) are
   * named before the run; consistent ones are not. */
  expect("run crank:damping=on --rtol 1e-4", 0, "not consistent");
  expect("table crank:damping=on --rtol 1e-4", 0, "not consistent");
  expect_without("run crank --rtol 1e-4", 0, "warning");
  expect_without("run caraxis --rtol 1e-4", 0, "warning");

  /* The failure path: a step limit is a reported failure, not a crash. */
  expect("run caraxis --max-steps 5 --json", 1, "\"status\": \"fail\"");
  expect("run caraxis --max-steps 5", 1, "t = ");
  /* the record's code, names, where it failed, counters, limits and versions */
  static const char *const keys[] = {"\"code\": \"MBDAE_ERR_MAX_STEPS\"",
                                     "\"names\": [\"x_l\", \"y_l\"",
                                     "\"t\": ",
                                     "\"h\": ",
                                     "\"nerrfail\": ",
                                     "\"nconvfail\": ",
                                     "\"max_steps\": 5",
                                     "\"mbdae_version\": \"" MBDAE_VERSION "\"",
                                     "\"dependencies\": \"SUNDIALS "};
  for (size_t k = 0; k < sizeof keys / sizeof keys[0]; k++) {
    expect("run caraxis --max-steps 5 --json", 1, keys[k]);
  }
  expect("run pendulum --rtol 1e-8 --atol 1e-8 --json", 0, "\"status\": \"ok\"");
  /* drift in run (text and JSON) and table; for the state-space form that of the Cartesian state
   * mapped from the angles, at rounding level */
  expect("run pendulum:form=index1 --rtol 1e-6", 0, "drift: max |g| = ");
  expect("run pendulum:form=index1 --rtol 1e-6", 0, "(over ");
  expect("run pendulum:form=index1 --rtol 1e-6 --json", 0, "\"drift_steps\": ");
  expect("run pendulum:form=ssf --rtol 1e-6", 0, "drift: max |g| = 2.220e-16");
  expect("run pendulum:form=ssf --rtol 1e-6 --json", 0, "\"drift_pos_max\": 2.22");
  expect("table pendulum --rtol 1e-4", 0, "CPU    max|g|");
  /* hmax reaches the solver: the run takes 1783 steps, but 2500 steps of at most 1e-3 cannot
   * cover [0, 3] */
  expect("run caraxis --solver bdf --max-steps 2500", 0, "Car axis");
  expect("run caraxis --solver bdf --hmax 1e-3 --max-steps 2500", 1, "maximum number of steps");
  expect("run caraxis --solver bdf --hmax 0.25 --json", 0, "\"hmax\": 0.25");
  test_linsys();
  return check_summary("test_cli");
}
