/* The runs of a sweep in worker processes (mbdae sweep --jobs N).
 *
 * The parent forks N workers before any run; each worker holds a copy of the problem instances
 * (the library has no global state, so a forked copy is a complete one) and loops: read a task
 * index from its task pipe, run it, write the run's record (as runs.csv text) to its result pipe.
 * The parent waits on the result pipes with poll() and hands the next task to whichever worker
 * reported, so that long runs (tight tolerances) do not hold up a static share of the work. Closing
 * a task pipe tells its worker to exit.
 *
 * Isolation is the other reason for processes: a solver that crashes kills its worker only.  The
 * parent sees the result pipe close with a task outstanding, starts a replacement worker and hands
 * it the same task once more (a worker killed from outside, by the OOM killer or a user, is no
 * verdict on the run); when the retry dies too, the run is recorded as failed with the signal.  A
 * worker found dead when it is handed a task (killed while idle) is replaced too and the task
 * handed to the replacement.  With a time limit (--timeout S), a worker whose task has run S
 * seconds of wall time is killed (SIGKILL) and replaced, and the run recorded as failed with
 * MBDAE_ERR_TIMEOUT, without a retry.  Every task is reported exactly once, as a run or as a
 * failure that says why.  --jobs 1 goes through the same path.
 *
 * On Linux a worker asks for SIGKILL when its parent dies (prctl PR_SET_PDEATHSIG), so that
 * SIGTERM or SIGKILL to the sweep leaves no worker computing on.  Each worker leads a process
 * group of its own, killed with it (timeout, death, the end of the pool), so that processes a
 * plug-in started do not outlive their run; a worker that died while such a process holds its
 * result pipe open is found by waitid (WNOWAIT) within WATCH_MS and its group killed. */
#include <errno.h>
#include <math.h>
#include <poll.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>
#ifdef __linux__
#include <sys/prctl.h>
#endif
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "sweep.h"

enum { WATCH_MS = 200 }; /* how often the pool looks for a dead worker whose pipe stays open */

typedef struct worker {
  pid_t pid;     /* 0: not running */
  int task_fd;   /* parent -> worker: task indices; -1 once closed */
  int result_fd; /* worker -> parent: rows */
  int task;      /* the task it runs, -1 when idle */
  double since;  /* when it was handed that task (monotonic clock, seconds) */
} worker;

void sweep_record_for_task(const sweep_task *task, mbdae_record *rec)
{
  mbdae_record_init(rec, task->problem, solver_type_of(task->solver), &task->opt);
}

/* read/write all of len bytes across short transfers and signals; the count moved (< len at EOF
 * or on an error). */
static size_t read_full(int fd, void *buf, size_t len)
{
  size_t done = 0;
  while (done < len) {
    ssize_t got = read(fd, (char *)buf + done, len - done);
    if (got < 0 && errno == EINTR) {
      continue;
    }
    if (got <= 0) {
      break;
    }
    done += (size_t)got;
  }
  return done;
}

static size_t write_full(int fd, const void *buf, size_t len)
{
  size_t done = 0;
  while (done < len) {
    ssize_t put = write(fd, (const char *)buf + done, len - done);
    if (put < 0 && errno == EINTR) {
      continue;
    }
    if (put <= 0) {
      break;
    }
    done += (size_t)put;
  }
  return done;
}

/* A record crosses the result pipe as its runs.csv text (header, environment, row) after its
 * length: the library's writer and reader, so that it arrives bit for bit and checked. */
static void worker_loop(int task_fd, int result_fd, const sweep_task *tasks, int repeats)
{
  int k;
  while (read_full(task_fd, &k, sizeof k) == sizeof k) {
    mbdae_record rec = MBDAE_RECORD_INIT;
    char *text = NULL;
    size_t len = 0;
    execute_run(tasks[k].problem, tasks[k].solver, &tasks[k].opt, repeats, &rec);
    FILE *out = open_memstream(&text, &len);
    if (out) {
      mbdae_record_write_csv_header(out, &rec.env);
      mbdae_record_write_csv_row(out, &rec);
      fclose(out);
    }
    mbdae_record_free(&rec);
    int sent = text && write_full(result_fd, &len, sizeof len) == sizeof len &&
               write_full(result_fd, text, len) == len;
    free(text);
    if (!sent) {
      break;
    }
  }
}

/* The record a worker sent (its length already read): 0, or -1 with why in rec->message after
 * sweep_record_for_task. */
