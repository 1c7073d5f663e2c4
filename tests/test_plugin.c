/* Plug-ins through the command (mbdae --plugin FILE, src/cli/plugin.c): the example solver
 * tests/plugin/euler.c in run (its own counters: a fixed step of 1/N, N = ceil(10/sqrt(rtol)),
 * one Jacobian per step), table, bench, plot and a sweep beside radau5 (rows, table entries and
 * the diagrams' curves); a plug-in problem wherever a spec goes; a plug-in solver that crashes in
 * a sweep worker gives a failed row while the other rows complete; and every bad plug-in (missing
 * file, not a shared object, missing symbol, another ABI, a bad or clashing id, a bad problem)
 * exits 2 with a message naming the file and the defect.  The plug-ins are built as modules by
 * tests/CMakeLists.txt, their paths passed as PLUGIN_FILE_<name>. */
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "check.h"
#include "support.h"

enum { OUT = 1 << 16, MAX_ROWS = 16, MAX_COLS = 64, LINE = 4096 };

static char tmpdir[] = "/tmp/mbdae-test-plugin-XXXXXX";
static char out[OUT];

/* `mbdae ARGS` formatted as printf does, its output in out. */
#define cli(...) run_clif(out, sizeof out, __VA_ARGS__)

static int mentions(const char *text) { return strstr(out, text) != NULL; }

/* runs.csv of dir, fields found by header name: rows[r][c] of nrows rows. */
typedef struct csv {
  char lines[MAX_ROWS + 1][LINE];
  char *field[MAX_ROWS + 1][MAX_COLS];
  int nfields[MAX_ROWS + 1];
  int nrows;
} csv;

/* Split line in place at commas outside double quotes (RFC 4180; "" inside quotes is a quote). */
static int split_line(char *line, char **fields)
{
  int n = 0;
  char *w = line;
  for (char *r = line; n < MAX_COLS;) {
    int quoted = *r == '"';
    fields[n++] = w;
    r += quoted;
    while (*r && *r != '\n' && (quoted || *r != ',')) {
      if (quoted && *r == '"') {
        if (r[1] != '"') {
          r++;
          quoted = 0;
          continue;
        }
        r++;
      }
      *w++ = *r++;
    }
    int more = *r == ',';
    *w++ = '\0';
    if (!more) {
      break;
    }
    r++;
  }
  return n;
}

static int read_csv(const char *dir, csv *t)
{
  char path[512];
  snprintf(path, sizeof path, "%s/runs.csv", dir);
  FILE *f = fopen(path, "r");
  t->nrows = -1;
  while (f && t->nrows < MAX_ROWS && fgets(t->lines[t->nrows + 1], LINE, f)) {
    if (t->lines[t->nrows + 1][0] == '#') {
      continue; /* the environment lines (version, machine) after the header */
    }
    t->nrows++;
    t->nfields[t->nrows] = split_line(t->lines[t->nrows], t->field[t->nrows]);
  }
  if (f) {
    fclose(f);
  }
  return t->nrows;
}

/* Field `name` of row r (1-based; 0 is the header), "" when there is none. */
static const char *get(const csv *t, int r, const char *name)
{
  for (int c = 0; c < t->nfields[0] && c < t->nfields[r]; c++) {
    if (strcmp(t->field[0][c], name) == 0) {
      return t->field[r][c];
    }
  }
  return "";
}

static int file_mentions(const char *dir, const char *name, const char *text)
{
  char path[512];
  static char buf[1 << 20];
  snprintf(path, sizeof path, "%s/%s", dir, name);
  FILE *f = fopen(path, "r");
  size_t got = f ? fread(buf, 1, sizeof buf - 1, f) : 0;
  if (f) {
    fclose(f);
  }
  buf[got] = '\0';
  return strstr(buf, text) != NULL;
}

static void check_run_and_table(void)
{
  int rc = cli("run caraxis --plugin %s --solver euler --rtol 1e-4 --json", PLUGIN_FILE_EULER);
  CHECK(rc == 0, "run --solver euler: exit %d:\n%s", rc, out);
  CHECK(mentions("\"solver\": \"euler\"") && mentions("\"status\": \"ok\""), "run: %s", out);
  CHECK(mentions("\"steps\": 1000,") && mentions("\"accepted\": 1000,") &&
            mentions("\"njac\": 1000,") && mentions("\"nlu\": 1000,"),
        "run: euler's counters (1000 fixed steps, a Jacobian and an LU each):\n%s", out);
  rc = cli("run caraxis --solver euler --rtol 1e-4 --plugin %s", PLUGIN_FILE_EULER);
  CHECK(rc == 0 && mentions("solver euler"), "--solver before --plugin: exit %d:\n%s", rc, out);
  expect("run caraxis --solver euler", 2, "unknown solver 'euler'");
  rc = cli("table caraxis --plugin %s --solver euler --rtol 1e-4", PLUGIN_FILE_EULER);
  CHECK(rc == 0 && mentions("\neuler    1e-04"), "table --solver euler: exit %d:\n%s", rc, out);
}

