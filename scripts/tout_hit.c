/* tout_hit.c: a measurement for doc/benchmarks.md (issue 35 item 5), not part of the library.
 * tscd (the least scd over the reference trajectory's times, mbdae_tscd) from the solver's
 * continuous output -- MBDAE_NORMAL to each reference time t_k, y(t_k) = dense(t_k), as `mbdae
 * run` fills options.tout -- against tscd from steps that end exactly at each t_k (MBDAE_ONE_STEP
 * with tout = t_k, cut short there, y(t_k) the solver's own state; the step sequence changes).
 * Their difference is what the continuous extension adds to a low tscd (SUNDIALS' IDA_NORMAL
 * against a tstop at each output time gives the same comparison).  Also printed: the component and
 * time of the largest relative error (where tscd is decided), tscd_rms, scd at t_end, the steps.
 * Build:  cc -O2 -Iinclude -Ibuild/include scripts/tout_hit.c -Lbuild -lmbdae -lm \
 *           -Wl,-rpath,$PWD/build -o tout_hit
 * Usage:  tout_hit SPEC SOLVER RTOL   (atol = rtol, h0 as mbdae run sets it: h0_factor rtol;
 *         the default linear system); one JSON line. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include "mbdae/mbdae.h"

static int sweep(const mbdae_problem *p, const char *solver, double tol, int mode, const double *t,
                 size_t nt, double *y, long *steps)
{
  char msg[512];
  mbdae_options opt;
  mbdae_options_default(&opt);
  opt.rtol = opt.atol = tol;
  mbdae_tolerance_plan plan;
  mbdae_problem_tolerances(p, &plan);
  opt.h0 = plan.h0_factor * tol;
  mbdae_integrator *it = NULL;
  if (mbdae_integrator_create(p, mbdae_solver_find(solver), &opt, &it, msg, sizeof msg) != 0) {
    fprintf(stderr, "create: %s\n", msg);
    return -1;
  }
  int neq = mbdae_problem_neq(p);
  mbdae_integrator_state(it, y, NULL);
  for (size_t k = 1; k < nt; k++) {
    double tr = 0;
    if (mode == MBDAE_NORMAL) {
      if (mbdae_integrator_step(it, t[k], MBDAE_NORMAL, &tr) != 0) {
        fprintf(stderr, "%s\n", mbdae_integrator_message(it));
        return -1;
      }
      mbdae_integrator_dense(it, t[k], y + k * neq);
      continue;
    }
    do {
      if (mbdae_integrator_step(it, t[k], MBDAE_ONE_STEP, &tr) != 0) {
        fprintf(stderr, "%s\n", mbdae_integrator_message(it));
        return -1;
      }
    } while (tr < t[k]);
    mbdae_integrator_state(it, y + k * neq, NULL);
  }
  mbdae_stats st;
  mbdae_integrator_stats(it, &st);
  *steps = st.accepted;
  mbdae_integrator_free(it);
  return 0;
}

int main(int argc, char **argv)
{
  if (argc != 4) {
    fprintf(stderr, "usage: tout_hit SPEC SOLVER RTOL\n");
    return 2;
  }
  char msg[512];
  mbdae_problem *p = NULL;
  if (mbdae_problem_create(argv[1], &p, msg, sizeof msg) != 0) {
    fprintf(stderr, "%s\n", msg);
    return 2;
  }
  size_t nt = 0;
  const double *t = NULL;
  mbdae_problem_reference_trajectory(p, &nt, &t, NULL);
  size_t neq = (size_t)mbdae_problem_neq(p);
  double *yref = malloc(nt * neq * sizeof *yref), *y = malloc(nt * neq * sizeof *y);
  mbdae_problem_reference_trajectory(p, &nt, &t, yref);
  double tol = atof(argv[3]);
  printf("{\"spec\": \"%s\", \"solver\": \"%s\", \"rtol\": %g", argv[1], argv[2], tol);
  const char *names[2] = {"dense", "hit"};
  int modes[2] = {MBDAE_NORMAL, MBDAE_ONE_STEP};
  for (int m = 0; m < 2; m++) {
    long steps = 0;
    if (sweep(p, argv[2], tol, modes[m], t, nt, y, &steps) != 0) {
      printf(", \"%s_failed\": true", names[m]);
      continue;
    }
    size_t kmin = 0;
    int imin = -1;
    double emax = -1;
    for (size_t k = 0; k < nt; k++) {
      for (size_t i = 0; i < neq; i++) {
        double r = yref[k * neq + i];
        if (!mbdae_problem_in_scd(p, (int)i) || r == 0) {
          continue;
        }
        double e = fabs(y[k * neq + i] - r) / fabs(r);
        if (e > emax) {
          emax = e, kmin = k, imin = (int)i;
        }
      }
    }
    printf(", \"%s_at\": \"%s t=%g yref=%.3g\"", names[m], mbdae_problem_component(p, imin),
           t[kmin], yref[kmin * neq + (size_t)imin]);
    printf(", \"%s_tscd\": %.4f, \"%s_rms\": %.4f, \"%s_scd\": %.4f, \"%s_steps\": %ld", names[m],
           mbdae_tscd(p, nt, y, yref), names[m], mbdae_tscd_rms(p, nt, y, yref), names[m],
           mbdae_scd(p, y + (nt - 1) * neq, yref + (nt - 1) * neq), names[m], steps);
  }
  printf("}\n");
  free(y);
  free(yref);
  mbdae_problem_destroy(p);
  return 0;
}