static int receive(int fd, size_t len, const sweep_task *task, mbdae_record *rec)
{
  char msg[300] = "its record was cut short";
  mbdae_record *got = NULL;
  size_t n = 0;
  char *text = len > 0 && len < ((size_t)1 << 30) ? malloc(len) : NULL;
  FILE *in = text && read_full(fd, text, len) == len ? fmemopen(text, len, "r") : NULL;
  int rc = in ? mbdae_record_read_csv(in, "the worker's record", &got, &n, msg, sizeof msg) : -1;
  if (in) {
    fclose(in);
  }
  free(text);
  if (rc == 0 && n == 1) {
    *rec = got[0];
    free(got);
    return 0;
  }
  mbdae_records_free(got, n);
  sweep_record_for_task(task, rec);
  snprintf(rec->message, sizeof rec->message, "the worker's record was not readable: %s", msg);
  return -1;
}

static void close_fd(int *fd)
{
  if (*fd >= 0) {
    close(*fd);
    *fd = -1;
  }
}

/* Fork worker w.  The child closes every other worker's pipe ends: a task pipe whose write end
 * survives in a sibling would never report end-of-file to its own worker. */
static int spawn(worker *workers, int nworkers, int w, const sweep_task *tasks, int repeats)
{
  int to_worker[2], to_parent[2];
  if (pipe(to_worker) != 0) {
    return -1;
  }
  if (pipe(to_parent) != 0) {
    close(to_worker[0]);
    close(to_worker[1]);
    return -1;
  }
  fflush(NULL); /* or buffered output would be written twice */
  pid_t parent = getpid();
  pid_t pid = fork();
  if (pid < 0) {
    close(to_worker[0]);
    close(to_worker[1]);
    close(to_parent[0]);
    close(to_parent[1]);
    return -1;
  }
  if (pid == 0) {
    setpgid(0, 0);           /* a group of its own: its children end with it (kill_group) */
    signal(SIGINT, SIG_DFL); /* not the sweep's note on an interrupt (cmd_sweep.c) */
    signal(SIGTERM, SIG_DFL);
#ifdef __linux__
    /* the worker ends with the parent, however the parent ends (SIGTERM, SIGKILL) */
    if (prctl(PR_SET_PDEATHSIG, SIGKILL) != 0 || getppid() != parent) {
      _exit(0);
    }
#else
    (void)parent; /* elsewhere a worker ends when its task pipe closes, after its run */
#endif
    for (int i = 0; i < nworkers; i++) {
      close_fd(&workers[i].task_fd);
      close_fd(&workers[i].result_fd);
    }
    close(to_worker[1]);
    close(to_parent[0]);
    worker_loop(to_worker[0], to_parent[1], tasks, repeats);
    _exit(0); /* no atexit handlers, no flushing of the parent's stdio buffers */
  }
  setpgid(pid, pid); /* also here: the group exists before the parent may signal it */
  close(to_worker[0]);
  close(to_parent[1]);
  workers[w].pid = pid;
  workers[w].task_fd = to_worker[1];
  workers[w].result_fd = to_parent[0];
  workers[w].task = -1;
  return 0;
}

