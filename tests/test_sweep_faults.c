/* mbdae sweep with solvers that fail as processes, through the command and test plug-ins
 * (tests/plugin/, built by tests/CMakeLists.txt, paths in PLUGIN_FILE_<name>):
 *   - flaky, killed by SIGKILL on the first attempt of every run: the sweep retries each run once
 *     in a new worker, so every row is ok and the plug-in saw two attempts per run;
 *   - crash, a SIGSEGV on every attempt below rtol 9e-5: one failed row per crashing run, which
 *     says it was retried, and the other rows ok;
 *   - hang, which never returns below rtol 9e-5: with --timeout S its worker is killed after S
 *     seconds and the row fails with MBDAE_ERR_TIMEOUT, the other rows ok, with --jobs 1 and 2;
 *     without a time limit, SIGTERM to the sweep ends its hung workers too, and SIGINT says how
 *     to resume;
 *   - sleeper_wait and sleeper_crash, which start a process of their own: it ends with its
 *     worker. */
#include <dirent.h>
#include <fcntl.h>
#include <signal.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "check.h"
#include "support.h"

static char tmpdir[] = "/tmp/mbdae-test-sweep-faults-XXXXXX";
static char out[1 << 16];

/* `mbdae ARGS` formatted as printf does, its output in out. */
#define cli(...) run_clif(out, sizeof out, __VA_ARGS__)

/* The rows of dir/runs.csv through the library's reader; their count, -1 when unreadable. */
static long read_rows(const char *dir, mbdae_record **rows)
{
  char path[512], msg[512];
  size_t n = 0;
  snprintf(path, sizeof path, "%s/runs.csv", dir);
  FILE *f = fopen(path, "r");
  *rows = NULL;
  int rc = f ? mbdae_record_read_csv(f, path, rows, &n, msg, sizeof msg) : -1;
  if (f) {
    fclose(f);
  }
  CHECK(rc == 0, "%s: %s", path, f ? msg : "missing");
  return rc == 0 ? (long)n : -1;
}

static long file_size(const char *path)
{
  struct stat st;
  return stat(path, &st) == 0 ? (long)st.st_size : -1;
}

/* Every run's worker killed once: retried, every row ok, three integrations logged per run: the
 * killed one, then the retry's timed run and its untimed drift run (src/harness/solve.c). */
static void check_retry(void)
{
  char dir[256], logs[256], log[512];
  mbdae_record *rows;
  snprintf(dir, sizeof dir, "%s/flaky", tmpdir);
  snprintf(logs, sizeof logs, "%s/flaky-logs", tmpdir);
  CHECK(mkdir(logs, 0777) == 0, "cannot create %s", logs);
  setenv("MBDAE_TEST_FLAKY_DIR", logs, 1);
  int rc = cli(
      "sweep caraxis --plugin %s --solvers flaky --m 0:2 --repeat 1 --jobs 2 --no-plots --out %s",
      PLUGIN_FILE_FLAKY, dir);
  unsetenv("MBDAE_TEST_FLAKY_DIR");
  CHECK(rc == 0, "a sweep whose workers die once per run: exit %d, expected 0:\n%s", rc, out);
  long n = read_rows(dir, &rows);
  CHECK(n == 3, "flaky: %ld rows, expected 3", n);
  for (long r = 0; r < n; r++) {
    CHECK(rows[r].status == MBDAE_OK && rows[r].stats.steps > 0,
          "flaky row %ld (rtol %g): status %d, message '%s'", r + 1, rows[r].rtol, rows[r].status,
          rows[r].message);
    snprintf(log, sizeof log, "%s/flaky-%.3g.log", logs, rows[r].rtol);
    CHECK(file_size(log) == 3,
          "%s: %ld integrations, expected 3 (one killed, one retry: timed, drift)", log,
          file_size(log));
  }
  mbdae_records_free(rows, n > 0 ? (size_t)n : 0);
}

