/* The commands the hints tell the user to run are safe to paste into a shell: without gnuplot,
 * `mbdae plot --out` and `mbdae sweep --out` into folders whose names hold a space, a quote, a
 * ';' and a $(...) print "run `cd DIR && gnuplot SCRIPT`"; that text, run by /bin/sh with a
 * stand-in gnuplot that records its folder and argument, reaches the folder and the script and
 * creates no other file (the names unquoted would run `touch PWNED`). */
#define _XOPEN_SOURCE 700 /* realpath */
#include <limits.h>
#include <stdlib.h>
#include <sys/stat.h>

#include "check.h"
#include "support.h"
#include "gnuplot_support.h"

static char tmpdir[] = "/tmp/mbdae-test-hint-XXXXXX";
static const char hostile[] = "a b'c;touch PWNED;$(touch PWNED2)";

/* The text between the first pair of backquotes in out after "run `", in cmd; 0 or -1. */
static int hinted_command(const char *out, char *cmd, size_t len)
{
  const char *start = strstr(out, "run `");
  const char *end = start ? strchr(start + 5, '`') : NULL;
  if (!end || (size_t)(end - start - 5) >= len) {
    return -1;
  }
  snprintf(cmd, len, "%.*s", (int)(end - start - 5), start + 5);
  return 0;
}

/* Runs cmd with a stand-in gnuplot first on PATH; it writes "DIR|ARG" into tmpdir/record. */
static void run_hint(const char *cmd, const char *want_dir, const char *want_arg)
{
  char bin[256], line[16384], record[256], got[PATH_MAX + 100], want[PATH_MAX + 100];
  snprintf(bin, sizeof bin, "%s/bin", tmpdir);
  snprintf(record, sizeof record, "%s/record", tmpdir);
  remove(record);
  snprintf(
      line, sizeof line,
      "mkdir -p '%s' && printf '#!/bin/sh\\nprintf \"%%%%s|%%%%s\" \"$(pwd -P)\" \"$1\" > %s\\n' "
      "> '%s/gnuplot' && chmod +x '%s/gnuplot'",
      bin, record, bin, bin);
  CHECK(system(line) == 0, "cannot make the stand-in gnuplot: %s", line);
  snprintf(line, sizeof line, "PATH='%s':\"$PATH\" /bin/sh -c \"$HINT\"", bin);
  setenv("HINT", cmd, 1);
  int rc = system(line);
  unsetenv("HINT");
  char real[PATH_MAX];
  CHECK(rc == 0 && realpath(want_dir, real), "the hint `%s` failed (%d)", cmd, rc);
  snprintf(want, sizeof want, "%s|%s", real, want_arg);
  CHECK(slurp(record, got, sizeof got) == 0 && strcmp(got, want) == 0,
        "the hint `%s` ran gnuplot as '%s', want '%s'", cmd, got, want);
}

/* No file named PWNED or PWNED2 anywhere under tmpdir. */
static void check_nothing_run(void)
{
  char line[PATH_MAX + 100];
  snprintf(line, sizeof line, "test -z \"$(find '%s' -name 'PWNED*')\"", tmpdir);
  CHECK(system(line) == 0, "a hint ran a command: PWNED found under %s", tmpdir);
}

static void check_plot_hint(void)
{
  static char out[1 << 14];
  char dir[256], png[300], log[256], cmd[4096];
  snprintf(dir, sizeof dir, "%s/%s", tmpdir, hostile);
  CHECK(mkdir(dir, 0700) == 0, "cannot make %s", dir);
  snprintf(png, sizeof png, "%s/x.png", dir);
  snprintf(log, sizeof log, "%s/plot.out", tmpdir);
  setenv("MBDAE_GNUPLOT", "/nonexistent/gnuplot", 1);
  const char *argv[] = {"plot", "pendulum", "--points", "7", "--out", png, NULL};
  int rc = run_cli_argv(argv, log, out, sizeof out);
  unsetenv("MBDAE_GNUPLOT");
  CHECK(rc == 1 && hinted_command(out, cmd, sizeof cmd) == 0, "plot: exit %d, no hint:\n%s", rc,
        out);
  run_hint(cmd, dir, "x.gp");
}

static void check_sweep_hint(void)
{
  static char out[1 << 14];
  char dir[256], log[256], cmd[4096];
  snprintf(dir, sizeof dir, "%s/sweep %s", tmpdir, hostile);
  snprintf(log, sizeof log, "%s/sweep.out", tmpdir);
  setenv("MBDAE_GNUPLOT", "/nonexistent/gnuplot", 1);
  const char *argv[] = {"sweep", "caraxis", "--m", "0:0", "--solvers", "ida", "--out", dir, NULL};
  int rc = run_cli_argv(argv, log, out, sizeof out);
  unsetenv("MBDAE_GNUPLOT");
  CHECK(rc == 0 && hinted_command(out, cmd, sizeof cmd) == 0, "sweep: exit %d, no hint:\n%s", rc,
        out);
  run_hint(cmd, dir, "workprecision.gp");
}

int main(void)
{
  if (!mkdtemp(tmpdir)) {
    perror("mkdtemp");
    return 1;
  }
  check_plot_hint();
  check_sweep_hint();
  check_nothing_run();
  char cmd[300];
  snprintf(cmd, sizeof cmd, "rm -rf '%s'", tmpdir);
  if (check_failed == 0 && system(cmd) != 0) {
    fprintf(stderr, "cannot remove %s\n", tmpdir);
  }
  return check_summary("test_hint_quoting");
}
