/* The Jacobian and hidden-constraint checks can fail: every problem and every variant (all 24
 * slider-crank configurations) passes them unmutated at every check point, and every single-entry
 * mutation of dF/dy and dF/dy' is flagged, as is every mutation of one component of g' or g''.
 *
 * Mutations go through a test-only wrapper around the problem's functions (public API only):
 * - Jacobian: each entry that is nonzero at some check point, in turn, at every point, is
 *   (a) negated and (b) doubled.  The sign flip is the defect that went unnoticed (crank's
 *   dx[1][Q4]); doubling is a 100% change of the same size as zeroing (|J' - J| = |J|) but the
 *   harder of the two to see: relative to max(|J'|, |D|) it is an error of 1/2, zeroing one of 1.
 * - constraints: g'_k and g''_k, each in turn, negated and doubled.
 * A mutation counts as flagged when the check reports a mismatch at one check point at least.
 * Every form of caraxis, andrews and crank (index=1|2|3 and form=ggl|baumgarte) is included.
 * andrews:jac=approx is approximate by design: it must fail the check, and is not mutated.
 * Prints per problem and variant: nonzeros, and mutations flagged. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "support.h"

typedef struct mutant {
  const mbdae_problem *p;
  size_t n;
  int matrix; /* 0 dF/dy, 1 dF/dy', -1 none */
  size_t row, col;
  int level;     /* 1 g', 2 g'', 0 none */
  int index;     /* constrained component */
  double factor; /* -1 negates, 2 doubles */
} mutant;

static int mutant_res(void *ctx, double t, const double *y, const double *yp, double *res)
{
  const mutant *m = ctx;
  return mbdae_problem_res(m->p, t, y, yp, res);
}

static int mutant_jac(void *ctx, double t, const double *y, const double *yp, double *dfdy,
                      double *dfdyp)
{
  const mutant *m = ctx;
  int rc = mbdae_problem_jac(m->p, t, y, yp, dfdy, dfdyp);
  double *target = m->matrix == 0 ? dfdy : (m->matrix == 1 ? dfdyp : NULL);
  if (rc == 0 && target) {
    target[m->row + m->col * m->n] *= m->factor;
  }
  return rc;
}

static int mutant_constraints(void *ctx, double t, const double *y, const double *yp, double *gpos,
                              double *gvel, double *gacc)
{
  const mutant *m = ctx;
  int rc = mbdae_problem_constraints(m->p, t, y, yp, gpos, gvel, gacc);
  double *target = m->level == 1 ? gvel : (m->level == 2 ? gacc : NULL);
  if (rc == 0 && target) {
    target[m->index] *= m->factor;
  }
  return rc;
}

static void mutant_functions(mutant *m, mbdae_functions *f)
{
  mbdae_problem_functions(m->p, f);
  f->res = mutant_res;
  f->jac = mutant_jac;
  f->constraints = f->nconstraints > 0 ? mutant_constraints : NULL;
  f->ctx = m;
  /* the dense check path, whose matrices the mutations index (a banded problem's pattern path is
   * mutated in test_jaccheck_pattern, its values compared with these in test_chain_scale) */
  memset(&f->pattern, 0, sizeof f->pattern);
  f->jac_values = NULL;
}

/* 1 when the Jacobian check flags the mutation at some point. */
static int jac_flagged(const mbdae_functions *f, const mbdae_check_points *pts)
{
  size_t n = (size_t)f->neq;
  for (int k = 0; k < pts->npoints; k++) {
    mbdae_jac_check c = MBDAE_JAC_CHECK_INIT;
    int rc =
        mbdae_check_jac(f, pts->t[k], pts->y + k * n, pts->yp + k * n, pts->ytyp, pts->yptyp, &c);
    if (rc != 0 || !c.ok) {
      return 1;
    }
  }
  return 0;
}

static int con_flagged(const mbdae_functions *f, const mbdae_check_points *pts)
{
  size_t n = (size_t)f->neq;
  for (int k = 0; k < pts->npoints; k++) {
    mbdae_constraint_check c = MBDAE_CONSTRAINT_CHECK_INIT;
    int rc = mbdae_check_constraints(f, pts->t[k], pts->y + k * n, pts->yp + k * n, pts->ytyp, &c);
    if (rc != 0 || !c.ok) {
      return 1;
    }
  }
  return 0;
}

/* pattern[m n n + i + j n] = 1 where matrix m has a nonzero at some check point. */
static int nonzero_pattern(const mbdae_problem *p, const mbdae_check_points *pts, char *pattern)
{
  size_t n = (size_t)mbdae_problem_neq(p), nn = n * n;
  double *jac = malloc(sizeof(double) * 2 * nn);
  int count = 0;
  memset(pattern, 0, 2 * nn);
  for (int k = 0; jac && k < pts->npoints; k++) {
    CHECK(mbdae_problem_jac(p, pts->t[k], pts->y + k * n, pts->yp + k * n, jac, jac + nn) == 0,
          "jac");
    for (size_t e = 0; e < 2 * nn; e++) {
      if (jac[e] != 0.0 && !pattern[e]) {
        pattern[e] = 1;
        count++;
      }
    }
  }
  free(jac);
  return count;
}

