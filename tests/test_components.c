/* Component names (mbdae_problem_component): every problem names each of its components, once,
 * with characters safe for CSV, JSON and gnuplot; the names follow the sources (spot checks at
 * positions the problem files document); out of range is NULL. */
#include <string.h>

#include "support.h"

static void names_of(const char *spec)
{
  mbdae_problem *p = create_problem(spec);
  if (!p) {
    return;
  }
  int n = mbdae_problem_neq(p);
  for (int i = 0; i < n; i++) {
    const char *a = mbdae_problem_component(p, i);
    CHECK(a && a[0] &&
              strspn(a, "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_") ==
                  strlen(a),
          "%s component %d has a plain name (%s)", spec, i, a ? a : "NULL");
    for (int j = 0; a && j < i; j++) {
      CHECK(strcmp(a, mbdae_problem_component(p, j)) != 0, "%s: '%s' named twice", spec, a);
    }
  }
  CHECK(mbdae_problem_component(p, n) == NULL && mbdae_problem_component(p, -1) == NULL,
        "%s: out of range is NULL", spec);
  mbdae_problem_destroy(p);
}

static void spot(const char *spec, int i, const char *name)
{
  mbdae_problem *p = create_problem(spec);
  if (p) {
    const char *got = mbdae_problem_component(p, i);
    CHECK(got && strcmp(got, name) == 0, "%s component %d is %s (got %s)", spec, i, name,
          got ? got : "NULL");
    mbdae_problem_destroy(p);
  }
}

int main(void)
{
  for (int k = 0; k < mbdae_problem_count(); k++) {
    names_of(mbdae_problem_id(k));
  }
  names_of("crank:index=3");
  names_of("dpendulum:form=ggl");
  names_of("dpendulum:form=ssf");
  names_of("caraxis:form=ggl");
  names_of("andrews:form=ggl");
  names_of("crank:form=ggl");
  spot("caraxis", 0, "x_l");
  spot("caraxis", 9, "lambda2");
  spot("andrews", 0, "beta");
  spot("andrews", 21, "lambda1");
  spot("crank", 19, "a_q3"); /* y20 in the test set's numbering */
  spot("crank:index=1", 23, "lambda3");
  spot("pendulum", 4, "F");
  spot("dpendulum", 4, "vx1");
  spot("dpendulum", 9, "F2");
  /* The variables a form shares with index 3 keep their names; GGL adds mu, ssf has angles. */
  spot("dpendulum:form=index1", 9, "F2");
  spot("dpendulum:form=ggl", 9, "F2");
  spot("dpendulum:form=ggl", 10, "mu1");
  spot("pendulum:form=ssf", 0, "phi");
  spot("dpendulum:form=ssf", 3, "eta2");
  spot("caraxis:form=index1", 9, "lambda2");
  spot("caraxis:form=ggl", 11, "mu2");
  spot("andrews:form=index2", 14, "a_beta"); /* the accelerations stay variables */
  spot("andrews:form=ggl", 26, "lambda6");
  spot("andrews:form=ggl", 27, "mu1");
  spot("crank:form=baumgarte", 19, "a_q3");
  spot("crank:form=ggl", 26, "mu3");
  return check_summary("test_components");
}
