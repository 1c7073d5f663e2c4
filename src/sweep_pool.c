/* The runs of a sweep in worker processes (mbdae sweep --jobs N).
 *
 * The parent forks N workers before any run; each worker holds a copy of the problem instances
 * (the library has no global state, so a forked copy is a complete one) and loops: read a task
 * index from its task pipe, run it, write the fixed-size sweep_row to its result pipe.  The parent
 * waits on the result pipes with poll() and hands the next task to whichever worker reported, so
 * that long runs (tight tolerances) do not hold up a static share of the work.  Closing a task
 * pipe tells its worker to exit.
 *
 * Isolation is the other reason for processes: a solver that crashes kills its worker only.  The
 * parent sees the result pipe close with a task outstanding, records that run as failed with the
 * signal, and starts a replacement worker.  --jobs 1 goes through the same path. */
#include <errno.h>
#include <math.h>
#include <poll.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

#include "sweep.h"

typedef struct worker {
  pid_t pid;     /* 0: not running */
  int task_fd;   /* parent -> worker: task indices; -1 once closed */
  int result_fd; /* worker -> parent: rows */
  int task;      /* the task it runs, -1 when idle */
} worker;

void sweep_row_for_task(const sweep_task *task, sweep_row *row)
{
  memset(row, 0, sizeof *row);
  snprintf(row->problem, sizeof row->problem, "%s", mbdae_problem_name(task->problem));
  snprintf(row->spec, sizeof row->spec, "%s", mbdae_problem_spec(task->problem));
  snprintf(row->solver, sizeof row->solver, "%s", task->solver);
  row->rtol = task->opt.rtol;
  row->atol = task->opt.atol;
  row->h0 = task->opt.h0;
  row->scd = row->mescd = NAN;
  row->cpu_seconds = row->cpu_min = row->cpu_max = NAN;
}