/* Every single-entry mutation; returns how many were flagged (of 2 * nnz). */
static int mutate_jacobian(mutant *m, const mbdae_check_points *pts, const char *pattern,
                           const char *spec)
{
  static const double factors[2] = {-1.0, 2.0};
  mbdae_functions f;
  mutant_functions(m, &f);
  size_t nn = m->n * m->n;
  int flagged = 0;
  for (size_t e = 0; e < 2 * nn; e++) {
    if (!pattern[e]) {
      continue;
    }
    m->matrix = (int)(e / nn);
    m->row = (e % nn) % m->n;
    m->col = (e % nn) / m->n;
    for (int s = 0; s < 2; s++) {
      m->factor = factors[s];
      int hit = jac_flagged(&f, pts);
      flagged += hit;
      CHECK(hit, "%s: %s(%zu,%zu) times %g not flagged", spec, m->matrix ? "dF/dy'" : "dF/dy",
            m->row + 1, m->col + 1, m->factor);
    }
  }
  m->matrix = -1;
  return flagged;
}

static int mutate_constraints(mutant *m, const mbdae_check_points *pts, const char *spec)
{
  static const double factors[2] = {-1.0, 2.0};
  mbdae_functions f;
  mutant_functions(m, &f);
  int flagged = 0;
  for (m->level = 1; m->level <= 2; m->level++) {
    for (m->index = 0; m->index < f.nconstraints; m->index++) {
      for (int s = 0; s < 2; s++) {
        m->factor = factors[s];
        int hit = con_flagged(&f, pts);
        flagged += hit;
        CHECK(hit, "%s: g%s %d times %g not flagged", spec, m->level == 1 ? "'" : "''",
              m->index + 1, m->factor);
      }
    }
  }
  m->level = 0;
  return flagged;
}

/* The unmutated functions pass both checks at every point (the approximate Jacobian fails). */
static void check_unmutated(const mbdae_problem *p, const mbdae_check_points *pts, const char *spec,
                            int approximate)
{
  mbdae_functions f;
  mbdae_problem_functions(p, &f);
  mbdae_jac_check jc[MBDAE_CHECK_MAX_POINTS] = {MBDAE_JAC_CHECK_INIT};
  mbdae_constraint_check cc[MBDAE_CHECK_MAX_POINTS] = {MBDAE_CONSTRAINT_CHECK_INIT};
  CHECK(mbdae_check_all(&f, pts, jc, cc) == 0, "%s: check_all", spec);
  int failed = 0;
  for (int k = 0; k < pts->npoints; k++) {
    failed += !jc[k].ok;
    CHECK(jc[k].ok || approximate, "%s (%s): %s(%d,%d) J = %.6e, D = %.6e, err %.3e", spec,
          pts->label[k], jc[k].matrix ? "dF/dy'" : "dF/dy", jc[k].row + 1, jc[k].col + 1, jc[k].jac,
          jc[k].fd, jc[k].err);
    CHECK(cc[k].ok, "%s (%s): level %d constraint %d: %.6e vs %.6e, err %.3e", spec, pts->label[k],
          cc[k].level, cc[k].index + 1, cc[k].value, cc[k].fd, cc[k].err);
  }
  CHECK(!approximate || failed == pts->npoints, "%s: approximate Jacobian passes at %d points",
        spec, pts->npoints - failed);
}

static void check_spec(const char *spec)
{
  mbdae_problem *p = create_problem(spec);
  if (!p) {
    return;
  }
  mbdae_check_points pts = MBDAE_CHECK_POINTS_INIT;
  CHECK(mbdae_problem_check_points(p, &pts) == 0, "%s: check points", spec);
  int approximate = mbdae_problem_jac_approximate(p);
  check_unmutated(p, &pts, spec, approximate);
  mutant m = {.p = p, .n = (size_t)mbdae_problem_neq(p), .matrix = -1};
  char *pattern = malloc(2 * m.n * m.n);
  if (pattern && pts.y && !approximate) {
    int nnz = nonzero_pattern(p, &pts, pattern);
    int jac_hits = mutate_jacobian(&m, &pts, pattern, spec);
    int ncon = 4 * mbdae_problem_nconstraints(p);
    int con_hits = mutate_constraints(&m, &pts, spec);
    printf("%-48s %d points, %3d nonzeros: %3d of %3d Jacobian mutations flagged, %2d of %2d "
           "constraint mutations\n",
           spec, pts.npoints, nnz, jac_hits, 2 * nnz, con_hits, ncon);
  } else if (approximate) {
    printf("%-48s approximate by design: fails the check at every point, not mutated\n", spec);
  }
  free(pattern);
  mbdae_check_points_free(&pts);
  mbdae_problem_destroy(p);
}

