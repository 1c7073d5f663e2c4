/* A table of problem descriptors, given to the core by the layer that lists them (private to the
 * library).
 *
 * The core parses a spec ("id" or "id:key=value,...") and creates the instance over a table it is
 * handed; it names no problem itself.  The built-in table is the harness's
 * (src/harness/problem_list.c), which also answers the public list functions
 * (mbdae_problem_count, mbdae_problem_id, mbdae_problem_options, mbdae_problem_create) by passing
 * it here.  So the core compiles and links without any problem, and adding a problem touches its
 * own file(s), one line of that list and CMake.  (The other way, a table the core declares and a
 * layer above defines, would leave the core with an undefined symbol only the layer above fills:
 * the upward dependency this removes.) */
#ifndef MBDAE_PROBLEM_CATALOG_H
#define MBDAE_PROBLEM_CATALOG_H

#include <stddef.h>

#include "mbdae/mbdae.h"
#include "problem_type.h"

typedef struct problem_catalog {
  const problem_type *const *types; /* the descriptors, in the order the list shows them */
  int count;                        /* entries of types */
} problem_catalog;

/* The descriptor whose id is the first len characters of id; NULL when none is. */
const problem_type *mbdae_catalog_find(const problem_catalog *catalog, const char *id, size_t len);
/* mbdae_problem_create (mbdae/problem.h) over the problems of catalog. */
int mbdae_catalog_create(const problem_catalog *catalog, const char *spec, mbdae_problem **out,
                         char *msg, size_t msglen);

#endif /* MBDAE_PROBLEM_CATALOG_H */
