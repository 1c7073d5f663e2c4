/* The check that a solver's run of a published row keeps its counters and the bits of y_1(tend),
 * shared by the pin tests (test_solver_pins: radau5, radau, bdf; test_mebdf_pins: mebdf).  Each
 * test keeps its own table; on a mismatch the message gives the run's values in the table's order
 * (steps, accepted, #f, #Jac, #LU, y1), ready to re-pin.  Include after check.h and support.h. */
#ifndef MBDAE_TEST_PINS_H
#define MBDAE_TEST_PINS_H

#include <stdio.h>

#include "check.h"
#include "mbdae/mbdae.h"
#include "support.h"

/* What a pinned run must give. */
typedef struct pinned_run {
  long steps, accepted, nres, njac, nlu;
  double y1; /* y_1(tend), shortest round-trip decimal */
} pinned_run;

/* solver on spec at rtol as the test set runs it (test_options): status 0, the five counters and
 * y_1(tend) exactly as pinned. */
static inline void check_pinned_run(const char *spec, const char *solver, double rtol,
                                    pinned_run want)
{
  mbdae_problem *p = create_problem(spec);
  if (!p) {
    return;
  }
  double y[SUPPORT_MAX_N];
  mbdae_result r;
  int rc = solve_as_test_set(p, solver, rtol, y, &r);
  const mbdae_stats *st = &r.stats;
  CHECK(rc == 0 && st->steps == want.steps && st->accepted == want.accepted &&
            st->nres == want.nres && st->njac == want.njac && st->nlu == want.nlu &&
            y[0] == want.y1,
        "%s %s rtol %g: status %d, got %ld, %ld, %ld, %ld, %ld, %.17g; pinned %ld, %ld, %ld, %ld, "
        "%ld, %.17g",
        solver, spec, rtol, rc, st->steps, st->accepted, st->nres, st->njac, st->nlu, y[0],
        want.steps, want.accepted, want.nres, want.njac, want.nlu, want.y1);
  mbdae_problem_destroy(p);
}

#endif /* MBDAE_TEST_PINS_H */