/* A run that crashes on every attempt: one failed row, retried once; the others ok. */
static void check_crash_twice(void)
{
  char dir[256], asan[512];
  mbdae_record *rows;
  const char *old = getenv("ASAN_OPTIONS");
  snprintf(asan, sizeof asan, "%s%shandle_segv=0", old ? old : "", old && old[0] ? ":" : "");
  setenv("ASAN_OPTIONS", asan, 1); /* a sanitized worker dies by the signal too */
  snprintf(dir, sizeof dir, "%s/crash", tmpdir);
  int rc = cli("sweep caraxis --plugin %s --solvers crash --m 0:2 --no-plots --out %s",
               PLUGIN_FILE_CRASH, dir);
  if (old) {
    setenv("ASAN_OPTIONS", old, 1);
  } else {
    unsetenv("ASAN_OPTIONS");
  }
  CHECK(rc == 1, "crashing runs: exit %d, expected 1:\n%s", rc, out);
  long n = read_rows(dir, &rows);
  CHECK(n == 3, "crash: %ld rows, expected 3 (one per run, whatever the retries)", n);
  for (long r = 0; r < n; r++) {
    int crashed = r >= 1; /* m = 1, 2: rtol below 9e-5 */
    CHECK((rows[r].status == MBDAE_OK) == !crashed, "crash row %ld: status %d", r + 1,
          rows[r].status);
    CHECK(!crashed || (strstr(rows[r].message, "killed by signal 11") &&
                       strstr(rows[r].message, "(after a retry)")),
          "crash row %ld says why: '%s'", r + 1, rows[r].message);
  }
  mbdae_records_free(rows, n > 0 ? (size_t)n : 0);
}

/* A hanging run with --timeout: a failed row with MBDAE_ERR_TIMEOUT, the other rows ok. */
static void check_timeout(int jobs)
{
  char dir[256];
  mbdae_record *rows;
  snprintf(dir, sizeof dir, "%s/hang%d", tmpdir, jobs);
  int rc = cli("sweep caraxis --plugin %s --solvers hang,radau5 --m 0:1 --timeout 2 --jobs %d "
               "--no-plots --out %s",
               PLUGIN_FILE_HANG, jobs, dir);
  CHECK(rc == 1, "--timeout, --jobs %d: exit %d, expected 1:\n%s", jobs, rc, out);
  long n = read_rows(dir, &rows);
  CHECK(n == 4, "--timeout: %ld rows, expected 4", n);
  for (long r = 0; r < n; r++) {
    int hung = r == 1; /* hang at m = 1 */
    CHECK(rows[r].status == (hung ? MBDAE_ERR_TIMEOUT : MBDAE_OK), "row %ld (%s): status %s", r + 1,
          rows[r].solver, mbdae_strcode(rows[r].status));
    CHECK(!hung || strstr(rows[r].message, "timed out after 2 s"), "the hung row says why: '%s'",
          rows[r].message);
  }
  CHECK(strstr(out, "MBDAE_ERR_TIMEOUT") != NULL, "the progress line names the code:\n%s", out);
  mbdae_records_free(rows, n > 0 ? (size_t)n : 0);
}

/* The state letter of process pid and its parent; 0 when it is gone. */
static char state_of(pid_t pid, int *ppid)
{
  char path[64], buf[512], state = 0;
  snprintf(path, sizeof path, "/proc/%d/stat", (int)pid);
  FILE *f = fopen(path, "r");
  size_t got = f ? fread(buf, 1, sizeof buf - 1, f) : 0;
  if (f) {
    fclose(f);
  }
  buf[got] = '\0';
  char *paren = strrchr(buf, ')');
  if (!paren || sscanf(paren + 1, " %c %d", &state, ppid) != 2) {
    return 0;
  }
  return state;
}

/* Up to max live (not zombie) children of pid. */
static int children_of(pid_t pid, pid_t *kids, int max)
{
  int n = 0;
  DIR *proc = opendir("/proc");
  for (struct dirent *e; proc && (e = readdir(proc)) && n < max;) {
    int ppid = 0;
    pid_t p = (pid_t)atoi(e->d_name);
    char state = p > 0 ? state_of(p, &ppid) : 0;
    if (state && state != 'Z' && ppid == (int)pid) {
      kids[n++] = p;
    }
  }
  if (proc) {
    closedir(proc);
  }
  return n;
}

