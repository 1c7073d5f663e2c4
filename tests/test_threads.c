/* No global mutable state: two threads integrating two instances at once (and two threads
 * sharing one instance) give bit for bit the results of one thread. */
#include <pthread.h>
#include <string.h>

#include "check.h"
#include "mbdae/mbdae.h"

typedef struct job {
  const mbdae_problem *p;
  const char *solver;
  double y[32];
  mbdae_result r;
} job;

static void *run_job(void *arg)
{
  job *j = arg;
  mbdae_options opt;
  mbdae_options_default(&opt);
  opt.rtol = opt.atol = 1e-7;
  opt.h0 = 1e-9;
  mbdae_solve(j->p, j->solver, &opt, 1, j->y, NULL, &j->r);
  return NULL;
}

static void compare(const job *a, const job *b, const char *what)
{
  int n = mbdae_problem_neq(a->p);
  CHECK(a->r.status == 0 && b->r.status == 0, "%s: status %d / %d (%s)", what, a->r.status,
        b->r.status, a->r.message);
  CHECK(memcmp(a->y, b->y, sizeof(double) * (size_t)n) == 0, "%s: y differs", what);
  CHECK(a->r.stats.steps == b->r.stats.steps && a->r.stats.nres == b->r.stats.nres,
        "%s: counters differ (%ld/%ld steps)", what, a->r.stats.steps, b->r.stats.steps);
}

static void two_threads(const char *spec1, const char *spec2, const char *solver, int share)
{
  mbdae_problem *p1 = NULL, *p2 = NULL;
  CHECK(mbdae_problem_create(spec1, &p1, NULL, 0) == 0, "%s", spec1);
  CHECK(mbdae_problem_create(spec2, &p2, NULL, 0) == 0, "%s", spec2);
  job serial[2] = {{.p = p1, .solver = solver}, {.p = share ? p1 : p2, .solver = solver}};
  job parallel[2] = {serial[0], serial[1]};
  run_job(&serial[0]);
  run_job(&serial[1]);
  pthread_t th[2];
  for (int k = 0; k < 2; k++) {
    CHECK(pthread_create(&th[k], NULL, run_job, &parallel[k]) == 0, "pthread_create");
  }
  for (int k = 0; k < 2; k++) {
    pthread_join(th[k], NULL);
  }
  char what[128];
  snprintf(what, sizeof what, "%s / %s with %s%s", spec1, spec2, solver, share ? " (shared)" : "");
  compare(&serial[0], &parallel[0], what);
  compare(&serial[1], &parallel[1], what);
  mbdae_problem_destroy(p1);
  mbdae_problem_destroy(p2);
}

int main(void)
{
  for (int s = 0; s < mbdae_solver_count(); s++) {
    if (strcmp(mbdae_solver_id(s), "spm") == 0) { /* index-1 forms only */
      two_threads("pendulum:form=index1", "dpendulum:form=index1", "spm", 0);
      two_threads("dpendulum:form=index1", "dpendulum:form=index1", "spm", 1);
      continue;
    }
    two_threads("caraxis", "crank", mbdae_solver_id(s), 0);
    two_threads("andrews", "andrews", mbdae_solver_id(s), 1);
  }
  return check_summary("test_threads");
}
