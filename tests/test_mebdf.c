/* test_mebdf: the modified extended BDF solver (solvers/mebdf*.c) on the test set's problems.
 *
 * - published rows: MEBDFI's rows of the test set (refsol/peer/testset.jsonl, run by the Bari
 *   drivers) with our measured scd, mescd and steps as floors and ceilings;
 * - order selection: which orders a run uses (on_step's order: the corrector's, k + 1);
 * - tolerance proportionality: the slope of scd against -log10 rtol;
 * - the slider crank's elastic coordinates at rtol 1e-8, which bdf (BDF3-5, not A-stable on the
 *   undamped 22606 rad/s mode) gets 9 times less accurately;
 * - the stability-limited order on the crank at rtol 1e-5;
 * - `mbdae bench --against refsol/peer/testset.jsonl` prints MEBDFI beside mebdf. */
#include <math.h>

#include "support.h"

/* One published row: ours as measured (scd, mescd floors 0.05 below; steps at most 3% above) and
 * MEBDFI's (the requirement, whatever ours measured: at most 0.2 digits below them, and at most
 * 1.1 times MEBDFI's steps unless more than 0.5 digits ahead). */
typedef struct row {
  const char *spec;
  double rtol;
  double scd, mescd; /* ours, measured */
  long steps;        /* ours, measured */
  double peer_scd, peer_mescd;
  long peer_steps;
} row;

static const row ROWS[] = {
    {"caraxis", 1e-4, -0.35, 1.78, 231, -0.23, 0.88, 280},
    {"caraxis", 1e-7, 3.68, 5.23, 682, 3.34, 4.65, 650},
    {"caraxis", 1e-10, 6.53, 8.56, 2036, 2.08, 4.21, 1393},
    {"andrews", 1e-4, 0.97, -0.76, 108, 0.37, -1.11, 118},
    {"andrews", 1e-7, 4.20, 1.97, 264, 3.50, 1.25, 300},
    {"andrews", 1e-10, 7.98, 5.70, 781, 5.69, 3.45, 683},
    {"crank", 1e-4, 2.54, 0.23, 307, 1.72, 0.23, 282},
    {"crank", 1e-6, 3.21, 0.21, 3471, 3.02, 0.03, 3320},
    {"crank", 1e-8, 5.57, 2.58, 6692, 5.64, 2.66, 6323},
    {"dpendulum", 1e-4, 0.17, 0.38, 418, -0.48, -0.26, 577},
    {"dpendulum", 1e-7, 2.70, 2.91, 1022, 1.23, 1.45, 1533},
    {"pendulum", 1e-4, -0.10, 0.26, 2025, -0.62, 0.07, 4170},
};

static void published_rows(void)
{
  for (size_t k = 0; k < sizeof ROWS / sizeof ROWS[0]; k++) {
    const row *w = &ROWS[k];
    double scd = 0.0, mescd = 0.0;
    mbdae_stats st = {0};
    if (run_as_test_set(w->spec, "mebdf", w->rtol, &scd, &mescd, &st) != 0) {
      continue;
    }
    printf("%-9s %7.0e  scd %5.2f (MEBDFI %5.2f)  mescd %5.2f (%5.2f)  steps %5ld (%5ld)\n",
           w->spec, w->rtol, scd, w->peer_scd, mescd, w->peer_mescd, st.steps, w->peer_steps);
    CHECK(scd >= w->scd - 0.05 && mescd >= w->mescd - 0.05, "%s %g: scd %.2f, mescd %.2f", w->spec,
          w->rtol, scd, mescd);
    CHECK(scd >= w->peer_scd - 0.2 && mescd >= w->peer_mescd - 0.2,
          "%s %g: scd %.2f, mescd %.2f more than 0.2 below MEBDFI's", w->spec, w->rtol, scd, mescd);
    CHECK(st.steps <= w->steps + w->steps * 3 / 100 + 2, "%s %g: %ld steps (measured %ld)", w->spec,
          w->rtol, st.steps, w->steps);
    CHECK(scd > w->peer_scd + 0.5 || st.steps * 10 <= w->peer_steps * 11,
          "%s %g: %ld steps, more than 1.1 times MEBDFI's %ld for scd %.2f", w->spec, w->rtol,
          st.steps, w->peer_steps, scd);
  }
}

