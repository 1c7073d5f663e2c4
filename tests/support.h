/* Helpers the test executables share: creating a problem, the test set's run options, and
 * running the daets command with its output captured.  Include after check.h. */
#ifndef DAETS_TEST_SUPPORT_H
#define DAETS_TEST_SUPPORT_H

#include <stdio.h>
#include <sys/wait.h>

#include "check.h"
#include "daets/daets.h"

/* The problem for spec, or NULL after a failed CHECK naming the library's message. */
static inline daets_problem *create_problem(const char *spec)
{
  daets_problem *p = NULL;
  char msg[256];
  int rc = daets_problem_create(spec, &p, msg, sizeof msg);
  CHECK(rc == 0 && p, "create %s: %s", spec, msg);
  return p;
}

/* Options as the test set runs a problem: rtol = atol, h0 = h0_factor rtol. */
static inline void test_options(const daets_problem *p, double rtol, daets_options *opt)
{
  daets_tolerance_plan plan;
  daets_problem_tolerances(p, &plan);
  daets_options_default(opt);
  opt->rtol = opt->atol = rtol;
  opt->h0 = plan.h0_factor * rtol;
}

/* Run `daets <args>` (the build's command, DAETS_CLI) with stdout and stderr captured in out;
 * returns the exit status, -1 when it could not run or did not exit normally. */
static inline int run_cli(const char *args, char *out, size_t len)
{
  char cmd[2048];
  snprintf(cmd, sizeof cmd, "\"%s\" %s 2>&1", DAETS_CLI, args);
  FILE *f = popen(cmd, "r");
  if (!f) {
    return -1;
  }
  size_t used = 0, got;
  while (used + 1 < len && (got = fread(out + used, 1, len - 1 - used, f)) > 0) {
    used += got;
  }
  out[used] = '\0';
  char sink[4096];
  while (fread(sink, 1, sizeof sink, f) > 0) {
  }
  int status = pclose(f);
  return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

#endif /* DAETS_TEST_SUPPORT_H */