static double monotonic_now(void)
{
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

/* Give worker w task k: 0, or -1 when its task pipe is closed (the worker died while idle). */
static int assign(worker *w, int k)
{
  if (write_full(w->task_fd, &k, sizeof k) != sizeof k) {
    return -1;
  }
  w->task = k;
  w->since = monotonic_now();
  return 0;
}

/* SIGKILL to worker w's process group: the processes a solver or problem of a plug-in started in
 * it (a sleeper holding the result pipe would keep its end from closing).  The group outlives
 * the worker while a member lives, so its id is not reused before this. */
static void kill_group(const worker *w)
{
  if (w->pid > 0) {
    kill(-w->pid, SIGKILL);
  }
}

/* The busy workers that have ended (found without reaping them, waitid WNOWAIT): their groups
 * are killed, so that the result pipe closes and the death is handled at once (collect). */
static void end_groups_of_dead(const worker *workers, int n)
{
  for (int w = 0; w < n; w++) {
    siginfo_t info;
    memset(&info, 0, sizeof info);
    if (workers[w].pid > 0 && workers[w].task >= 0 &&
        waitid(P_PID, (id_t)workers[w].pid, &info, WEXITED | WNOHANG | WNOWAIT) == 0 &&
        info.si_pid == workers[w].pid) {
      kill_group(&workers[w]);
    }
  }
}

/* The worker's pipes closed: reap it and describe how it ended ("was killed by signal 9 (Killed)",
 * "exited with status 0"). */
static void reap(worker *w, char *how, size_t len)
{
  int status = 0;
  close_fd(&w->task_fd);
  close_fd(&w->result_fd);
  kill_group(w);
  if (w->pid > 0 && waitpid(w->pid, &status, 0) == w->pid && WIFSIGNALED(status)) {
    snprintf(how, len, "was killed by signal %d (%s)", WTERMSIG(status),
             strsignal(WTERMSIG(status)));
  } else if (WIFEXITED(status)) {
    snprintf(how, len, "exited with status %d", WEXITSTATUS(status));
  } else {
    snprintf(how, len, "ended");
  }
  w->pid = 0;
  w->task = -1;
}

/* What the pool loop shares with its helpers. */
typedef struct pool {
  worker *workers;
  int nworkers;
  const sweep_task *tasks;
  int ntasks, repeats;
  double timeout; /* seconds of wall time per task; 0: none */
  char *retried;  /* retried[k]: task k's first worker died, it runs a second time */
  int next;       /* the first task not handed out */
  sweep_done_fn done;
  void *ctx;
} pool;

/* Hand worker w the next task, or tell it to exit when none is left.  A worker that died while
 * idle is replaced and the task handed to the replacement; when that fails too, the task is
 * reported as failed, never dropped. */
static void hand_next(pool *pl, int w)
{
  worker *wk = &pl->workers[w];
  if (pl->next >= pl->ntasks) {
    close_fd(&wk->task_fd);
    wk->task = -1;
    return;
  }
  int k = pl->next++;
  if (wk->pid > 0 && assign(wk, k) == 0) {
    return;
  }
  char how[128] = "could not be started";
  if (wk->pid > 0) {
    reap(wk, how, sizeof how);
  }
  if (spawn(pl->workers, pl->nworkers, w, pl->tasks, pl->repeats) == 0) {
    if (assign(wk, k) == 0) {
      return;
    }
    reap(wk, how, sizeof how);
  }
  mbdae_record rec = MBDAE_RECORD_INIT;
  sweep_record_for_task(&pl->tasks[k], &rec);
  snprintf(rec.message, sizeof rec.message, "not run: its worker process %s before taking it", how);
  pl->done(pl->ctx, k, &rec);
}

/* A result, or the end of the result pipe, from worker w. */
static void collect(pool *pl, int w)
{
  worker *wk = &pl->workers[w];
  int k = wk->task;
  mbdae_record rec = MBDAE_RECORD_INIT;
  size_t len = 0;
  if (read_full(wk->result_fd, &len, sizeof len) == sizeof len) {
    receive(wk->result_fd, len, &pl->tasks[k], &rec);
    pl->done(pl->ctx, k, &rec);
  } else {
    char how[128], ignored[128];
    reap(wk, how, sizeof how);
    int first = !pl->retried[k];
    pl->retried[k] = 1;
    if (first && spawn(pl->workers, pl->nworkers, w, pl->tasks, pl->repeats) == 0) {
      if (assign(wk, k) == 0) {
        return; /* the same task once more, in a fresh worker */
      }
      reap(wk, ignored, sizeof ignored);
    }
    sweep_record_for_task(&pl->tasks[k], &rec);
    snprintf(rec.message, sizeof rec.message, "the run crashed: its worker process %s%s", how,
             first ? " (no worker could be started for a retry)" : " (after a retry)");
    pl->done(pl->ctx, k, &rec);
  }
  wk->task = -1;
  hand_next(pl, w);
}

/* Worker w has run its task longer than the time limit: kill it, report the run, go on. */
static void time_out(pool *pl, int w)
{
  worker *wk = &pl->workers[w];
  int k = wk->task;
  char how[128];
  mbdae_record rec = MBDAE_RECORD_INIT;
  kill_group(wk); /* the worker and what it started */
  reap(wk, how, sizeof how);
  sweep_record_for_task(&pl->tasks[k], &rec);
  rec.status = MBDAE_ERR_TIMEOUT;
  snprintf(rec.message, sizeof rec.message,
           "timed out after %g s: no result, its worker process was killed and replaced",
           pl->timeout);
  pl->done(pl->ctx, k, &rec);
  hand_next(pl, w);
}

/* The poll timeout in milliseconds until the first busy worker's deadline; -1: none. */
static int next_deadline_ms(const pool *pl)
{
  if (pl->timeout <= 0.0) {
    return -1;
  }
  double now = monotonic_now(), first = INFINITY;
  for (int w = 0; w < pl->nworkers; w++) {
    if (pl->workers[w].task >= 0) {
      first = fmin(first, pl->workers[w].since + pl->timeout - now);
    }
  }
  if (first == INFINITY) {
    return -1;
  }
  return first <= 0.0 ? 0 : first > 86400.0 ? 86400000 : (int)ceil(first * 1000.0);
}

/* The busy workers past their deadline (after their results, if any, were taken). */
static void time_out_overdue(pool *pl)
{
  if (pl->timeout <= 0.0) {
    return;
  }
  double now = monotonic_now();
  for (int w = 0; w < pl->nworkers; w++) {
    if (pl->workers[w].task >= 0 && now >= pl->workers[w].since + pl->timeout) {
      time_out(pl, w);
    }
  }
}

/* Report the tasks still out (a failed poll) or never handed out (no worker started) as failed
 * runs with message why, then end the workers. */
static void finish(pool *pl, const char *why)
{
  mbdae_record rec = MBDAE_RECORD_INIT;
  for (int w = 0; w < pl->nworkers; w++) {
    if (pl->workers[w].task >= 0) {
      sweep_record_for_task(&pl->tasks[pl->workers[w].task], &rec);
      snprintf(rec.message, sizeof rec.message, "%s", why);
      pl->done(pl->ctx, pl->workers[w].task, &rec);
    }
  }
  for (; pl->next < pl->ntasks; pl->next++) {
    sweep_record_for_task(&pl->tasks[pl->next], &rec);
    snprintf(rec.message, sizeof rec.message, "%s", why);
    pl->done(pl->ctx, pl->next, &rec);
  }
  for (int w = 0; w < pl->nworkers; w++) {
    close_fd(&pl->workers[w].task_fd);
    close_fd(&pl->workers[w].result_fd);
    if (pl->workers[w].pid > 0 && pl->workers[w].task >= 0) {
      kill_group(&pl->workers[w]); /* its run is reported lost: it must not hang on */
    }
    if (pl->workers[w].pid > 0) {
      waitpid(pl->workers[w].pid, NULL, 0);
      kill_group(&pl->workers[w]); /* what it left running */
    }
  }
}

/* Wait for results and deadlines until no worker has a task; 0, or -1 when poll failed. */
static int pool_loop(pool *pl, struct pollfd *fds, int *polled)
{
  for (;;) {
    int nfds = 0;
    for (int w = 0; w < pl->nworkers; w++) {
      if (pl->workers[w].task >= 0) {
        fds[nfds] = (struct pollfd){.fd = pl->workers[w].result_fd, .events = POLLIN};
        polled[nfds++] = w;
      }
    }
    if (nfds == 0) {
      return 0;
    }
    int wait_ms = next_deadline_ms(pl); /* and a look at the workers every WATCH_MS */
    if (poll(fds, (nfds_t)nfds, wait_ms < 0 || wait_ms > WATCH_MS ? WATCH_MS : wait_ms) < 0) {
      if (errno == EINTR) {
        continue;
      }
      return -1;
    }
    for (int i = 0; i < nfds; i++) {
      if (fds[i].revents) {
        collect(pl, polled[i]);
      }
    }
    time_out_overdue(pl);
    end_groups_of_dead(pl->workers, pl->nworkers);
  }
}

int sweep_pool_run(const sweep_task *tasks, int ntasks, int repeats, int jobs, double timeout,
                   sweep_done_fn done, void *ctx)
{
  int nworkers = jobs < ntasks ? jobs : ntasks;
  if (nworkers <= 0) {
    return 0;
  }
  pool pl = {calloc((size_t)nworkers, sizeof(worker)),
             nworkers,
             tasks,
             ntasks,
             repeats,
             timeout,
             calloc((size_t)ntasks, 1),
             0,
             done,
             ctx};
  struct pollfd *fds = calloc((size_t)nworkers, sizeof *fds);
  int *polled = calloc((size_t)nworkers, sizeof *polled);
  if (!pl.workers || !pl.retried || !fds || !polled) {
    free(pl.workers);
    free(pl.retried);
    free(fds);
    free(polled);
    return -1;
  }
  /* A worker that died between two tasks must not kill the parent through SIGPIPE. */
  struct sigaction ignore, saved;
  memset(&ignore, 0, sizeof ignore);
  ignore.sa_handler = SIG_IGN;
  sigaction(SIGPIPE, &ignore, &saved);

  int rc = 0, started = 0;
  for (int w = 0; w < nworkers; w++) {
    pl.workers[w].task_fd = pl.workers[w].result_fd = -1;
    pl.workers[w].task = -1;
  }
  for (int w = 0; w < nworkers && spawn(pl.workers, nworkers, w, tasks, repeats) == 0; w++) {
    started++;
  }
  for (int w = 0; w < started; w++) {
    hand_next(&pl, w);
  }
  rc = pool_loop(&pl, fds, polled);
  finish(&pl, started == 0 ? "not run: no worker process could be started"
                           : "lost: waiting for the worker failed");
  sigaction(SIGPIPE, &saved, NULL);
  free(pl.workers);
  free(pl.retried);
  free(fds);
  free(polled);
  return started == 0 ? -1 : rc;
}