/* The orders of the accepted steps of one run. */
typedef struct orders {
  long count[16];
  int first;
} orders;

static void count_order(void *ctx, double t, double h, int order)
{
  orders *o = ctx;
  (void)t;
  (void)h;
  if (o->first == 0) {
    o->first = order;
  }
  o->count[order >= 0 && order < 16 ? order : 0]++;
}

static void run_orders(const char *spec, double rtol, orders *o)
{
  mbdae_problem *p = create_problem(spec);
  if (!p) {
    return;
  }
  double y[SUPPORT_MAX_N];
  mbdae_options opt;
  test_options(p, rtol, &opt);
  opt.on_step = count_order;
  opt.on_step_ctx = o;
  mbdae_result r;
  CHECK(mbdae_solve(p, "mebdf", &opt, 1, y, NULL, &r) == 0, "%s %g: %s", spec, rtol, r.message);
  mbdae_problem_destroy(p);
}

/* Measured: the car axis at 1e-10 starts at order 2 and spends 1977 of its 2036 accepted steps at
 * order 8.  At 1e-4 it spends 18 of its 230 accepted steps at order 6, 46 at 7 and 138 at 8 (64 at
 * 6, 139 at 7 and none at 8 in 254 before an order raise with a smaller step was taken,
 * solvers/mebdf_control.c, 2026-11-27); the stability limit does not bind there since the
 * step-size biases were raised (with LSODE's biases it held the run at order 4 on 123 of 268
 * steps).  The limit is checked on the crank (crank_stability_limit; without it the crank at 1e-4
 * falls to mescd -1.40 in 1625 steps). */
static void order_selection(void)
{
  orders o = {{0}, 0};
  run_orders("caraxis", 1e-10, &o);
  CHECK(o.first == 2, "first order %d (BDF order 1 with its order-2 corrector)", o.first);
  CHECK(o.count[0] == 0 && o.count[1] == 0 && o.count[9] == 0, "orders outside 2..8");
  long total = 0;
  for (int q = 0; q < 16; q++) {
    total += o.count[q];
  }
  printf("caraxis 1e-10: orders 2..8: %ld %ld %ld %ld %ld %ld %ld\n", o.count[2], o.count[3],
         o.count[4], o.count[5], o.count[6], o.count[7], o.count[8]);
  CHECK(o.count[8] * 4 >= total * 3, "order 8 on %ld of %ld steps", o.count[8], total);
  orders loose = {{0}, 0};
  run_orders("caraxis", 1e-4, &loose);
  printf("caraxis 1e-4: orders 2..8: %ld %ld %ld %ld %ld %ld %ld\n", loose.count[2], loose.count[3],
         loose.count[4], loose.count[5], loose.count[6], loose.count[7], loose.count[8]);
  long high = loose.count[5] + loose.count[6] + loose.count[7] + loose.count[8];
  CHECK(loose.count[6] + loose.count[7] + loose.count[8] >= 180,
        "rtol 1e-4: orders 5-8 used %ld times, 6-8 %ld", high,
        loose.count[6] + loose.count[7] + loose.count[8]);
}

/* Least-squares slope of scd against -log10 rtol over rtol = 1e-5 .. 1e-9.  Measured 1.20 on
 * the car axis (1.12 with the Newton tolerance 0.08 at every rtol, 0.71 with 0.15 at every rtol,
 * 1.15 with the estimate from stored values); 0.93 with the tolerance factor f = 1 (no
 * proportionality). */
