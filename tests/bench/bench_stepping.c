/* bench_stepping: the CPU of a run stepped by the caller (mbdae_integrator, MBDAE_ONE_STEP to
 * tend, the loop of tests/install/consumer.c) against the same run whole (mbdae_solve_with, one
 * repeat), interleaved: each round runs both sides once per problem and solver, and a side's time
 * is the median over the rounds of its process CPU time (clock_gettime CLOCK_PROCESS_CPUTIME_ID:
 * the whole run's as mbdae_result.cpu_seconds reports it, the stepped run's around create, the
 * steps and free).
 * The two sides make the same steps (the counters and y(tend) are compared, bit for bit); what
 * differs is one call into the library per step.  Not a test (timings; run by hand, pinned to one
 * CPU):  taskset -c 1 build/bench_stepping [ROUNDS [RTOL]]  (defaults 15, 1e-7).
 *
 * Instruction counts, which a loaded machine does not disturb: `bench_stepping one SIDE PROBLEM
 * SOLVER RTOL` makes one side's runs only, SIDE one of none (the problem made, nothing run),
 * stepped (one stepped run), whole1 / whole2 (mbdae_solve with 1 / 2 repeats); under
 * `valgrind --tool=callgrind`, a stepped run costs I(stepped) - I(none) and a whole timed run
 * I(whole2) - I(whole1) (the untimed run that measures drift and trajectory digits cancels). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <mbdae/mbdae.h>

enum { MAX_ROUNDS = 101, NPROBLEMS = 5, NSOLVERS = 5 };
static const char *const PROBLEMS[NPROBLEMS] = {"caraxis", "andrews", "crank", "pendulum",
                                                "wheelset"};
static const char *const SOLVERS[NSOLVERS] = {"ida", "radau5", "radau", "bdf", "mebdf"};

static double cpu_now(void)
{
  struct timespec ts;
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
  return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

/* One whole run: the CPU seconds mbdae_solve_with timed (its timed run only: the untimed second
 * run that measures drift and trajectory digits is not counted), y(tend) in y and its step count
 * in *steps; < 0 on failure. */
static double whole_run(const mbdae_problem *p, const char *solver, const mbdae_options *opt,
                        double *y, long *steps)
{
  mbdae_result r;
  if (mbdae_solve(p, solver, opt, 1, y, NULL, &r) != 0) {
    return -1.0;
  }
  *steps = r.stats.steps;
  return r.cpu_seconds;
}

/* The same run stepped one accepted step at a time: its CPU seconds; < 0 on failure. */
static double stepped_run(const mbdae_problem *p, const char *solver, const mbdae_options *opt,
                          double *y, long *steps)
{
  double start = cpu_now(), t = mbdae_problem_t0(p), tend = mbdae_problem_tend(p);
  mbdae_integrator *it = NULL;
  if (mbdae_integrator_create(p, mbdae_solver_find(solver), opt, &it, NULL, 0) != 0) {
    return -1.0;
  }
  int rc = 0;
  while (rc == 0 && t < tend) {
    rc = mbdae_integrator_step(it, tend, MBDAE_ONE_STEP, &t);
  }
  mbdae_integrator_state(it, y, NULL);
  mbdae_stats st;
  mbdae_integrator_stats(it, &st);
  mbdae_integrator_free(it);
  double cpu = cpu_now() - start;
  *steps = st.steps;
  return rc == 0 ? cpu : -1.0;
}

static int by_value(const void *a, const void *b)
{
  double x = *(const double *)a, y = *(const double *)b;
  return (x > y) - (x < y);
}

static double median(double *v, int n)
{
  qsort(v, (size_t)n, sizeof *v, by_value);
  return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

/* Both sides of one problem and solver over the rounds: prints a row; returns 0, or 1 when a run
 * failed or the two sides differ. */
static int compare(const mbdae_problem *p, const char *solver, double rtol, int rounds)
{
  mbdae_options opt;
  mbdae_options_default(&opt);
  opt.rtol = opt.atol = opt.h0 = rtol;
  int n = mbdae_problem_neq(p);
  double *y = malloc(sizeof(double) * 2 * (size_t)n), *z = y + n;
  double whole[MAX_ROUNDS], stepped[MAX_ROUNDS];
  long steps_whole = 0, steps_stepped = 0;
  int bad = 0;
  for (int k = 0; k < rounds && !bad; k++) {
    whole[k] = whole_run(p, solver, &opt, y, &steps_whole);
    stepped[k] = stepped_run(p, solver, &opt, z, &steps_stepped);
    bad = whole[k] < 0.0 || stepped[k] < 0.0 || steps_whole != steps_stepped ||
          memcmp(y, z, sizeof(double) * (size_t)n) != 0;
  }
  if (bad) {
    printf("| %s | %s | failed or differs |\n", mbdae_problem_name(p), solver);
  } else {
    double a = median(whole, rounds), b = median(stepped, rounds);
    printf("| %s | %s | %ld | %.3f | %.3f | %.3f |\n", mbdae_problem_name(p), solver, steps_whole,
           1e3 * a, 1e3 * b, b / a);
  }
  free(y);
  return bad;
}

/* One side only (see the header): 0, or 1 when the run fails. */
static int one_side(const char *side, const char *problem, const char *solver, double rtol)
{
  mbdae_problem *p = NULL;
  if (mbdae_problem_create(problem, &p, NULL, 0) != 0) {
    return 1;
  }
  mbdae_options opt;
  mbdae_options_default(&opt);
  opt.rtol = opt.atol = opt.h0 = rtol;
  int n = mbdae_problem_neq(p), bad = 0;
  double *y = malloc(sizeof(double) * (size_t)n);
  long steps = 0;
  mbdae_result r;
  if (strcmp(side, "stepped") == 0) {
    bad = stepped_run(p, solver, &opt, y, &steps) < 0.0;
  } else if (strcmp(side, "whole1") == 0 || strcmp(side, "whole2") == 0) {
    bad = mbdae_solve(p, solver, &opt, side[5] - '0', y, NULL, &r) != 0;
  } else {
    bad = strcmp(side, "none") != 0;
  }
  free(y);
  mbdae_problem_destroy(p);
  return bad;
}

int main(int argc, char **argv)
{
  if (argc == 6 && strcmp(argv[1], "one") == 0) {
    return one_side(argv[2], argv[3], argv[4], atof(argv[5]));
  }
  int rounds = argc > 1 ? atoi(argv[1]) : 15;
  double rtol = argc > 2 ? atof(argv[2]) : 1e-7;
  if (rounds < 1 || rounds > MAX_ROUNDS || !(rtol > 0.0 && rtol < 1.0)) {
    fprintf(stderr, "usage: bench_stepping [ROUNDS 1..%d [RTOL in (0, 1)]]\n", MAX_ROUNDS);
    return 2;
  }
  printf("rtol = atol = h0 = %g, %d interleaved rounds, median CPU per side\n\n", rtol, rounds);
  printf("| problem | solver | steps | whole ms | stepped ms | stepped / whole |\n");
  printf("|---|---|---|---|---|---|\n");
  int bad = 0;
  for (int i = 0; i < NPROBLEMS; i++) {
    mbdae_problem *p = NULL;
    char msg[256];
    if (mbdae_problem_create(PROBLEMS[i], &p, msg, sizeof msg) != 0) {
      fprintf(stderr, "bench_stepping: %s\n", msg);
      return 1;
    }
    for (int j = 0; j < NSOLVERS; j++) {
      bad |= compare(p, SOLVERS[j], rtol, rounds);
    }
    mbdae_problem_destroy(p);
  }
  return bad;
}
