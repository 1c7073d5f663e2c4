/* The command on large problems: `mbdae run` shows a bounded part of a large final vector (the
 * first and last ten components and the worst one, and says so), a small one in full. */
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

int main(void)
{
  test_run_bounded();
  return check_summary("test_scale_cli");
}