static void check_problem_and_bench(void)
{
  int rc = cli("run decay --plugin %s --solver radau5 --json", PLUGIN_FILE_DECAY);
  CHECK(rc == 0 && mentions("\"problem\": \"decay\"") && mentions("\"status\": \"ok\"") &&
            !mentions("\"scd\": null"),
        "run decay (plug-in problem): exit %d:\n%s", rc, out);
  rc = cli("run decay:tend=2 --plugin %s", PLUGIN_FILE_DECAY);
  CHECK(rc == 2 && mentions("takes no key=value options"), "decay:tend=2: exit %d:\n%s", rc, out);
  rc = cli("run nosuch --plugin %s", PLUGIN_FILE_DECAY);
  CHECK(rc == 2 && mentions("caraxis") && mentions("decay (--plugin"),
        "an unknown problem names the plug-in ones: exit %d:\n%s", rc, out);
  rc = cli("list --plugin %s --plugin %s", PLUGIN_FILE_DECAY, PLUGIN_FILE_EULER);
  CHECK(rc == 0 && mentions("\ndecay ") && mentions("\neuler ") && mentions("\nradau5_copy ") &&
            mentions("\nradau5 "),
        "list --plugin: exit %d:\n%s", rc, out);
  rc = cli("bench decay --plugin %s --plugin %s --solvers euler,radau5 --repeat 1",
           PLUGIN_FILE_DECAY, PLUGIN_FILE_EULER);
  CHECK(rc == 0 && mentions("\neuler   1e-10") && mentions("\nradau5  1e-10"),
        "bench with a plug-in problem and solver: exit %d:\n%s", rc, out);
}

/* euler beside radau5: a row per solver and tolerance, both in the table and in the diagrams. */
static void check_sweep(int have_gnuplot)
{
  char dir[256];
  csv t;
  snprintf(dir, sizeof dir, "%s/sweep", tmpdir);
  int rc = cli("sweep caraxis --plugin %s --solvers euler,radau5 --m 0:4 --jobs 2 --out %s",
               PLUGIN_FILE_EULER, dir);
  CHECK(rc == 0, "sweep: exit %d:\n%s", rc, out);
  CHECK(read_csv(dir, &t) == 10, "sweep: %d rows, expected 2 solvers x 5 tolerances", t.nrows);
  for (int r = 1; r <= t.nrows; r++) {
    const char *solver = r <= 5 ? "euler" : "radau5";
    CHECK(strcmp(get(&t, r, "solver"), solver) == 0 && strcmp(get(&t, r, "status"), "ok") == 0,
          "row %d: solver %s status %s, expected %s ok", r, get(&t, r, "solver"),
          get(&t, r, "status"), solver);
  }
  CHECK(file_mentions(dir, "caraxis-table.md", "| euler |") &&
            file_mentions(dir, "caraxis-table.md", "| radau5 |"),
        "caraxis-table.md lacks euler or radau5");
  CHECK(file_mentions(dir, "workprecision.gp", "solvers = 'euler radau5'"),
        "workprecision.gp: no curve for euler");
  if (have_gnuplot) {
    CHECK(file_mentions(dir, "caraxis-scd.svg", ">euler<") &&
              file_mentions(dir, "caraxis-scd.svg", ">radau5<"),
          "caraxis-scd.svg: no legend entry for euler or radau5");
    snprintf(dir, sizeof dir, "%s/euler.svg", tmpdir);
    rc = cli("plot caraxis --plugin %s --solver euler --rtol 1e-4 --points 50 --out %s",
             PLUGIN_FILE_EULER, dir);
    CHECK(rc == 0, "plot --solver euler: exit %d:\n%s", rc, out);
  }
}

/* crash writes through NULL below rtol 9e-5: that row fails with the signal, the others finish. */
static void check_crash(void)
{
  char dir[256], asan[512];
  const char *old = getenv("ASAN_OPTIONS");
  snprintf(asan, sizeof asan, "%s%shandle_segv=0", old ? old : "", old && old[0] ? ":" : "");
  setenv("ASAN_OPTIONS", asan, 1); /* a sanitized worker dies by the signal too */
  snprintf(dir, sizeof dir, "%s/crash", tmpdir);
  csv t;
  int rc = cli("sweep caraxis --plugin %s --solvers crash,radau5 --m 0:1 --no-plots --out %s",
               PLUGIN_FILE_CRASH, dir);
  CHECK(rc == 1, "a crashed run: exit %d, expected 1:\n%s", rc, out);
  CHECK(read_csv(dir, &t) == 4, "crash sweep: %d rows, expected 4", t.nrows);
  for (int r = 1; r <= t.nrows; r++) {
    int crashed = r == 2; /* crash at m = 1 */
    CHECK(strcmp(get(&t, r, "status"), crashed ? "fail" : "ok") == 0, "row %d (%s): status %s", r,
          get(&t, r, "solver"), get(&t, r, "status"));
    if (crashed) {
      CHECK(strstr(get(&t, r, "message"), "worker process was killed by signal 11") != NULL,
            "the crashed row says why: '%s'", get(&t, r, "message"));
    } else {
      CHECK(atol(get(&t, r, "steps")) > 0, "row %d: no steps", r);
    }
  }
  if (old) {
    setenv("ASAN_OPTIONS", old, 1);
  } else {
    unsetenv("ASAN_OPTIONS");
  }
}

