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
    {"caraxis", 1e-04, 258, 249, 1615, 62, 76, 0.049346331556892817},
    {"caraxis", 1e-07, 564, 562, 3885, 106, 113, 0.049345569190615314},
    {"caraxis", 1e-10, 1728, 1722, 11853, 113, 130, 0.049345578423187299},
    {"andrews", 1e-04, 119, 111, 702, 68, 75, 15.910695479915118},
    {"andrews", 1e-07, 297, 276, 1941, 145, 168, 15.810836059123092},
    {"andrews", 1e-10, 708, 680, 4380, 209, 245, 15.810771185922421},
    {"crank", 1e-04, 301, 258, 1734, 43, 102, 14.999999999999829},
    {"crank", 1e-06, 3522, 3419, 22401, 100, 304, 14.99999999999493},
    {"crank", 1e-08, 6344, 6281, 41155, 133, 214, 14.999999999937256},
    {"pendulum", 1e-04, 4253, 4001, 24395, 2422, 2724, 0.60086568490107795},
    {"pendulum", 1e-07, 7907, 7206, 54713, 4759, 5463, 0.18124138915337706},
    {"dpendulum", 1e-04, 530, 499, 3371, 345, 380, -0.58916668218252222},
    {"dpendulum", 1e-07, 1160, 1094, 8034, 768, 831, -0.53814327547990592},
    {"dpendulum", 1e-10, 3328, 3016, 23280, 1042, 1365, -0.53834720222129628},
    {"chain", 1e-04, 690, 645, 4239, 435, 498, 0.068326780134289833},
    {"chain", 1e-07, 1427, 1364, 10099, 1013, 1073, -0.090330936725508668},
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