static void pause_ms(int ms) { nanosleep(&(struct timespec){0, ms * 1000000L}, NULL); }

/* SIGTERM to a sweep whose two workers hang (no --timeout): both end with it. */
static void check_sigterm_hung(void)
{
  char dir[256];
  pid_t kids[4];
  int nkids = 0, ppid = 0;
  snprintf(dir, sizeof dir, "%s/term", tmpdir);
  pid_t pid = fork();
  if (pid == 0) {
    int null = open("/dev/null", O_WRONLY);
    dup2(null, STDOUT_FILENO);
    dup2(null, STDERR_FILENO);
    execl(MBDAE_CLI, MBDAE_CLI, "sweep", "caraxis", "--plugin", PLUGIN_FILE_HANG, "--solvers",
          "hang", "--rtol", "5e-5,4e-5", "--jobs", "2", "--no-plots", "--out", dir, (char *)NULL);
    _exit(127);
  }
  CHECK(pid > 0, "cannot start the sweep");
  for (int i = 0; pid > 0 && i < 3000 && (nkids = children_of(pid, kids, 4)) < 2; i++) {
    pause_ms(10); /* waiting for a state, not a time */
  }
  CHECK(nkids == 2, "--jobs 2: %d worker processes", nkids);
  if (pid > 0) {
    kill(pid, SIGTERM);
    waitpid(pid, NULL, 0);
  }
  for (int k = 0; k < nkids; k++) {
    char state = 0;
    for (int i = 0; i < 1000 && (state = state_of(kids[k], &ppid)) && state != 'Z'; i++) {
      pause_ms(10);
    }
    CHECK(state == 0 || state == 'Z', "hung worker %d still runs after SIGTERM to the sweep",
          (int)kids[k]);
    if (state != 0 && state != 'Z') {
      kill(kids[k], SIGKILL);
    }
  }
}

/* SIGINT to a sweep (Ctrl-C) says where the finished runs are and how to resume. */
static void check_interrupt_note(void)
{
  char dir[256], err[300], text[4096] = "";
  snprintf(dir, sizeof dir, "%s/interrupted", tmpdir);
  snprintf(err, sizeof err, "%s/interrupted.err", tmpdir);
  pid_t pid = fork();
  if (pid == 0) {
    int fd = open(err, O_WRONLY | O_CREAT | O_TRUNC, 0644);
    dup2(fd, STDERR_FILENO);
    execl(MBDAE_CLI, MBDAE_CLI, "sweep", "caraxis", "--plugin", PLUGIN_FILE_HANG, "--solvers",
          "radau5,hang", "--m", "0:1", "--no-plots", "--out", dir, (char *)NULL);
    _exit(127);
  }
  CHECK(pid > 0, "cannot start the sweep");
  for (int i = 0; pid > 0 && i < 3000 && !strstr(text, "[  3/4]"); i++) {
    pause_ms(10); /* until the hanging run is the one left */
    FILE *f = fopen(err, "r");
    size_t got = f ? fread(text, 1, sizeof text - 1, f) : 0;
    text[got] = '\0';
    if (f) {
      fclose(f);
    }
  }
  int status = 0;
  if (pid > 0) {
    kill(pid, SIGINT);
    waitpid(pid, &status, 0);
  }
  FILE *f = fopen(err, "r");
  size_t got = f ? fread(text, 1, sizeof text - 1, f) : 0;
  text[got] = '\0';
  if (f) {
    fclose(f);
  }
  CHECK(WIFSIGNALED(status) && WTERMSIG(status) == SIGINT && strstr(text, "interrupted") &&
            strstr(text, "runs.partial.csv: rerun the same command with --resume"),
        "SIGINT to a sweep: no note on how to resume:\n%s", text);
}

