/* The library's plug-in loader (mbdae_plugin_load), called directly as the command and the
 * Python module call it: a good plug-in's types, and each defect of tests/plugin/ refused with
 * the reason in the caller's buffer, nothing loaded (*out NULL), nothing printed. */
#include <string.h>

#include "support.h"

static int load(const char *file, const mbdae_plugin *const *loaded, int n, mbdae_plugin **out,
                char *msg, size_t len)
{
  msg[0] = '\0';
  return mbdae_plugin_load(file, loaded, n, out, msg, len);
}

static void expect_refused(const char *file, const mbdae_plugin *const *loaded, int n,
                           const char *why)
{
  char msg[1024];
  mbdae_plugin *pl = (mbdae_plugin *)&msg; /* must become NULL */
  int rc = load(file, loaded, n, &pl, msg, sizeof msg);
  CHECK(rc == MBDAE_ERR_ARG && !pl && strstr(msg, why), "%s: rc %d, '%s', expected '%s'", file, rc,
        msg, why);
}

static void check_good(void)
{
  char msg[1024];
  mbdae_plugin *euler = NULL, *decay = NULL;
  int rc = load(PLUGIN_FILE_EULER, NULL, 0, &euler, msg, sizeof msg);
  CHECK(rc == 0 && euler && mbdae_plugin_solver_count(euler) == 1 &&
            strcmp(mbdae_plugin_solver_type(euler, 0)->id, "euler") == 0 &&
            mbdae_plugin_problem_count(euler) == 0 && !mbdae_plugin_solver_type(euler, 1) &&
            !mbdae_plugin_solver_type(euler, -1) && !mbdae_plugin_problem_type(euler, 0) &&
            strcmp(mbdae_plugin_file(euler), PLUGIN_FILE_EULER) == 0,
        "euler: rc %d, %s", rc, msg);
  const mbdae_plugin *one[1] = {euler};
  rc = load(PLUGIN_FILE_DECAY, one, 1, &decay, msg, sizeof msg);
  CHECK(rc == 0 && mbdae_plugin_problem_count(decay) == 1 &&
            strcmp(mbdae_plugin_problem_type(decay, 0)->id, "decay") == 0,
        "decay: rc %d, %s", rc, msg);
  expect_refused(PLUGIN_FILE_EULER, one, 1,
                 "solver id 'euler' is already taken by plug-in " PLUGIN_FILE_EULER);
  const mbdae_plugin *two[2] = {euler, decay};
  expect_refused(PLUGIN_FILE_DECAY, two, 2, "is already taken by plug-in " PLUGIN_FILE_DECAY);
  mbdae_plugin_unload(decay);
  mbdae_plugin_unload(euler);
  mbdae_plugin_unload(NULL);
  CHECK(mbdae_plugin_solver_count(NULL) == 0 && !mbdae_plugin_file(NULL), "NULL has nothing");
}

static void check_refusals(void)
{
  expect_refused("/nonexistent/libnone.so", NULL, 0, "cannot load it as a shared object");
  expect_refused(__FILE__, NULL, 0, "cannot load it as a shared object");
  expect_refused(PLUGIN_FILE_NO_SYMBOL, NULL, 0, "exports no mbdae_plugin_solvers");
  expect_refused(PLUGIN_FILE_OLD_ABI, NULL, 0, "refused plug-in ABI 3");
  expect_refused(PLUGIN_FILE_BAD_ID, NULL, 0, "[A-Za-z0-9_-]");
  expect_refused(PLUGIN_FILE_BUILTIN_ID, NULL, 0, "solver id 'radau5' is a built-in solver's");
  expect_refused(PLUGIN_FILE_BUILTIN_PROBLEM, NULL, 0,
                 "problem id 'caraxis' is a built-in problem's");
  expect_refused(PLUGIN_FILE_BAD_PROBLEM, NULL, 0, "problem 1 of mbdae_plugin_problems");
  expect_refused(PLUGIN_FILE_NO_SIZE, NULL, 0, "solver type's size is 0: set .size");
  expect_refused(PLUGIN_FILE_BIG_SIZE, NULL, 0, "built against a newer mbdae.h");
  expect_refused(PLUGIN_FILE_PROBLEM_NO_SIZE, NULL, 0, "size is 0: set .size");
  char msg[256];
  mbdae_plugin *pl = NULL;
  CHECK(load(NULL, NULL, 0, &pl, msg, sizeof msg) == MBDAE_ERR_ARG && !pl, "no file");
  CHECK(load(PLUGIN_FILE_EULER, NULL, 0, NULL, msg, sizeof msg) == MBDAE_ERR_ARG, "no out");
  CHECK(load(PLUGIN_FILE_EULER, NULL, 1, &pl, msg, sizeof msg) == MBDAE_ERR_ARG && !pl,
        "a count without a list");
  CHECK(mbdae_plugin_load(PLUGIN_FILE_OLD_ABI, NULL, 0, &pl, NULL, 0) == MBDAE_ERR_ARG && !pl,
        "no message buffer: refused all the same");
}

int main(void)
{
  check_good();
  check_refusals();
  return check_summary("test_plugin_load");
}
