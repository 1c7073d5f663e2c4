/* Problem specs: the registry, canonical specs, and every kind of bad spec, whose message must
 * name the valid choices. */
#include <string.h>

#include "check.h"
#include "mbdae/mbdae.h"

static void expect_bad(const char *spec, const char *must_mention)
{
  mbdae_problem *p = (mbdae_problem *)&p; /* must be reset to NULL */
  char msg[512] = "";
  int rc = mbdae_problem_create(spec, &p, msg, sizeof msg);
  CHECK(rc == MBDAE_ERR_SPEC, "'%s' gave %d", spec, rc);
  CHECK(p == NULL, "'%s': out must be NULL on failure", spec);
  CHECK(strstr(msg, must_mention) != NULL, "'%s': message '%s' should mention '%s'", spec, msg,
        must_mention);
}

static void expect_spec(const char *spec, const char *canonical)
{
  mbdae_problem *p = NULL;
  char msg[256] = "";
  CHECK(mbdae_problem_create(spec, &p, msg, sizeof msg) == 0, "'%s': %s", spec, msg);
  if (p) {
    CHECK(strcmp(mbdae_problem_spec(p), canonical) == 0, "'%s' -> '%s', expected '%s'", spec,
          mbdae_problem_spec(p), canonical);
    mbdae_problem_destroy(p);
  }
}

int main(void)
{
  static const char *const ids[] = {"caraxis",   "andrews", "crank",  "pendulum",
                                    "dpendulum", "chain",   "fekete", "wheelset"};
  static const int neq[] = {10, 27, 24, 5, 10, 15, 160, 17};
  CHECK(mbdae_problem_count() == 8, "eight problems");
  for (int i = 0; i < 8; i++) {
    CHECK(mbdae_problem_id(i) && strcmp(mbdae_problem_id(i), ids[i]) == 0, "id %d", i);
    mbdae_problem *p = NULL;
    CHECK(mbdae_problem_create(ids[i], &p, NULL, 0) == 0, "%s", ids[i]);
    CHECK(mbdae_problem_neq(p) == neq[i], "%s: n = %d", ids[i], mbdae_problem_neq(p));
    CHECK(strcmp(mbdae_problem_name(p), ids[i]) == 0, "name");
    CHECK(mbdae_problem_tend(p) > mbdae_problem_t0(p), "interval");
    mbdae_problem_destroy(p);
  }
  CHECK(mbdae_problem_id(-1) == NULL && mbdae_problem_id(8) == NULL, "out of range ids");
  mbdae_problem_destroy(NULL);

  expect_spec("crank", "crank:index=2,beam=linear,damping=off,init=1");
  expect_spec("crank:index=3,init=2", "crank:index=3,beam=linear,damping=off,init=2");
  expect_spec("andrews", "andrews:form=index3,jac=exact");
  expect_spec("chain:form=ssf,m=2:1:0.3,n=3",
              "chain:n=3,m=2:1:0.3,l=1,theta=1.5707963267948966,omega=0,tend=10,form=ssf");
  expect_spec("pendulum", "pendulum:form=index3");

  expect_bad("", "caraxis, andrews, crank, pendulum, dpendulum");
  expect_bad("car", "caraxis, andrews, crank, pendulum, dpendulum");
  expect_bad("crank:foo=1", "index=1|2|3");
  expect_bad("crank:index=4", "index=1|2|3");
  expect_bad("crank:index=", "index=1|2|3");
  expect_bad("crank:index", "key=value");
  expect_bad("crank:beam=curved", "linear|nonlinear");
  expect_bad("andrews:jac=fd", "exact|approx");
  expect_bad("pendulum:g=1", "form=index3|index2");
  /* Nothing the user did not write: an empty list or item, a key without value or a value
   * without key, a repeated key (where the last would silently win). */
  expect_bad("crank:", "index=1|2|3");
  expect_bad("crank:,,index=3", "index=1|2|3");
  expect_bad("crank:index=3,", "index=1|2|3");
  expect_bad("crank:index=1,index=3", "index=1|2|3");
  expect_bad("crank:index=1,index=3", "twice");
  expect_bad("crank:index=1,beam=linear,index=1", "twice");
  expect_bad("crank:=3", "index=1|2|3");
  expect_bad("andrews:", "exact|approx");
  expect_bad("pendulum:", "form=index3|index2");
  expect_spec("crank:init=2,index=3", "crank:index=3,beam=linear,damping=off,init=2");

  CHECK(strcmp(mbdae_strerror(MBDAE_ERR_NOREF), mbdae_strerror(MBDAE_ERR_SPEC)) != 0, "texts");
  CHECK(strcmp(mbdae_strerror(12345), "unknown error code") == 0, "unknown code");
  return check_summary("test_spec");
}
