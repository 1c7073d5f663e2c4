/* test_mebdf_pins: the mebdf solver on the published rows (every problem's table tolerances, run
 * as the test set runs them: `mbdae table all --solver mebdf`) keeps its counters and the bits of
 * y_1(tend).  A change to the solver's formulas, history, Newton iteration or step control moves
 * some of these; such a change must say so and re-pin (the figures of the README's mebdf table
 * come from these runs). */
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
    {"caraxis", 1e-04, 287, 268, 1165, 49, 74, 0.049355357391981762},
    {"caraxis", 1e-07, 676, 661, 3131, 121, 140, 0.049345566255370309},
    {"caraxis", 1e-10, 1940, 1901, 9108, 158, 216, 0.049345578409011021},
    {"andrews", 1e-04, 109, 102, 582, 53, 64, 15.837370787837699},
    {"andrews", 1e-07, 248, 227, 1490, 122, 139, 15.810770672856798},
    {"andrews", 1e-10, 718, 680, 3847, 183, 234, 15.810771042289511},
    {"crank", 1e-04, 308, 270, 1198, 30, 89, 14.999999999999778},
    {"crank", 1e-06, 3026, 3013, 15378, 91, 111, 14.999999999994253},
    {"crank", 1e-08, 6368, 6317, 32823, 130, 195, 14.999999999933326},
    {"pendulum", 1e-04, 2856, 2756, 18675, 1645, 1789, 0.64532103080729764},
    {"pendulum", 1e-07, 6776, 6532, 37379, 3090, 3280, 0.18022655634474954},
    {"dpendulum", 1e-04, 405, 383, 2674, 243, 270, -0.1237173263606559},
    {"dpendulum", 1e-07, 967, 914, 5657, 556, 584, -0.53837485642167382},
    {"dpendulum", 1e-10, 2708, 2640, 14202, 944, 997, -0.53834722650860189},
    {"chain", 1e-04, 518, 483, 3347, 300, 344, 0.89756724911807795},
    {"chain", 1e-07, 1407, 1325, 7764, 724, 785, -0.095667382973357709},
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
