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
    {"caraxis", 1e-04, 258, 254, 946, 40, 47, 0.049364813333271945},
    {"caraxis", 1e-07, 682, 682, 2695, 92, 97, 0.04934556575487404},
    {"caraxis", 1e-10, 2036, 2036, 7349, 94, 101, 0.04934557840376918},
    {"andrews", 1e-04, 103, 97, 540, 44, 52, 15.816858711751093},
    {"andrews", 1e-07, 270, 258, 1418, 105, 124, 15.810662566057838},
    {"andrews", 1e-10, 781, 758, 3791, 169, 221, 15.810771152289384},
    {"crank", 1e-04, 310, 291, 1064, 17, 59, 14.999999999999785},
    {"crank", 1e-06, 4075, 4020, 12935, 41, 105, 14.999999999997428},
    {"crank", 1e-08, 6692, 6692, 32396, 87, 94, 14.999999999935156},
    {"pendulum", 1e-04, 2400, 2333, 16093, 1333, 1413, 0.8184572932174915},
    {"pendulum", 1e-07, 6391, 6335, 33553, 2726, 2754, 0.1812342852118111},
    {"dpendulum", 1e-04, 391, 377, 2272, 219, 242, -0.6224680498464763},
    {"dpendulum", 1e-07, 1007, 981, 5415, 502, 525, -0.5380414390571812},
    {"dpendulum", 1e-10, 3026, 2981, 14201, 912, 976, -0.538347232400681},
    {"chain", 1e-04, 527, 495, 3055, 277, 316, 0.4851245708875383},
    {"chain", 1e-07, 1446, 1403, 7403, 663, 702, -0.0952274519047767},
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