static double monotonic(void)
{
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

/* Solvers that start a process of their own (tests/plugin/sleeper.c): the process is killed with
 * its worker (the worker's process group; issue 33, item 11).  sleeper_wait waits for it: each run
 * times out after 2 s; sleeper_crash crashes while it holds the result pipe: the crash is seen at
 * once (a retry, then a failed row naming the signal), not at the time limit.  No sleeper
 * outlives the sweep. */
static void check_process_group(void)
{
  char dir[256], logs[256];
  mbdae_record *rows;
  snprintf(dir, sizeof dir, "%s/sleepers", tmpdir);
  snprintf(logs, sizeof logs, "%s/sleeper-pids", tmpdir);
  CHECK(mkdir(logs, 0777) == 0, "cannot create %s", logs);
  setenv("MBDAE_TEST_SLEEPER_DIR", logs, 1);
  char asan[512];
  const char *old = getenv("ASAN_OPTIONS");
  snprintf(asan, sizeof asan, "%s%shandle_segv=0", old ? old : "", old && old[0] ? ":" : "");
  setenv("ASAN_OPTIONS", asan, 1); /* a sanitized worker dies by the signal too */
  double t0 = monotonic();
  int rc = cli("sweep caraxis --plugin %s --solvers sleeper_wait,sleeper_crash --m 0:1 --timeout "
               "5 --no-plots --out %s",
               PLUGIN_FILE_SLEEPER, dir);
  double took = monotonic() - t0;
  if (old) {
    setenv("ASAN_OPTIONS", old, 1);
  } else {
    unsetenv("ASAN_OPTIONS");
  }
  unsetenv("MBDAE_TEST_SLEEPER_DIR");
  CHECK(rc == 1 && took < 18,
        "sweep with sleepers: exit %d after %.1f s, expected 1 in 2 x 5 s:\n%s", rc, took, out);
  long n = read_rows(dir, &rows);
  for (long r = 0; r < n; r++) {
    int wait = strcmp(rows[r].solver, "sleeper_wait") == 0;
    CHECK((wait ? rows[r].status == MBDAE_ERR_TIMEOUT : rows[r].status != MBDAE_OK) &&
              (wait || strstr(rows[r].message, "signal 11")),
          "row %ld (%s): %s, '%s'", r + 1, rows[r].solver, mbdae_strcode(rows[r].status),
          rows[r].message);
  }
  mbdae_records_free(rows, n > 0 ? (size_t)n : 0);
  DIR *d = opendir(logs);
  int sleepers = 0;
  for (struct dirent *e; d && (e = readdir(d));) {
    pid_t pid = (pid_t)atoi(e->d_name);
    int ppid = 0;
    char state = 0;
    for (int i = 0; pid > 0 && i < 200 && (state = state_of(pid, &ppid)) && state != 'Z'; i++) {
      pause_ms(10);
    }
    sleepers += pid > 0;
    CHECK(state == 0 || state == 'Z', "sleeper %d outlived its worker", (int)pid);
    if (pid > 0 && state != 0 && state != 'Z') {
      kill(pid, SIGKILL);
    }
  }
  if (d) {
    closedir(d);
  }
  CHECK(sleepers >= 6, "%d sleepers started, expected 2 + 2 x 2 (a crash is retried)", sleepers);
}

int main(void)
{
  if (!mkdtemp(tmpdir)) {
    perror("mkdtemp");
    return 1;
  }
  check_retry();
  check_crash_twice();
  check_timeout(1);
  check_timeout(2);
  check_sigterm_hung();
  check_process_group();
  check_interrupt_note();
  expect("sweep caraxis --timeout 0 --out /tmp/mbdae-never", 2, "--timeout must be positive");
  char cmd[512];
  snprintf(cmd, sizeof cmd, "rm -rf '%s'", tmpdir);
  if (system(cmd) != 0) {
    fprintf(stderr, "test_sweep_faults: cannot remove %s\n", tmpdir);
  }
  return check_summary("test_sweep_faults");
}