static void proportionality(void)
{
  double sx = 0.0, sy = 0.0, sxx = 0.0, sxy = 0.0;
  int n = 0;
  for (int e = 5; e <= 9; e++) {
    double scd = 0.0, mescd = 0.0;
    mbdae_stats st;
    if (run_as_test_set("caraxis", "mebdf", pow(10.0, -e), &scd, &mescd, &st) != 0) {
      return;
    }
    sx += e;
    sy += scd;
    sxx += (double)e * e;
    sxy += e * scd;
    n++;
  }
  double slope = (n * sxy - sx * sy) / (n * sxx - sx * sx);
  printf("caraxis: slope of scd against -log10 rtol %.2f\n", slope);
  CHECK(slope >= 1.0 && slope <= 1.35, "slope %.2f", slope);
}

/* The largest relative error of the crank's elastic coordinates q1..q4 (components 4-7) at tend. */
static double elastic_error(const char *solver)
{
  mbdae_problem *p = create_problem("crank");
  if (!p) {
    return INFINITY;
  }
  double y[SUPPORT_MAX_N], yref[SUPPORT_MAX_N];
  mbdae_options opt;
  test_options(p, 1e-8, &opt);
  mbdae_result r;
  int rc = mbdae_solve(p, solver, &opt, 1, y, NULL, &r);
  CHECK(rc == 0 && mbdae_problem_ref(p, yref) == 0, "crank %s: %s", solver, r.message);
  double worst = 0.0;
  for (int i = 3; i < 7; i++) {
    worst = fmax(worst, fabs(y[i] - yref[i]) / fabs(yref[i]));
  }
  mbdae_problem_destroy(p);
  return rc == 0 ? worst : INFINITY;
}

/* Measured at rtol 1e-8: mebdf 1.26e-6 (1.46e-6 with LSODE's step-size biases, 8.8e-7 with the
 * estimate from stored values), bdf 8.0e-6 (q4). */
static void crank_elastic_mode(void)
{
  double ours = elastic_error("mebdf"), theirs = elastic_error("bdf");
  printf("crank 1e-8: elastic coordinates' largest relative error mebdf %.2e, bdf %.2e\n", ours,
         theirs);
  CHECK(ours <= 1.5e-6, "mebdf: %.2e", ours);
  CHECK(theirs >= 4.0 * ours, "bdf %.2e is not behind mebdf %.2e", theirs, ours);
}

/* The stability-limited order (solvers/mebdf_stability.c): at rtol 1e-5 the crank's elastic
 * modes (h omega about 0.5) would be amplified by orders 5-6; measured 971 steps, scd 2.58 (without
 * the limit: 2064 steps, scd 1.68; with the estimate from stored values 815 against 3945; 1252
 * when the order raise with a smaller step, solvers/mebdf_control.c, did not ask the limit). */
static void crank_stability_limit(void)
{
  double scd = 0.0, mescd = 0.0;
  mbdae_stats st;
  CHECK(run_as_test_set("crank", "mebdf", 1e-5, &scd, &mescd, &st) == 0 && st.steps <= 1000 &&
            scd >= 2.5,
        "crank 1e-5: %ld steps, scd %.2f", st.steps, scd);
}

/* The state-space pendulum (an ODE) converges too. */
static void ode_form(void)
{
  double scd = 0.0, mescd = 0.0;
  mbdae_stats st;
  CHECK(run_as_test_set("pendulum:form=ssf", "mebdf", 1e-7, &scd, &mescd, &st) == 0 && scd >= 2.0,
        "pendulum:form=ssf 1e-7: scd %.2f", scd);
}

static void bench_against(void)
{
  char args[512];
  snprintf(args, sizeof args,
           "bench caraxis --solvers mebdf --repeat 1 --against %s/peer/testset.jsonl",
           MBDAE_REFSOL_DIR);
  expect(args, 0, "vs mebdfi  mescd");
}

int main(void)
{
  published_rows();
  order_selection();
  proportionality();
  crank_elastic_mode();
  crank_stability_limit();
  ode_form();
  bench_against();
  return check_summary("test_mebdf");
}
