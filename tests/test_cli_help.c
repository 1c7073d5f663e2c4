/* The command as a newcomer meets it: every command answers --help, -h and `mbdae help CMD` with
 * its usage on stdout (exit 0); the global help lists every command; the solver list of the help
 * is the registry's; every option the help lists is one the command parses; --opt=value works
 * like --opt value; --solver is --solvers on sweep and bench; a misspelt command, option, problem
 * or solver gets "did you mean"; nonsense tolerances are refused (exit 2) and the refusal of a
 * too small h0 says where h0 came from; a failure's reason is printed once; spm on a form it does
 * not take fails the run (exit 1) on run, table and sweep alike, naming the form it takes. */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "check.h"
#include "support.h"

static const char *const COMMANDS[] = {"list", "run",   "table", "check",      "refsol", "sweep",
                                       "plot", "bench", "help",  "regularise", "version"};
enum { NCOMMANDS = sizeof COMMANDS / sizeof COMMANDS[0] };

/* `mbdae <args>` with stdout only in out (stderr discarded); the exit status. */
static int run_stdout(const char *args, char *out, size_t len)
{
  char redirected[1024];
  snprintf(redirected, sizeof redirected, "%s 2>/dev/null", args);
  /* run_cli appends 2>&1, which then points at /dev/null too: out gets stdout alone */
  return run_cli(redirected, out, len);
}

/* The line of text that starts with prefix (without the prefix and the newline), in buf. */
static int line_after(const char *text, const char *prefix, char *buf, size_t len)
{
  const char *at = strstr(text, prefix);
  if (!at) {
    return -1;
  }
  at += strlen(prefix);
  size_t n = strcspn(at, "\n");
  snprintf(buf, len, "%.*s", (int)(n < len ? n : len - 1), at);
  return 0;
}

/* "ida, radau5, ...": the built-in solvers, from the registry. */
static void registry_solvers(char *buf, size_t len)
{
  buf[0] = '\0';
  for (int i = 0; i < mbdae_solver_count(); i++) {
    size_t used = strlen(buf);
    snprintf(buf + used, len - used, "%s%s", i ? ", " : "", mbdae_solver_id(i));
  }
}

/* Every option with a value in `mbdae CMD --help` ("  --name VALUE  help"), given last without
 * its value, is one the command knows: it asks for the value. */
static void check_listed_options(const char *command, const char *help)
{
  for (const char *at = strstr(help, "\n  --"); at; at = strstr(at + 1, "\n  --")) {
    char name[64], args[256];
    size_t len = strcspn(at + 3, " \n");
    snprintf(name, sizeof name, "%.*s", (int)len, at + 3);
    if (at[3 + len] != ' ' || at[4 + len] == ' ') {
      continue; /* a flag: "--name", two spaces, its help */
    }
    snprintf(args, sizeof args, "%s %s", command, name);
    expect(args, 2, "needs a value");
  }
}

static void test_help(void)
{
  static char out[1 << 16], help[1 << 16];
  char args[128], prefix[64], solvers[256], listed[256];
  registry_solvers(solvers, sizeof solvers);
  CHECK(run_stdout("--help", help, sizeof help) == 0, "mbdae --help exits 0");
  for (int k = 0; k < NCOMMANDS; k++) {
    snprintf(prefix, sizeof prefix, "\n  %s ", COMMANDS[k]);
    CHECK(strstr(help, prefix) ||
              (snprintf(prefix, sizeof prefix, "\n  %s\n", COMMANDS[k]), strstr(help, prefix)),
          "mbdae --help lists %s:\n%s", COMMANDS[k], help);
    static const char *const forms[] = {"%s --help", "%s -h", "help %s"};
    for (int f = 0; f < 3; f++) {
      snprintf(args, sizeof args, forms[f], COMMANDS[k]);
      snprintf(prefix, sizeof prefix, "usage: mbdae %s", COMMANDS[k]);
      int rc = run_stdout(args, out, sizeof out);
      CHECK(rc == 0 && strncmp(out, prefix, strlen(prefix)) == 0,
            "mbdae %s: exit %d, stdout should start with '%s':\n%s", args, rc, prefix, out);
    }
    CHECK(line_after(out, "solvers: ", listed, sizeof listed) == 0 && strcmp(listed, solvers) == 0,
          "mbdae help %s lists the solvers '%s', the registry has '%s'", COMMANDS[k], listed,
          solvers);
    check_listed_options(COMMANDS[k], out);
  }
  CHECK(line_after(help, "solvers: ", listed, sizeof listed) == 0 && strcmp(listed, solvers) == 0,
        "mbdae --help lists the solvers '%s', the registry has '%s'", listed, solvers);
  /* --help where an option may stand, after a spec too; not as an option's value */
  CHECK(run_stdout("run caraxis --rtol 1e-3 --help", out, sizeof out) == 0 &&
            strncmp(out, "usage: mbdae run", 16) == 0,
        "run caraxis --help:\n%s", out);
  expect("run caraxis --ref -h", 2, "cannot read '-h'");
  expect("help nosuch", 2, "help takes one command");
  expect("version --json", 2, "it takes no options");
  expect("version 1", 2, "takes no arguments");
}