/* `mbdae run caraxis --plugin FILE ...` exits 2 naming FILE and why. */
static void expect_refused(const char *file, const char *more, const char *why)
{
  int rc = cli("run caraxis --plugin %s%s", file, more);
  CHECK(rc == 2 && mentions(file) && mentions(why),
        "--plugin %s%s: exit %d, expected 2 with '%s':\n%s", file, more, rc, why, out);
}

static void check_bad_plugins(void)
{
  expect_refused("/nonexistent/libnone.so", "", "cannot load it as a shared object");
  expect_refused(__FILE__, "", "cannot load it as a shared object");
  expect_refused(PLUGIN_FILE_NO_SYMBOL, "", "exports no mbdae_plugin_solvers");
  expect_refused(PLUGIN_FILE_OLD_ABI, "", "refused plug-in ABI 3");
  expect_refused(PLUGIN_FILE_BAD_ID, "", "[A-Za-z0-9_-]");
  expect_refused(PLUGIN_FILE_BUILTIN_ID, "", "solver id 'radau5' is a built-in solver's");
  expect_refused(PLUGIN_FILE_EULER, " --plugin " PLUGIN_FILE_EULER,
                 "solver id 'euler' is already taken by plug-in");
  expect_refused(PLUGIN_FILE_BUILTIN_PROBLEM, "", "problem id 'caraxis' is a built-in problem's");
  expect_refused(PLUGIN_FILE_BAD_PROBLEM, "", "problem 1 of mbdae_plugin_problems");
  expect_refused(PLUGIN_FILE_NO_SIZE, "", "solver type's size is 0: set .size");
  expect_refused(PLUGIN_FILE_BIG_SIZE, "", "built against a newer mbdae.h");
  expect_refused(PLUGIN_FILE_PROBLEM_NO_SIZE, "", "size is 0: set .size");
  expect("run caraxis --plugin", 2, "needs a value");
  const char *commands[] = {"table caraxis", "sweep caraxis --out /nonexistent", "plot caraxis",
                            "bench caraxis", "list"};
  for (size_t i = 0; i < sizeof commands / sizeof commands[0]; i++) {
    int rc = cli("%s --plugin %s", commands[i], PLUGIN_FILE_OLD_ABI);
    CHECK(rc == 2 && mentions("refused plug-in ABI"), "%s --plugin (old ABI): exit %d:\n%s",
          commands[i], rc, out);
  }
}

/* A plug-in's capability record is honoured: caraxis (dense, 10 equations) resolves to dense for
 * radau5_copy, where radau5 condenses, and band, which it does not list, is refused with the
 * harness's message; a record saying steps is refused by the loader; a type of 0.3's size runs
 * and its (invalid) record beyond that size is never read. */
static void check_caps(void)
{
  int rc = cli("run caraxis --plugin %s --solver radau5_copy --rtol 1e-4 --json", PLUGIN_FILE_CAPS);
  CHECK(rc == 0 && mentions("\"linsys\": \"dense\"") && mentions("\"status\": \"ok\""),
        "caps: exit %d:\n%s", rc, out);
  rc = cli("run caraxis --plugin %s --solver radau5_copy --rtol 1e-4 --linsys band",
           PLUGIN_FILE_CAPS);
  CHECK(rc != 0 && mentions("solver 'radau5_copy' does not take linsys band"),
        "caps, band: exit %d:\n%s", rc, out);
  expect_refused(PLUGIN_FILE_BAD_CAPS, "", "only a built-in solver steps");
  rc = cli("run caraxis --plugin %s --solver radau5_copy --rtol 1e-4 --json", PLUGIN_FILE_OLD_SIZE);
  CHECK(rc == 0 && mentions("\"linsys\": \"dense\"") && mentions("\"status\": \"ok\""),
        "old size: exit %d:\n%s", rc, out);
}

int main(void)
{
  if (!mkdtemp(tmpdir)) {
    perror("mkdtemp");
    return 1;
  }
  int have_gnuplot = system("gnuplot --version >/dev/null 2>&1") == 0;
  check_run_and_table();
  check_problem_and_bench();
  check_sweep(have_gnuplot);
  check_crash();
  check_bad_plugins();
  check_caps();
  char cmd[512];
  snprintf(cmd, sizeof cmd, "rm -rf '%s'", tmpdir);
  if (system(cmd) != 0) {
    fprintf(stderr, "test_plugin: cannot remove %s\n", tmpdir);
  }
  return check_summary("test_plugin");
}