/* Bad arguments are refused, never dereferenced (check_jac with y = NULL used to crash). */
static void check_bad_arguments(void)
{
  mbdae_problem *p = create_problem("pendulum");
  double y[5] = {1, 0, 0, 0, 0}, yp[5] = {0, 0, 0, 9.81, 0};
  mbdae_jac_check jc = MBDAE_JAC_CHECK_INIT;
  mbdae_constraint_check cc = MBDAE_CONSTRAINT_CHECK_INIT;
  mbdae_functions f;
  mbdae_problem_functions(p, &f);
  CHECK(mbdae_problem_check_jac(p, 0.0, NULL, yp, &jc) == MBDAE_ERR_ARG, "y = NULL");
  CHECK(mbdae_problem_check_jac(p, 0.0, y, NULL, &jc) == MBDAE_ERR_ARG, "yp = NULL");
  CHECK(mbdae_problem_check_jac(NULL, 0.0, y, yp, &jc) == MBDAE_ERR_ARG, "p = NULL");
  CHECK(mbdae_problem_check_jac(p, 0.0, y, yp, NULL) == MBDAE_ERR_ARG, "out = NULL");
  CHECK(mbdae_check_jac(NULL, 0.0, y, yp, NULL, NULL, &jc) == MBDAE_ERR_ARG, "f = NULL");
  CHECK(mbdae_check_constraints(&f, 0.0, NULL, yp, NULL, &cc) == MBDAE_ERR_ARG, "y = NULL");
  CHECK(mbdae_problem_check_points(NULL, NULL) == MBDAE_ERR_ARG, "points NULL");
  double rabs, rrel;
  CHECK(mbdae_problem_residual_size(p, 0.0, NULL, yp, &rabs, &rrel) == MBDAE_ERR_ARG, "y = NULL");
  CHECK(mbdae_problem_check_jac(p, 0.0, y, yp, &jc) == 0 && jc.ok, "pendulum at y0");
  mbdae_check_points_free(NULL);
  mbdae_problem_destroy(p);
}

int main(void)
{
  check_bad_arguments();
  static const char *const specs[] = {"caraxis",
                                      "caraxis:form=index2",
                                      "caraxis:form=ggl",
                                      "caraxis:form=index1",
                                      "caraxis:form=baumgarte,alpha=3,beta=5",
                                      "andrews",
                                      "andrews:jac=approx",
                                      "andrews:form=index2",
                                      "andrews:form=ggl",
                                      "andrews:form=index1",
                                      "andrews:form=baumgarte,alpha=3,beta=5",
                                      "andrews:form=ggl,jac=approx",
                                      "crank:form=ggl",
                                      "crank:form=baumgarte,alpha=3,beta=5",
                                      "crank:form=baumgarte,beam=nonlinear,damping=on,init=2",
                                      "pendulum",
                                      "pendulum:form=index2",
                                      "pendulum:form=ggl",
                                      "pendulum:form=index1",
                                      "pendulum:form=baumgarte,alpha=3,beta=5",
                                      "pendulum:form=ssf",
                                      "dpendulum",
                                      "dpendulum:form=index2",
                                      "dpendulum:form=ggl",
                                      "dpendulum:form=index1",
                                      "dpendulum:form=baumgarte",
                                      "dpendulum:form=ssf",
                                      "chain:n=3,m=1:2:.5,l=.5:1:1.5,theta=.3:1:2,omega=.5:0:-1",
                                      "chain:n=3,form=index2",
                                      "chain:n=3,form=ggl",
                                      "chain:n=3,form=index1",
                                      "chain:n=3,form=baumgarte",
                                      "chain:n=3,m=1:2:.5,l=.5:1:1.5,form=ssf",
                                      "fekete:n=3",
                                      "fekete:n=3,form=index3",
                                      "fekete:n=3,form=index1",
                                      "fekete:n=4,form=baumgarte,alpha=3,beta=5",
                                      "wheelset"};
  for (size_t k = 0; k < sizeof specs / sizeof specs[0]; k++) {
    check_spec(specs[k]);
  }
  static const char *const beam[] = {"linear", "nonlinear"}, *const damping[] = {"off", "on"};
  for (int index = 1; index <= 3; index++) {
    for (int b = 0; b < 2; b++) {
      for (int d = 0; d < 2; d++) {
        for (int init = 1; init <= 2; init++) {
          char spec[96];
          snprintf(spec, sizeof spec, "crank:index=%d,beam=%s,damping=%s,init=%d", index, beam[b],
                   damping[d], init);
          check_spec(spec);
        }
      }
    }
  }
  /* Every registered problem is covered above. */
  for (int i = 0; i < mbdae_problem_count(); i++) {
    const char *id = mbdae_problem_id(i);
    CHECK(strcmp(id, "crank") == 0 || strcmp(id, "caraxis") == 0 || strcmp(id, "andrews") == 0 ||
              strcmp(id, "pendulum") == 0 || strcmp(id, "dpendulum") == 0 ||
              strcmp(id, "chain") == 0 || strcmp(id, "fekete") == 0 || strcmp(id, "wheelset") == 0,
          "problem %s not covered", id);
  }
  return check_summary("test_jaccheck");
}