/* `mbdae <args>` exits with code and its output does not mention text. */
static void expect_without_text(const char *args, int code, const char *text)
{
  static char out[1 << 16];
  int rc = run_cli(args, out, sizeof out);
  CHECK(rc == code, "mbdae %s: exit %d, expected %d; output:\n%s", args, rc, code, out);
  CHECK(strstr(out, text) == NULL, "mbdae %s: output should not mention '%s':\n%s", args, text,
        out);
}

/* The "steps" of `mbdae <args>` (a run with --json), or -1. */
static long steps_of(const char *args)
{
  static char out[1 << 16];
  const char *at = run_cli(args, out, sizeof out) == 0 ? strstr(out, "\"steps\": ") : NULL;
  return at ? strtol(at + 9, NULL, 10) : -1;
}

static void test_option_forms(void)
{
  long spaced = steps_of("run caraxis --rtol 1e-3 --json");
  long joined = steps_of("run caraxis --rtol=1e-3 --json");
  long other = steps_of("run caraxis --rtol=1e-5 --json");
  CHECK(spaced > 0 && joined == spaced && other > 0 && other != spaced,
        "--rtol 1e-3: %ld steps, --rtol=1e-3: %ld, --rtol=1e-5: %ld", spaced, joined, other);
  expect("run caraxis --linsys=band --rtol=1e-3", 0, "linsys band");
  expect("run caraxis --rtol=", 2, "--rtol expects a positive number, got ''");
  expect("run caraxis --json=yes", 2, "--json takes no value");
  expect("run caraxis --rtl=1e-3", 2, "did you mean --rtol?");
  expect("table caraxis --solvers radau5", 2, "did you mean --solver?");
  expect("run caraxis --json --bogus", 2, "valid options: --solver");
  /* --solver on sweep and bench is --solvers: the runs of that solver only */
  char dir[] = "/tmp/mbdae_cli_help_XXXXXX", args[256], path[300];
  CHECK(mkdtemp(dir) != NULL, "a scratch folder");
  snprintf(args, sizeof args, "sweep caraxis --solver=radau5 --rtol 1e-3 --no-plots --out %s", dir);
  expect(args, 0, "1 runs");
  snprintf(path, sizeof path, "%s/runs.csv", dir);
  FILE *f = fopen(path, "r");
  static char csv[1 << 16];
  size_t n = f ? fread(csv, 1, sizeof csv - 1, f) : 0;
  csv[n] = '\0';
  if (f) {
    fclose(f);
  }
  CHECK(strstr(csv, "radau5") && !strstr(csv, ",ida,"), "runs.csv of --solver=radau5:\n%s", csv);
  snprintf(args, sizeof args, "rm -rf '%s'", dir);
  CHECK(system(args) == 0, "%s", args);
  expect_without_text("bench caraxis --solver ida --repeat 1", 0, "\nradau5 ");
}

