/* mbdae bench prints the digits along the solution (issue 35) beside scd and mescd: columns
 * tscd, tmescd and rms (tscd_rms), each row's equal to what `mbdae run ... --json` gives for the
 * same run (both from mbdae_record_run's untimed pass), "-" for a configuration without a
 * reference trajectory (a chain of 9 links); with --against the saved peer run is still printed
 * under each row (the peer file has no such columns). */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "support.h"

static char out[1 << 16], json[1 << 16];

/* The number after "key": in a JSON object, or NAN. */
static double json_number(const char *text, const char *key)
{
  char pat[64];
  snprintf(pat, sizeof pat, "\"%s\": ", key);
  const char *at = strstr(text, pat);
  return at ? strtod(at + strlen(pat), NULL) : NAN;
}

/* The whitespace-separated fields of the bench row of solver at rtol ("1e-07"); their count. */
static int row_fields(const char *text, const char *solver, const char *rtol, char fields[][32],
                      int max)
{
  char head[64];
  snprintf(head, sizeof head, "\n%-7s %-7s ", solver, rtol);
  const char *at = strstr(text, head);
  int n = 0;
  for (at = at ? at + 1 : NULL; at && *at != '\n' && *at && n < max;) {
    at += strspn(at, " ");
    size_t len = strcspn(at, " \n");
    snprintf(fields[n++], 32, "%.*s", (int)(len < 31 ? len : 31), at);
    at += len;
  }
  return n;
}

/* Each of the pendulum's table rows: tscd, tmescd, rms as run --json gives them. */
static void check_against_run(const char *solver)
{
  static const char *const rtols[] = {"1e-04", "1e-07", "1e-10"};
  int rc = run_clif(out, sizeof out, "bench pendulum --solvers %s --repeat 1", solver);
  CHECK(rc == 0 && strstr(out, "   scd   tscd tmescd    rms   steps"),
        "bench pendulum: exit %d, header with tscd tmescd rms:\n%s", rc, out);
  for (int k = 0; k < 3; k++) {
    char f[24][32], want[64];
    int n = row_fields(out, solver, rtols[k], f, 24);
    rc = run_clif(json, sizeof json, "run pendulum --solver %s --rtol %s --json", solver, rtols[k]);
    snprintf(want, sizeof want, "%.2f %.2f %.2f", json_number(json, "tscd"),
             json_number(json, "tmescd"), json_number(json, "tscd_rms"));
    char got[100];
    snprintf(got, sizeof got, "%s %s %s", n > 6 ? f[4] : "", n > 6 ? f[5] : "", n > 6 ? f[6] : "");
    CHECK(rc == 0 && n == 18 && strcmp(got, want) == 0,
          "bench %s rtol %s: tscd tmescd rms '%s', run --json '%s' (%d fields)", solver, rtols[k],
          got, want, n);
  }
}

int main(void)
{
  check_against_run("radau5");
  check_against_run("bdf");
  /* no reference trajectory: "-", the row as long as the others */
  int rc = run_cli("bench chain:n=9 --solvers radau5 --repeat 1", out, sizeof out);
  char f[24][32];
  int n = row_fields(out, "radau5", "1e-07", f, 24);
  CHECK(rc == 0 && n == 18 && strcmp(f[4], "-") == 0 && strcmp(f[5], "-") == 0 &&
            strcmp(f[6], "-") == 0,
        "bench chain:n=9: exit %d, '-' for the trajectory digits (%d fields):\n%s", rc, n, out);
  /* --against: the peer's line under each row, the file without trajectory columns */
  rc = run_clif(out, sizeof out,
                "bench pendulum --solvers mebdf --repeat 1 --against %s/peer/testset.jsonl",
                MBDAE_REFSOL_DIR);
  n = row_fields(out, "mebdf", "1e-10", f, 24);
  const char *vs = strstr(out, "\n  vs mebdfi  mescd ");
  CHECK(rc == 0 && n == 18 && strcmp(f[4], "-") != 0 && vs &&
            strstr(vs + 1, "\n  vs mebdfi  mescd ") && !strstr(out, "no saved run"),
        "bench --against: exit %d, rows with tscd and the saved MEBDFI runs:\n%s", rc, out);
  return check_summary("test_bench_trajectory");
}
