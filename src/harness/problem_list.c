/* The built-in problems (harness layer): their table, and the public list functions answered
 * from it (mbdae_problem_count, mbdae_problem_id, mbdae_problem_options, mbdae_problem_create).
 *
 * Each problem file in problems/ exports one descriptor, mbdae_problem_<name>; BUILTIN below
 * names each once, in the order `mbdae list` shows them, and both declares the descriptors and
 * fills the table from that one line.  The core parses specs and creates instances over the
 * table it is given (src/core/problem_catalog.h) and names no problem: adding a problem is its
 * file(s), one line here and its sources in CMakeLists.txt. */
#include <string.h>

#include "mbdae/mbdae.h"
#include "problem_catalog.h"

#define BUILTIN(X)                                                                                 \
  X(caraxis)                                                                                       \
  X(andrews)                                                                                       \
  X(crank)                                                                                         \
  X(pendulum)                                                                                      \
  X(dpendulum)                                                                                     \
  X(chain)                                                                                         \
  X(fekete)                                                                                        \
  X(wheelset)

#define DECLARE(name) extern const problem_type mbdae_problem_##name;
#define ENTRY(name) &mbdae_problem_##name,
BUILTIN(DECLARE)
static const problem_type *const types[] = {BUILTIN(ENTRY)};
static const problem_catalog builtin = {types, (int)(sizeof types / sizeof types[0])};

int mbdae_problem_count(void) { return builtin.count; }

const char *mbdae_problem_id(int i)
{
  return (i >= 0 && i < builtin.count) ? builtin.types[i]->id : NULL;
}

const char *mbdae_problem_options(const char *id)
{
  const problem_type *type = id ? mbdae_catalog_find(&builtin, id, strlen(id)) : NULL;
  return type ? type->options_help : NULL;
}

int mbdae_problem_create(const char *spec, mbdae_problem **out, char *msg, size_t msglen)
{
  return mbdae_catalog_create(&builtin, spec, out, msg, msglen);
}
