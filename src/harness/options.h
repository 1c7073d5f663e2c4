/* Private to the library (harness): the options a caller passed, taken up to their size
 * (include/mbdae/solve.h says how mbdae_options grows).  Defined in src/harness/solve.c. */
#ifndef MBDAE_OPTIONS_H
#define MBDAE_OPTIONS_H

#include "mbdae/mbdae.h"

/* The options a caller passed, checked and completed into full (the library's own struct, size
 * sizeof(mbdae_options)): the first opt->size bytes, every field beyond them at its default.
 * NULL, or why opt->size is refused (0, below the first sized struct, above the library's). */
const char *mbdae_options_take(const mbdae_options *opt, mbdae_options *full);

#endif /* MBDAE_OPTIONS_H */
