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
    {"caraxis", 1e-04, 232, 231, 978, 55, 59, 0.049338482936122412},
    {"caraxis", 1e-07, 682, 682, 2695, 92, 97, 0.049345565754874039},
    {"caraxis", 1e-10, 2036, 2036, 7349, 94, 101, 0.049345578403769179},
    {"andrews", 1e-04, 104, 95, 584, 57, 65, 15.863201615266261},
    {"andrews", 1e-07, 270, 258, 1418, 105, 124, 15.810662566057838},
    {"andrews", 1e-10, 781, 758, 3791, 169, 221, 15.810771152289384},
    {"crank", 1e-04, 321, 297, 1150, 20, 67, 14.999999999999739},
    {"crank", 1e-06, 3313, 3313, 10695, 41, 43, 14.999999999967915},
    {"crank", 1e-08, 6692, 6692, 32396, 87, 94, 14.999999999935156},
    {"pendulum", 1e-04, 2704, 2648, 17964, 1554, 1647, 0.91226923442070584},
    {"pendulum", 1e-07, 6391, 6335, 33553, 2726, 2754, 0.18123428521181109},
    {"dpendulum", 1e-04, 395, 381, 2503, 233, 260, -0.65928065215831699},
    {"dpendulum", 1e-07, 1007, 981, 5415, 502, 525, -0.53804143905718116},
    {"dpendulum", 1e-10, 3026, 2981, 14201, 912, 976, -0.53834723240068105},
    {"chain", 1e-04, 538, 511, 3254, 291, 329, 0.96220099452667973},
    {"chain", 1e-07, 1446, 1403, 7403, 663, 702, -0.095227451904776703},
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
