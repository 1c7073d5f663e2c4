/* The table of formulations (problems/mech_forms.c) seen through the public API: for every form
 * of a model without accelerations as variables (pendulum, nq = 2, nc = 1) and of one with them
 * (andrews, nq = 7, nc = 6), the size, the index of each variable block and the multipliers'
 * names are those of the tables in mechanical.h and doc/design.md ("Formulations"), and the
 * crank's index=N names the forms index1, index2, index3. */
#include <stdio.h>
#include <string.h>

#include "check.h"
#include "mbdae/mbdae.h"

/* One form: the index of q, v, a, lambda and mu (a only with accelerations as variables; mu only
 * in ggl), as documented. */
typedef struct documented {
  const char *form;
  int index[5];
  int has_mu;
} documented;

static const documented FORMS[] = {
    {"index3", {1, 2, 3, 3, 0}, 0}, {"index2", {1, 1, 2, 2, 0}, 0},    {"ggl", {1, 1, 2, 2, 2}, 1},
    {"index1", {1, 1, 1, 1, 0}, 0}, {"baumgarte", {1, 1, 1, 1, 0}, 0},
};

/* The block (0 q, 1 v, 2 a, 3 lambda, 4 mu) of variable i. */
static int block_of(int i, int nq, int nc, int acc_vars)
{
  int blocks[] = {nq, nq, acc_vars ? nq : 0, nc, nc};
  for (int b = 0; b < 5; b++) {
    if (i < blocks[b]) {
      return b;
    }
    i -= blocks[b];
  }
  return -1;
}

static void check_form(const char *id, int nq, int nc, int acc_vars, const documented *d)
{
  char spec[64], msg[256];
  snprintf(spec, sizeof spec, "%s:form=%s", id, d->form);
  mbdae_problem *p = NULL;
  int rc = mbdae_problem_create(spec, &p, msg, sizeof msg);
  CHECK(rc == 0, "%s: %s", spec, msg);
  if (rc != 0) {
    return;
  }
  int n = mbdae_problem_neq(p), expected = (acc_vars ? 3 : 2) * nq + (d->has_mu ? 2 : 1) * nc;
  CHECK(n == expected, "%s: neq %d, expected %d", spec, n, expected);
  const int *index = mbdae_problem_index(p);
  for (int i = 0; i < n && n == expected; i++) {
    int b = block_of(i, nq, nc, acc_vars);
    CHECK(index[i] == d->index[b], "%s: variable %d (%s) index %d, expected %d", spec, i + 1,
          mbdae_problem_component(p, i), index[i], d->index[b]);
    if (b == 4) {
      char name[16];
      snprintf(name, sizeof name, "mu%d", i - (n - nc) + 1);
      CHECK(strcmp(mbdae_problem_component(p, i), name) == 0, "%s: variable %d named %s", spec,
            i + 1, mbdae_problem_component(p, i));
    }
  }
  mbdae_problem_destroy(p);
}

/* crank:index=N is crank:form=indexN, spelled index=N in the canonical spec. */
static void check_crank_index(int k)
{
  char spec[64], msg[256], expected[32];
  snprintf(spec, sizeof spec, "crank:index=%d", k);
  mbdae_problem *p = NULL;
  int rc = mbdae_problem_create(spec, &p, msg, sizeof msg);
  CHECK(rc == 0, "%s: %s", spec, msg);
  if (rc != 0) {
    return;
  }
  snprintf(expected, sizeof expected, "crank:index=%d,", k);
  CHECK(strncmp(mbdae_problem_spec(p), expected, strlen(expected)) == 0, "%s: spec %s", spec,
        mbdae_problem_spec(p));
  const int *index = mbdae_problem_index(p);
  int n = mbdae_problem_neq(p), top = 0;
  for (int i = 0; i < n; i++) {
    top = index[i] > top ? index[i] : top;
  }
  CHECK(top == k, "%s: highest index %d", spec, top);
  mbdae_problem_destroy(p);
}

int main(void)
{
  for (size_t f = 0; f < sizeof FORMS / sizeof FORMS[0]; f++) {
    check_form("pendulum", 2, 1, 0, &FORMS[f]);
    check_form("andrews", 7, 6, 1, &FORMS[f]);
  }
  for (int k = 1; k <= 3; k++) {
    check_crank_index(k);
  }
  return check_summary("test_form_table");
}
