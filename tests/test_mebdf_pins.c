/* test_mebdf_pins: the mebdf solver on the published rows (every problem's table tolerances, run
 * as the test set runs them: `mbdae table all --solver mebdf`) keeps its counters and the bits of
 * y_1(tend).  A change to the solver's formulas, history, Newton iteration or step control moves
 * some of these; such a change must say so and re-pin (the figures of the README's mebdf table
 * come from these runs). */
#include <stdio.h>
#include <string.h>

#include "check.h"
#include "mbdae/mbdae.h"
#include "support.h"

typedef struct pin {
  const char *spec;
  double rtol;
  long steps, accepted, nres, njac, nlu;
  double y1; /* y_1(tend), shortest round-trip decimal */
} pin;

static const pin PINS[] = {
    {"caraxis", 1e-04, 240, 239, 946, 49, 53, 0.049347485182390252},
    {"caraxis", 1e-07, 686, 685, 2709, 90, 96, 0.049345565498595249},
    {"caraxis", 1e-10, 2016, 2016, 7248, 90, 97, 0.049345578398445659},
    {"andrews", 1e-04, 103, 97, 565, 52, 60, 15.894804513560286},
    {"andrews", 1e-07, 290, 280, 1496, 110, 119, 15.810621458977323},
    {"andrews", 1e-10, 769, 748, 3813, 180, 217, 15.810770084044622},
    {"crank", 1e-04, 315, 289, 1143, 21, 77, 14.999999999999815},
    {"crank", 1e-06, 3269, 3268, 12979, 67, 72, 14.999999999994069},
    {"crank", 1e-08, 6530, 6530, 31650, 87, 93, 14.999999999934481},
    {"pendulum", 1e-04, 2571, 2522, 17587, 1525, 1618, 0.26147774736546503},
    {"pendulum", 1e-07, 6279, 6219, 32851, 2684, 2718, 0.18174247138740468},
    {"dpendulum", 1e-04, 407, 394, 2530, 232, 256, -0.36891392093410347},
    {"dpendulum", 1e-07, 1050, 1017, 5558, 498, 535, -0.53811633598091813},
    {"dpendulum", 1e-10, 2927, 2893, 13656, 887, 931, -0.53834725695056929},
    {"chain", 1e-04, 529, 499, 3132, 275, 315, 0.99999987818944991},
    {"chain", 1e-07, 1449, 1403, 7437, 662, 708, -0.093151177413036884},
};

static void check_pin(const pin *k)
{
  mbdae_problem *p = create_problem(k->spec);
  if (!p) {
    return;
  }
  double y[SUPPORT_MAX_N];
  mbdae_options opt;
  test_options(p, k->rtol, &opt);
  mbdae_result r;
  int rc = mbdae_solve(p, "mebdf", &opt, 1, y, NULL, &r);
  const mbdae_stats *st = &r.stats;
  CHECK(rc == 0 && st->steps == k->steps && st->accepted == k->accepted && st->nres == k->nres &&
            st->njac == k->njac && st->nlu == k->nlu && y[0] == k->y1,
        "mebdf %s rtol %g: status %d, pin {\"%s\", %.0e, %ld, %ld, %ld, %ld, %ld, %.17g}; "
        "pinned %ld %ld %ld %ld %ld %.17g",
        k->spec, k->rtol, rc, k->spec, k->rtol, st->steps, st->accepted, st->nres, st->njac,
        st->nlu, y[0], k->steps, k->accepted, k->nres, k->njac, k->nlu, k->y1);
  mbdae_problem_destroy(p);
}

int main(void)
{
  for (size_t i = 0; i < sizeof PINS / sizeof PINS[0]; i++) {
    check_pin(&PINS[i]);
  }
  return check_summary("test_mebdf_pins");
}
