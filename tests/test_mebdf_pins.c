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
    {"caraxis", 1e-04, 223, 219, 1483, 63, 71, 0.049349943208620441},
    {"caraxis", 1e-07, 607, 605, 4056, 96, 103, 0.049345574668101022},
    {"caraxis", 1e-10, 1714, 1708, 11465, 113, 131, 0.049345578424260433},
    {"andrews", 1e-04, 118, 110, 731, 66, 76, 15.894397860206855},
    {"andrews", 1e-07, 302, 276, 1809, 117, 153, 15.810724603671789},
    {"andrews", 1e-10, 702, 674, 4004, 194, 230, 15.810771191924008},
    {"crank", 1e-04, 280, 245, 1384, 28, 81, 14.999999999999901},
    {"crank", 1e-06, 3216, 3161, 19390, 101, 162, 14.999999999993737},
    {"crank", 1e-08, 6408, 6296, 38422, 130, 261, 14.999999999936506},
    {"pendulum", 1e-04, 3499, 3327, 23646, 2285, 2519, 0.99914778855937858},
    {"pendulum", 1e-07, 6150, 5907, 48843, 3511, 3821, 0.17592928139603881},
    {"dpendulum", 1e-04, 537, 505, 3468, 336, 377, -0.27555790063414981},
    {"dpendulum", 1e-07, 949, 892, 7165, 547, 623, -0.53737490937553112},
    {"dpendulum", 1e-10, 3343, 3060, 20375, 986, 1306, -0.53834630931112715},
    {"chain", 1e-04, 643, 604, 4279, 414, 457, 0.87095340221526529},
    {"chain", 1e-07, 1230, 1154, 9272, 724, 821, -0.08758595640902675},
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
