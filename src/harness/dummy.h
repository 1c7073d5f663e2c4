/* Private to the library: whether an instance is in form=dummy (src/harness/dummy.c), for the
 * record runner, which sends such a run through mbdae_solve_dummy. */
#ifndef MBDAE_DUMMY_H
#define MBDAE_DUMMY_H

#include "mbdae/mbdae.h"

/* 1 when p is a form=dummy instance (it has a state selection; a user's problem has none). */
int dummy_form(const mbdae_problem *p);

#endif /* MBDAE_DUMMY_H */
