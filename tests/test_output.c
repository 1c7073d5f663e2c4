/* Write errors on stdout are reported: every command run with stdout on /dev/full (a device
 * that refuses every write with ENOSPC) exits non-zero and says "error writing standard output"
 * on stderr, whether its output fits the stdio buffer (caught by the final fflush) or not (an
 * earlier write fails; caught by ferror).  The same commands with stdout on /dev/null exit 0. */
#include <stdio.h>
#include <string.h>
#include <sys/wait.h>

#include "check.h"

static const char *const commands[] = {
    "list",
    "run caraxis --json",
    "run pendulum --rtol 1e-4 --history", /* more than a stdio buffer of output */
    "table pendulum --rtol 1e-4",
    "check caraxis",
    "--help",
};

/* `mbdae <args> 2>&1 >stdout_path`: the exit status (-1 if abnormal) and stderr in err. */
static int run_to(const char *args, const char *stdout_path, char *err, size_t len)
{
  char cmd[1024];
  snprintf(cmd, sizeof cmd, "\"%s\" %s 2>&1 >%s", MBDAE_CLI, args, stdout_path);
  FILE *f = popen(cmd, "r");
  if (!f) {
    return -1;
  }
  size_t used = fread(err, 1, len - 1, f);
  err[used] = '\0';
  char sink[4096];
  while (fread(sink, 1, sizeof sink, f) > 0) {
  }
  int status = pclose(f);
  return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

int main(void)
{
  static char err[1 << 16];
  for (size_t k = 0; k < sizeof commands / sizeof commands[0]; k++) {
    int rc = run_to(commands[k], "/dev/null", err, sizeof err);
    CHECK(rc == 0, "mbdae %s >/dev/null: exit %d, expected 0; stderr:\n%s", commands[k], rc, err);
    rc = run_to(commands[k], "/dev/full", err, sizeof err);
    CHECK(rc == 2, "mbdae %s >/dev/full: exit %d, expected 2; stderr:\n%s", commands[k], rc, err);
    CHECK(strstr(err, "mbdae: error writing standard output: ") != NULL,
          "mbdae %s >/dev/full: stderr should report the write error:\n%s", commands[k], err);
  }
  return check_summary("test_output");
}