static void run_task(const sweep_task *task, int repeats, sweep_row *row)
{
  sweep_row_for_task(task, row);
  run_record rec;
  int rc = execute_run(task->problem, task->solver, &task->opt, repeats, &rec);
  const mbdae_result *r = &rec.result;
  row->ok = rc == 0;
  if (rc != 0 && r->message[0] && strstr(r->message, mbdae_strerror(rc))) {
    snprintf(row->message, sizeof row->message, "%s", r->message);
  } else if (rc != 0 && r->message[0]) {
    snprintf(row->message, sizeof row->message, "%s (%s)", r->message, mbdae_strerror(rc));
  } else if (rc != 0) {
    snprintf(row->message, sizeof row->message, "%s", mbdae_strerror(rc));
  } else if (!rec.yref) {
    snprintf(row->message, sizeof row->message, "%s", mbdae_strerror(MBDAE_ERR_NOREF));
  }
  row->scd = rec.scd;
  row->mescd = rec.mescd;
  row->steps = r->stats.steps;
  row->accepted = r->stats.accepted;
  row->nres = r->stats.nres;
  row->nres_fd = r->stats.nres_fd;
  row->njac = r->stats.njac;
  row->nlu = r->stats.nlu;
  if (r->repeats > 0) {
    row->cpu_seconds = r->cpu_seconds;
    row->cpu_min = r->cpu_min;
    row->cpu_max = r->cpu_max;
  }
  row->repeats = r->repeats;
  free_run(&rec);
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

static void worker_loop(int task_fd, int result_fd, const sweep_task *tasks, int repeats)
{
  int k;
  while (read_full(task_fd, &k, sizeof k) == sizeof k) {
    sweep_row row;
    run_task(&tasks[k], repeats, &row);
    if (write_full(result_fd, &row, sizeof row) != sizeof row) {
      break;
    }
  }
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
  pid_t pid = fork();
  if (pid < 0) {
    close(to_worker[0]);
    close(to_worker[1]);
    close(to_parent[0]);
    close(to_parent[1]);
    return -1;
  }
  if (pid == 0) {
    for (int i = 0; i < nworkers; i++) {
      close_fd(&workers[i].task_fd);
      close_fd(&workers[i].result_fd);
    }
    close(to_worker[1]);
    close(to_parent[0]);
    worker_loop(to_worker[0], to_parent[1], tasks, repeats);
    _exit(0); /* no atexit handlers, no flushing of the parent's stdio buffers */
  }
  close(to_worker[0]);
  close(to_parent[1]);
  workers[w].pid = pid;
  workers[w].task_fd = to_worker[1];
  workers[w].result_fd = to_parent[0];
  workers[w].task = -1;
  return 0;
}

/* Give worker w task k, or tell it to exit when k == ntasks. */
static void assign(worker *w, int k, int ntasks)
{
  if (k < ntasks && write_full(w->task_fd, &k, sizeof k) == sizeof k) {
    w->task = k;
  } else {
    close_fd(&w->task_fd);
    w->task = -1;
  }
}

/* The worker's result pipe closed: reap it and describe how it ended. */
static void reap(worker *w, char *why, size_t len)
{
  int status = 0;
  close_fd(&w->task_fd);
  close_fd(&w->result_fd);
  if (w->pid > 0 && waitpid(w->pid, &status, 0) == w->pid && WIFSIGNALED(status)) {
    snprintf(why, len, "the run crashed: signal %d (%s)", WTERMSIG(status),
             strsignal(WTERMSIG(status)));
  } else if (WIFEXITED(status)) {
    snprintf(why, len, "the worker process exited with status %d before reporting",
             WEXITSTATUS(status));
  } else {
    snprintf(why, len, "the worker process ended before reporting");
  }
  w->pid = 0;
}

int sweep_pool_run(const sweep_task *tasks, int ntasks, int repeats, int jobs, sweep_done_fn done,
                   void *ctx)
{
  int nworkers = jobs < ntasks ? jobs : ntasks;
  if (nworkers <= 0) {
    return 0;
  }
  worker *workers = calloc((size_t)nworkers, sizeof *workers);
  struct pollfd *fds = calloc((size_t)nworkers, sizeof *fds);
  int *polled = calloc((size_t)nworkers, sizeof *polled);
  if (!workers || !fds || !polled) {
    free(workers);
    free(fds);
    free(polled);
    return -1;
  }
  /* A worker that died between two tasks must not kill the parent through SIGPIPE. */
  struct sigaction ignore, saved;
  memset(&ignore, 0, sizeof ignore);
  ignore.sa_handler = SIG_IGN;
  sigaction(SIGPIPE, &ignore, &saved);

  int next = 0, busy = 0, rc = 0;
  for (int w = 0; w < nworkers; w++) {
    workers[w].task_fd = workers[w].result_fd = -1;
    workers[w].task = -1;
  }
  for (int w = 0; w < nworkers; w++) {
    if (spawn(workers, nworkers, w, tasks, repeats) != 0) {
      break;
    }
    assign(&workers[w], next++, ntasks);
    busy++;
  }
  if (busy == 0) {
    rc = -1;
  }
  while (busy > 0) {
    int nfds = 0;
    for (int w = 0; w < nworkers; w++) {
      if (workers[w].task >= 0) {
        fds[nfds].fd = workers[w].result_fd;
        fds[nfds].events = POLLIN;
        fds[nfds].revents = 0;
        polled[nfds++] = w;
      }
    }
    if (poll(fds, (nfds_t)nfds, -1) < 0) {
      if (errno == EINTR) {
        continue;
      }
      rc = -1;
      break;
    }
    for (int i = 0; i < nfds; i++) {
      if (!fds[i].revents) {
        continue;
      }
      worker *w = &workers[polled[i]];
      int k = w->task;
      sweep_row row;
      if (read_full(w->result_fd, &row, sizeof row) == sizeof row) {
        done(ctx, k, &row);
        assign(w, next < ntasks ? next++ : ntasks, ntasks);
      } else {
        sweep_row_for_task(&tasks[k], &row);
        reap(w, row.message, sizeof row.message);
        done(ctx, k, &row);
        w->task = -1;
        if (next < ntasks && spawn(workers, nworkers, polled[i], tasks, repeats) == 0) {
          assign(w, next++, ntasks);
        }
      }
      if (w->task < 0) {
        busy--;
      }
    }
  }
  /* Tasks lost to a failed poll or never handed out (no worker could be started) are reported,
   * not dropped. */
  for (int w = 0; w < nworkers; w++) {
    if (workers[w].task >= 0) {
      sweep_row row;
      sweep_row_for_task(&tasks[workers[w].task], &row);
      snprintf(row.message, sizeof row.message, "lost: waiting for the worker failed");
      done(ctx, workers[w].task, &row);
    }
  }
  for (; next < ntasks; next++) {
    sweep_row row;
    sweep_row_for_task(&tasks[next], &row);
    snprintf(row.message, sizeof row.message, "not run: no worker process could be started");
    done(ctx, next, &row);
  }
  for (int w = 0; w < nworkers; w++) {
    close_fd(&workers[w].task_fd);
    close_fd(&workers[w].result_fd);
    if (workers[w].pid > 0) {
      waitpid(workers[w].pid, NULL, 0);
    }
  }
  sigaction(SIGPIPE, &saved, NULL);
  free(workers);
  free(fds);
  free(polled);
  return rc;
}
