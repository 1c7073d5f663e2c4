/* test_mebdf_pins: the mebdf solver on the published rows (every problem's table tolerances, run
 * as the test set runs them: `mbdae table all --solver mebdf`) keeps its counters and the bits of
 * y_1(tend).  A change to the solver's formulas, history, Newton iteration or step control moves
 * some of these; such a change must say so and re-pin (the figures of doc/benchmarks.md's mebdf
 * table come from these runs).  Re-pinned 2026-11-27 for the Jacobian renewal by cost
 * (solvers/mebdf_renew.c): the pendulum and double pendulum rows moved, the others kept. */
#include "check.h"
#include "pins.h"
#include "support.h"

typedef struct pin {
  const char *spec;
  double rtol;
  long steps, accepted, nres, njac, nlu;
  double y1; /* y_1(tend), shortest round-trip decimal */
} pin;

static const pin PINS[] = {
    {"caraxis", 1e-04, 231, 230, 946, 56, 62, 0.04933863775127614},
    {"caraxis", 1e-07, 682, 682, 2695, 92, 97, 0.04934556575487404},
    {"caraxis", 1e-10, 2036, 2036, 7349, 94, 101, 0.04934557840376918},
    {"andrews", 1e-04, 108, 102, 561, 50, 60, 15.962615913334174},
    {"andrews", 1e-07, 264, 258, 1428, 117, 128, 15.811035593389652},
    {"andrews", 1e-10, 781, 758, 3791, 169, 221, 15.810771152289384},
    {"crank", 1e-04, 307, 292, 1043, 15, 54, 14.999999999999726},
    {"crank", 1e-06, 3471, 3461, 10826, 34, 47, 14.999999999964992},
    {"crank", 1e-08, 6692, 6692, 32396, 87, 94, 14.999999999935156},
    {"pendulum", 1e-04, 2025, 2011, 9806, 1690, 1715, -0.04495188137419468},
    {"pendulum", 1e-07, 6115, 6082, 28831, 3382, 3404, 0.18185312203407877},
    {"dpendulum", 1e-04, 418, 402, 2187, 232, 261, -0.47719008902479015},
    {"dpendulum", 1e-07, 1022, 997, 5399, 504, 532, -0.538169529842971},
    {"dpendulum", 1e-10, 3049, 3002, 14240, 905, 973, -0.5383472014685884},
    {"chain", 1e-04, 521, 493, 2967, 279, 318, 0.401945329233635},
    {"chain", 1e-07, 1398, 1359, 7256, 656, 690, -0.08770743150398694},
};

static void check_pin(const pin *k)
{
  check_pinned_run(k->spec, "mebdf", k->rtol,
                   (pinned_run){k->steps, k->accepted, k->nres, k->njac, k->nlu, k->y1});
}

int main(void)
{
  for (size_t i = 0; i < sizeof PINS / sizeof PINS[0]; i++) {
    check_pin(&PINS[i]);
  }
  return check_summary("test_mebdf_pins");
}
