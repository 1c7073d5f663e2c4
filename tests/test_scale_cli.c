/* The command on large problems: `mbdae run` shows a bounded part of a large final vector (the
 * first and last ten components and the worst one, and says so), a small one in full; `mbdae
 * bench --sizes` runs each size and solver in a child, prints counters, time per step and peak
 * memory per row and the fitted exponent per solver, and refuses bad sizes and specs. */
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "support.h"

static void test_run_bounded(void)
{
  static char out[1 << 16];
  int rc = run_cli("run chain:n=20 --rtol 1e-3", out, sizeof out);
  CHECK(rc == 0, "run chain:n=20: exit %d\n%s", rc, out);
  CHECK(strstr(out, "  10 F2 ") && strstr(out, "  91 x19 ") && strstr(out, " 100 F20 "),
        "first and last ten shown:\n%s", out);
  CHECK(!strstr(out, "  11 x3 ") && !strstr(out, "  90 F18 "), "the middle is left out:\n%s", out);
  CHECK(strstr(out, "(80 components not shown)") &&
            strstr(out, "100 components: shown the first and last 10"),
        "says what it left out:\n%s", out);
  rc = run_cli("run chain:n=3 --rtol 1e-3", out, sizeof out);
  CHECK(rc == 0 && strstr(out, "   8 vx2 ") && !strstr(out, "not shown"), "n = 15 in full:\n%s",
        out);
}

static void test_bench_sizes(void)
{
  static char out[1 << 16];
  int rc = run_cli("bench chain --sizes 2,3,5 --solvers radau5,bdf --tend 0.2 --rtol 1e-4", out,
                   sizeof out);
  CHECK(rc == 0, "bench --sizes: exit %d\n%s", rc, out);
  CHECK(strstr(out, "peak MiB") && strstr(out, "wait4 ru_maxrss"), "says how memory is read:\n%s",
        out);
  int rows = 0;
  for (const char *line = out; (line = strstr(line, "\nradau5 ")) != NULL; line++) {
    rows++;
  }
  CHECK(rows == 4, "three sizes and the fit for radau5: %d lines\n%s", rows, out);
  CHECK(strstr(out, "radau5         5       25 ") && strstr(out, "bdf            2       10 "),
        "size and neq in the rows:\n%s", out);
  CHECK(strstr(out, "radau5  time per step ~ neq^") && strstr(out, "bdf     time per step ~ neq^"),
        "an exponent per solver:\n%s", out);
  expect("bench chain --sizes 2,x", 2, "--sizes");
  expect("bench chain --sizes 0", 2, "--sizes");
  expect("bench chain --sizes 2,,3", 2, "without empty items");
  expect("bench --sizes 2", 2, "one problem spec");
  expect("bench pendulum --sizes 2", 2, "pendulum");
  expect("bench chain --sizes 2 --tend -1", 2, "positive");
  expect("bench chain --tend 1", 2, "go with --sizes");
  expect("bench chain --sizes 2 --against x.csv", 2, "do not go with --sizes");
}

int main(void)
{
  test_run_bounded();
  test_bench_sizes();
  return check_summary("test_scale_cli");
}
