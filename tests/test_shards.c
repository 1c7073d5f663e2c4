/* A sweep beyond one machine, through the shipped recipes: examples/parallel/sweep.sh runs the
 * shards with GNU parallel and merges them (`mbdae sweep --report OUT SHARD...`), and
 * examples/slurm/sweep.sbatch, run as its array tasks would be (SLURM_ARRAY_TASK_ID and _COUNT set)
 * and then in its merge mode, does the same for a problem whose final vectors live in side files
 * (renumbered in the merged folder).  Either way the merged runs.csv holds the rows of the sweep
 * made on one machine, in its order: every field but the CPU times and the environment, y bit for
 * bit.  Skipped (with a message) without GNU parallel; the sbatch part needs only sh.  The plain
 * concatenation of doc/command.md (awk, one header line) reads as the same rows too. */
#include <stdarg.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "check.h"
#include "support.h"

#define MBDAE_SOURCE_DIR MBDAE_REFSOL_DIR "/.." /* the examples are in the source tree */

static char tmpdir[] = "/tmp/mbdae-test-shards-XXXXXX";
static char out[1 << 16];

/* sh -c of the formatted line (no gnuplot: the diagrams are tested elsewhere), output into out;
 * the exit code. */
static int shell(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static int shell(const char *fmt, ...)
{
  char cmd[4096];
  va_list ap;
  va_start(ap, fmt);
  int len = snprintf(cmd, sizeof cmd, "export MBDAE='%s' MBDAE_GNUPLOT=/nonexistent/gnuplot; ",
                     MBDAE_CLI);
  len += vsnprintf(cmd + len, sizeof cmd - (size_t)len - 8, fmt, ap);
  va_end(ap);
  CHECK(len < (int)sizeof cmd - 8, "command too long");
  strcat(cmd, " 2>&1");
  FILE *f = popen(cmd, "r");
  if (!f) {
    return -1;
  }
  size_t used = fread(out, 1, sizeof out - 1, f);
  out[used] = '\0';
  while (fgetc(f) != EOF) {
  }
  int status = pclose(f);
  return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

static int read_rows(const char *dir, mbdae_record **recs, size_t *n)
{
  char path[512], msg[600] = "";
  snprintf(path, sizeof path, "%s/runs.csv", dir);
  FILE *in = fopen(path, "r");
  *recs = NULL;
  *n = 0;
  int rc = in ? mbdae_record_read_csv(in, path, recs, n, msg, sizeof msg) : -1;
  if (in) {
    fclose(in);
  }
  CHECK(rc == 0, "%s: %s", path, in ? msg : "missing");
  return rc;
}

static int same_double(double a, double b)
{
  return memcmp(&a, &b, sizeof a) == 0 || (a != a && b != b);
}

/* The rows of merged are those of one, in order: all but CPU times and environment. */
static void same_rows(const char *one, const char *merged, const char *what)
{
  mbdae_record *a = NULL, *b = NULL;
  size_t na = 0, nb = 0;
  if (read_rows(one, &a, &na) != 0 || read_rows(merged, &b, &nb) != 0) {
    mbdae_records_free(a, na);
    return;
  }
  CHECK(na == nb && na > 0, "%s: %zu rows against %zu", what, nb, na);
  for (size_t k = 0; k < na && k < nb; k++) {
    const mbdae_record *x = &a[k], *y = &b[k];
    int same = strcmp(x->spec, y->spec) == 0 && strcmp(x->solver, y->solver) == 0 &&
               strcmp(x->message, y->message) == 0 && x->status == y->status &&
               same_double(x->rtol, y->rtol) && same_double(x->atol, y->atol) &&
               same_double(x->h0, y->h0) && same_double(x->scd, y->scd) &&
               same_double(x->mescd, y->mescd) && x->stats.steps == y->stats.steps &&
               x->stats.accepted == y->stats.accepted && x->stats.nres == y->stats.nres &&
               x->stats.njac == y->stats.njac && x->stats.nlu == y->stats.nlu && x->neq == y->neq &&
               !x->y == !y->y && same_double(x->drift_pos_max, y->drift_pos_max);
    for (int i = 0; same && x->y && i < x->neq; i++) {
      same = same_double(x->y[i], y->y[i]) && strcmp(x->names[i], y->names[i]) == 0;
    }
    CHECK(same, "%s: row %zu differs (%s %s rtol %g: %ld against %ld steps)", what, k + 1, x->spec,
          x->solver, x->rtol, y->stats.steps, x->stats.steps);
  }
  mbdae_records_free(a, na);
  mbdae_records_free(b, nb);
}

static void check_parallel(void)
{
  const char *sweep = "caraxis pendulum --m 0:2 --solvers radau5,bdf";
  char one[256], merged[256], cat[256];
  if (shell("command -v parallel") != 0) {
    printf("test_shards: GNU parallel not installed, examples/parallel/sweep.sh not tried\n");
    return;
  }
  snprintf(one, sizeof one, "%s/one", tmpdir);
  snprintf(merged, sizeof merged, "%s/par", tmpdir);
  snprintf(cat, sizeof cat, "%s/cat", tmpdir);
  int rc = shell("\"$MBDAE\" sweep %s --no-plots --out %s", sweep, one);
  CHECK(rc == 0, "the sweep on one machine: exit %d\n%s", rc, out);
  rc = shell("sh %s/examples/parallel/sweep.sh 4 %s %s", MBDAE_SOURCE_DIR, merged, sweep);
  CHECK(rc == 0 && strstr(out, "12 runs (0 failed) from the runs.csv of the shard folders"),
        "examples/parallel/sweep.sh: exit %d\n%s", rc, out);
  same_rows(one, merged, "4 shards through GNU parallel");
  rc = shell("mkdir -p %s && awk 'FNR > 1 || NR == 1' %s/shard-1/runs.csv %s/shard-2/runs.csv "
             "%s/shard-3/runs.csv %s/shard-4/runs.csv > %s/runs.csv",
             cat, merged, merged, merged, merged, cat);
  CHECK(rc == 0, "awk: %s", out);
  same_rows(one, cat, "the shards' runs.csv concatenated by awk");
  /* a shard that cannot write its results (a file where its folder goes) stops the merge */
  snprintf(merged, sizeof merged, "%s/par-bad", tmpdir);
  rc = shell("mkdir -p %s && touch %s/shard-3 && sh %s/examples/parallel/sweep.sh 4 %s %s", merged,
             merged, MBDAE_SOURCE_DIR, merged, sweep);
  CHECK(rc == 2 && strstr(out, "--shard 3/4") && strstr(out, "exit 2") && access(merged, F_OK) == 0,
        "a shard exiting 2: the recipe exits %d (2), naming it:\n%s", rc, out);
  char path[300];
  snprintf(path, sizeof path, "%s/runs.csv", merged);
  CHECK(access(path, F_OK) != 0, "no merged runs.csv after a failed shard");
}

static void check_sbatch(void)
{
  const char *sweep = "chain:n=300 --max-steps 1 --solvers radau5,bdf --rtol 1e-3,1e-4,1e-5";
  char one[256], merged[256];
  snprintf(one, sizeof one, "%s/large-one", tmpdir);
  snprintf(merged, sizeof merged, "%s/slurm", tmpdir);
  int rc = shell("\"$MBDAE\" sweep %s --no-plots --out %s", sweep, one);
  CHECK(rc == 1, "the sweep on one machine: exit %d (1: one-step runs fail)\n%s", rc, out);
  for (int task = 1; task <= 4; task++) {
    rc = shell("SLURM_ARRAY_TASK_ID=%d SLURM_ARRAY_TASK_COUNT=4 OUT=%s SWEEP_ARGS='%s' sh "
               "%s/examples/slurm/sweep.sbatch",
               task, merged, sweep, MBDAE_SOURCE_DIR);
    CHECK(rc == 0, "sweep.sbatch task %d: exit %d\n%s", task, rc, out);
  }
  rc = shell("OUT=%s sh %s/examples/slurm/sweep.sbatch merge", merged, MBDAE_SOURCE_DIR);
  CHECK(rc == 0 && strstr(out, "6 runs (6 failed)"), "sweep.sbatch merge: exit %d\n%s", rc, out);
  same_rows(one, merged, "4 Slurm array tasks, merged");
  char side[300];
  snprintf(side, sizeof side, "%s/runs-6.vec", merged);
  CHECK(access(side, F_OK) == 0, "the merged folder has its own side files, runs-1..6.vec");
  rc = shell("sh %s/examples/slurm/sweep.sbatch", MBDAE_SOURCE_DIR);
  CHECK(rc != 0 && strstr(out, "Slurm array task"), "sweep.sbatch outside Slurm: exit %d\n%s", rc,
        out);
}

int main(void)
{
  if (!mkdtemp(tmpdir)) {
    perror("mkdtemp");
    return 1;
  }
  check_parallel();
  check_sbatch();
  if (check_failed == 0) {
    shell("rm -rf %s", tmpdir);
  }
  return check_summary("test_shards");
}
