/* The core's spec parsing over the table it is given (src/core/problem_catalog.h): with a table of
 * two problems, only those two are found and created, an unknown id is refused naming exactly
 * the table's ids, and the instance is the one the public list (src/harness/problem_list.c, the
 * built-in table) creates from the same spec.  The core names no problem of its own, so an id
 * outside the table is unknown to it even when the library has it built in.  Linked with the
 * objects of the core and the problems (mbdae_core, mbdae_problems), where these functions are
 * not hidden. */
#include <string.h>

#include "check.h"
#include "mbdae/mbdae.h"
#include "problem_catalog.h"

extern const problem_type mbdae_problem_pendulum, mbdae_problem_chain;

static const problem_type *const two[] = {&mbdae_problem_chain, &mbdae_problem_pendulum};
static const problem_catalog catalog = {two, 2};

static void check_found(void)
{
  CHECK(mbdae_catalog_find(&catalog, "pendulum", 8) == &mbdae_problem_pendulum, "pendulum");
  CHECK(mbdae_catalog_find(&catalog, "chain:n=2", 5) == &mbdae_problem_chain, "chain by prefix");
  CHECK(mbdae_catalog_find(&catalog, "pendulu", 7) == NULL, "a prefix of an id is not the id");
  CHECK(mbdae_catalog_find(&catalog, "caraxis", 7) == NULL, "caraxis is not in the table");
}

static void check_created(void)
{
  char msg[256];
  mbdae_problem *p = NULL, *q = NULL;
  int rc = mbdae_catalog_create(&catalog, "chain:n=2", &p, msg, sizeof msg);
  CHECK(rc == 0 && p, "chain:n=2: %s", msg);
  rc = mbdae_problem_create("chain:n=2", &q, msg, sizeof msg);
  CHECK(rc == 0 && q, "the built-in chain:n=2: %s", msg);
  if (p && q) {
    CHECK(strcmp(mbdae_problem_spec(p), mbdae_problem_spec(q)) == 0, "%s against %s",
          mbdae_problem_spec(p), mbdae_problem_spec(q));
    CHECK(mbdae_problem_neq(p) == mbdae_problem_neq(q), "neq %d against %d", mbdae_problem_neq(p),
          mbdae_problem_neq(q));
  }
  mbdae_problem_destroy(p);
  mbdae_problem_destroy(q);
}

static void check_refused(void)
{
  char msg[256];
  mbdae_problem *p = NULL;
  int rc = mbdae_catalog_create(&catalog, "caraxis", &p, msg, sizeof msg);
  CHECK(rc == MBDAE_ERR_SPEC && p == NULL, "caraxis outside the table: rc %d", rc);
  CHECK(strstr(msg, "unknown problem 'caraxis'; valid problems: chain, pendulum") != NULL,
        "message '%s'", msg);
  rc = mbdae_catalog_create(&catalog, "", &p, msg, sizeof msg);
  CHECK(rc == MBDAE_ERR_SPEC && strstr(msg, "valid problems: chain, pendulum") != NULL,
        "empty spec: rc %d, '%s'", rc, msg);
}

int main(void)
{
  check_found();
  check_created();
  check_refused();
  return check_summary("test_problem_catalog");
}