static void test_suggestions(void)
{
  expect("rn caraxis", 2, "did you mean run?");
  expect("chek caraxis", 2, "did you mean check?");
  expect("run pendlum", 2, "did you mean pendulum?");
  expect("run caraxsi:index=3", 2, "did you mean caraxis?");
  expect("run caraxis --solver radua5", 2, "did you mean radau5?");
  expect("sweep caraxis --solvers ida,bfd --out /nonexistent", 2, "did you mean bdf?");
  expect_without_text("frobnicate", 2, "did you mean");
  expect_without_text("run zzz", 2, "did you mean");
  expect_without_text("run crank:index=7", 2, "did you mean"); /* a known id: the key is wrong */
}

static void test_tolerances(void)
{
  expect("run caraxis --rtol 10", 2, "--rtol must be below 1");
  expect("run caraxis --rtol 1", 2, "--rtol must be below 1");
  expect("run caraxis --rtol 1e8", 2, "--rtol must be below 1");
  expect("table caraxis --rtol 2", 2, "--rtol must be below 1");
  expect("plot caraxis --rtol 2 --out /nonexistent/x.png", 2, "--rtol must be below 1");
  expect("sweep caraxis --rtol 1e-3,5 --out /nonexistent", 2, "--rtol must be below 1");
  expect("bench chain --sizes 2 --rtol 3", 2, "--rtol must be below 1");
  expect("run caraxis --rtol 1e-20", 2, "h0 defaults to h0_factor rtol");
  expect("run caraxis --rtol 1e-20", 2, "--h0");
  expect("table caraxis --rtol 1e-20", 2, "h0 defaults to h0_factor rtol"); /* as run */
  expect_without_text("run caraxis --rtol 1e-6 --h0 1e-20", 2, "h0 defaults");
}

/* How often needle occurs in text. */
static int occurrences(const char *text, const char *needle)
{
  int n = 0;
  for (const char *at = strstr(text, needle); at; at = strstr(at + 1, needle)) {
    n++;
  }
  return n;
}

/* check --plugin: a user's problem checked like a built-in one. */
static void test_check_plugin(void)
{
  expect("check decay", 2, "unknown problem 'decay'");
  expect("check --plugin " PLUGIN_FILE_DECAY " decay", 0, "residual at t0");
  expect("check decay --plugin=" PLUGIN_FILE_DECAY, 0, "Jacobian");
  expect("check --plugin", 2, "needs a value");
  expect("check caraxis pendulum", 2, "one problem spec");
}

/* refsol's progress line is for a terminal only: none in a pipe (the reference of a short chain).
 */
static void test_refsol_quiet(void)
{
  static char out[1 << 16];
  int rc = run_cli("refsol chain:n=1,tend=0.05", out, sizeof out);
  CHECK(rc == 0 && strstr(out, "[yref]") && !strchr(out, '\r') && !strstr(out, "integrating"),
        "refsol in a pipe: exit %d, no progress line:\n%s", rc, out);
}

static void test_failures(void)
{
  static char out[1 << 16];
  int rc = run_cli("run caraxis --max-steps 10", out, sizeof out);
  CHECK(rc == 1 && occurrences(out, "maximum number of steps") == 1,
        "the reason once, exit 1 (exit %d):\n%s", rc, out);
  rc = run_cli("run pendulum --solver spm", out, sizeof out);
  CHECK(rc == 1 && occurrences(out, "not supported") == 0 && strstr(out, "form=index1"),
        "spm on index 3: exit 1 (exit %d), the form it takes, no second reason:\n%s", rc, out);
  expect("table pendulum --solver spm --rtol 1e-4", 1, "form=index1");
  char dir[] = "/tmp/mbdae_cli_help_XXXXXX", args[256];
  CHECK(mkdtemp(dir) != NULL, "a scratch folder");
  snprintf(args, sizeof args, "sweep pendulum --solvers spm --rtol 1e-4 --no-plots --out %s", dir);
  expect(args, 1, "form=index1");
  snprintf(args, sizeof args, "rm -rf '%s'", dir);
  CHECK(system(args) == 0, "%s", args);
}

int main(void)
{
  test_help();
  test_option_forms();
  test_suggestions();
  test_tolerances();
  test_failures();
  test_check_plugin();
  test_refsol_quiet();
  return check_summary("test_cli_help");
}
