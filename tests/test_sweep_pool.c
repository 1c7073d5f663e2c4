/* The worker pool of mbdae sweep (src/cli/sweep_pool.c, compiled into this test with
 * src/cli/report.c, which it calls, and src/cli/plugin.c, which report.c finds solvers through):
 * every task is reported exactly once, with its row, even when a worker is killed while it waits
 * for its next task; and a worker does not outlive its parent.
 *
 * The kill is deterministic: the done callback runs in the parent between a worker's report and
 * the next task it is handed, while that worker is idle; the callback kills it and waits until it
 * is a zombie (its pipes closed), so the next task meets a dead worker every time. */
#include <dirent.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "check.h"
#include "support.h"

#include "plugin.c"
#include "report.c"
#include "sweep_pool.c"

enum { NTASKS = 4 };

typedef struct seen {
  int count[NTASKS];
  mbdae_record rows[NTASKS];
  int kill_after; /* kill the idle worker after this many reports; -1: never */
  int reports;
} seen;

/* The state letter of process pid from /proc/pid/stat ('Z' zombie), 0 when it is gone. */
static char state_of(pid_t pid)
{
  char path[64], buf[512];
  snprintf(path, sizeof path, "/proc/%d/stat", (int)pid);
  FILE *f = fopen(path, "r");
  if (!f) {
    return 0;
  }
  size_t got = fread(buf, 1, sizeof buf - 1, f);
  fclose(f);
  buf[got] = '\0';
  char *paren = strrchr(buf, ')');
  return paren && paren[1] == ' ' ? paren[2] : 0;
}

/* The one child of this process with state other than zombie, or 0. */
static pid_t only_child(void)
{
  pid_t found = 0;
  DIR *proc = opendir("/proc");
  for (struct dirent *e; proc && (e = readdir(proc)) && !found;) {
    char path[300], buf[512];
    snprintf(path, sizeof path, "/proc/%s/stat", e->d_name);
    FILE *f = e->d_name[0] >= '1' && e->d_name[0] <= '9' ? fopen(path, "r") : NULL;
    if (!f) {
      continue;
    }
    size_t got = fread(buf, 1, sizeof buf - 1, f);
    fclose(f);
    buf[got] = '\0';
    char *paren = strrchr(buf, ')');
    int ppid = 0;
    char state = 0;
    if (paren && sscanf(paren + 1, " %c %d", &state, &ppid) == 2 && ppid == (int)getpid() &&
        state != 'Z') {
      found = (pid_t)atoi(e->d_name);
    }
  }
  if (proc) {
    closedir(proc);
  }
  return found;
}

static void on_done(void *ctx, int task, mbdae_record *row)
{
  seen *s = ctx;
  CHECK(task >= 0 && task < NTASKS, "task %d out of range", task);
  if (task < 0 || task >= NTASKS) {
    mbdae_record_free(row);
    return;
  }
  if (s->count[task]++ == 0) {
    s->rows[task] = *row;
  } else {
    mbdae_record_free(row); /* counted: reported twice */
  }
  if (++s->reports != s->kill_after) {
    return;
  }
  pid_t worker = only_child();
  CHECK(worker > 0, "no worker process found");
  if (worker > 0) {
    kill(worker, SIGKILL);
    while (state_of(worker) != 'Z' && state_of(worker) != 0) {
      nanosleep(&(struct timespec){0, 1000000}, NULL); /* waiting for a state, not a time */
    }
  }
}

static void run_pool(int kill_after)
{
  mbdae_problem *p = create_problem("caraxis");
  if (!p) {
    return;
  }
  sweep_task tasks[NTASKS];
  for (int k = 0; k < NTASKS; k++) {
    tasks[k].problem = p;
    tasks[k].solver = "ida";
    test_set_options(p, 1e-3 / (k + 1), 0.0, 0.0, 0, &tasks[k].opt);
  }
  seen s;
  memset(&s, 0, sizeof s);
  s.kill_after = kill_after;
  int rc = sweep_pool_run(tasks, NTASKS, 1, 1, 0.0, on_done, &s);
  CHECK(rc == 0, "sweep_pool_run: %d", rc);
  for (int k = 0; k < NTASKS; k++) {
    CHECK(s.count[k] == 1, "kill after %d: task %d reported %d times", kill_after, k, s.count[k]);
    CHECK(s.rows[k].status == 0 && s.rows[k].stats.steps > 0 &&
              strcmp(s.rows[k].solver, "ida") == 0,
          "kill after %d: task %d: status %d, %ld steps, message '%s'", kill_after, k,
          s.rows[k].status, s.rows[k].stats.steps, s.rows[k].message);
    mbdae_record_free(&s.rows[k]);
  }
  mbdae_problem_destroy(p);
}

int main(void)
{
  run_pool(-1);
  run_pool(1); /* the worker dies idle after the first run: the second goes to a replacement */
  run_pool(NTASKS - 1);
  return check_summary("test_sweep_pool");
}
