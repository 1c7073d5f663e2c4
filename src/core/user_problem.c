/* A user's own problem (mbdae_problem_from_type): validation of the user's descriptor, and the
 * callbacks that adapt its (ctx, ...) functions to the library's problem interface.
 *
 * Without a user Jacobian, dF/dy and dF/dy' are forward differences, column j with the step
 * h_j = sqrt(eps) max(|v_j|, 1) for v = y or y' (Dennis & Schnabel, Numerical Methods for
 * Unconstrained Optimization, 5.4: the step balances truncation, O(h), against rounding,
 * O(eps/h)); the differenced point is restored exactly.  One call costs 2 neq + 1 residuals,
 * which the solvers count in stats.nres_fd (mbdae_problem_jac_nres).  A problem that states its
 * pattern (jac_colptr, jac_rowind) without Jacobian values is differenced over groups of columns
 * that share no row (src/core/jac_pattern.h), all of a group's columns stepped at once: 2 ngroups
 * + 1 residuals a call, independent of neq for a banded pattern.  Workspace is allocated
 * per call: the instance is immutable and may be used from several threads at once. */
#include <float.h>
#include <math.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "jac_pattern.h"
#include "problem_type.h"

static int id_is_valid(const char *id)
{
  size_t len = id ? strlen(id) : 0;
  if (len == 0 || len > 63) {
    return 0;
  }
  for (size_t i = 0; i < len; i++) {
    char c = id[i];
    if (!((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_')) {
      return 0;
    }
  }
  return 1;
}

static int name_is_valid(const char *name)
{
  static const char chars[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_";
  size_t len = name ? strlen(name) : 0;
  return len > 0 && len <= 63 && strspn(name, chars) == len;
}

static const char *arrays_invalid(const mbdae_problem_type *t)
{
  for (int i = 0; i < t->neq; i++) {
    if (t->names && !name_is_valid(t->names[i])) {
      return "names must be 1 to 63 characters from [A-Za-z0-9_]";
    }
    if (t->index[i] < 0 || t->index[i] > 3) {
      return "index entries must lie in 0..3";
    }
    if (t->in_scd && t->in_scd[i] != 0 && t->in_scd[i] != 1) {
      return "in_scd entries must be 0 or 1";
    }
  }
  return NULL;
}

static const char *pattern_invalid(const mbdae_problem_type *t)
{
  if (!t->jac_colptr != !t->jac_rowind) {
    return "jac_colptr and jac_rowind go together (both NULL or both set)";
  }
  if (!t->jac_colptr) {
    return t->jac_kind || t->jac_values ? "jac_kind and jac_values need a pattern (jac_colptr, "
                                          "jac_rowind)"
                                        : NULL;
  }
  if (t->jac_kind != MBDAE_JAC_AUTO && t->jac_kind != MBDAE_JAC_BAND &&
      t->jac_kind != MBDAE_JAC_SPARSE) {
    return "jac_kind must be MBDAE_JAC_AUTO, MBDAE_JAC_BAND or MBDAE_JAC_SPARSE";
  }
  char buf[8];
  return mbdae_pattern_invalid(t->neq, t->jac_colptr, t->jac_rowind, buf, sizeof buf)
             ? "jac_colptr, jac_rowind are not a compressed-column pattern (colptr[0] = 0, "
               "non-decreasing; rows in 0..neq-1, strictly increasing within each column)"
             : NULL;
}

const char *mbdae_user_problem_invalid(const mbdae_problem_type *t)
{
  if (!t) {
    return "the problem type is NULL";
  }
  if (t->size == 0) {
    return "size is 0: set .size = sizeof(mbdae_problem_type) (first field since plug-in ABI 3)";
  }
  /* The first mbdae_problem_type with a size ends with jac_values: every field read here and by
   * the instance is covered.  A field appended later is read only where size covers it. */
  if (t->size < offsetof(mbdae_problem_type, jac_values) + sizeof t->jac_values) {
    return "size is smaller than any mbdae_problem_type this library knows";
  }
  if (t->size > sizeof *t) {
    return "size is larger than this library's mbdae_problem_type: built against a newer mbdae.h";
  }
  if (!id_is_valid(t->id)) {
    return "id must be 1 to 63 characters from [a-z0-9_]";
  }
  if (!t->title) {
    return "title is NULL";
  }
  if (t->neq < 1) {
    return "neq must be >= 1";
  }
  if (!isfinite(t->t0) || !isfinite(t->tend) || !(t->t0 < t->tend)) {
    return "t0 and tend must be finite with t0 < tend";
  }
  if (!t->index || !t->init || !t->res) {
    return "index, init and res are required";
  }
  if ((t->ref == NULL) != (t->ref_source == NULL)) {
    return "ref and ref_source go together (both NULL or both set)";
  }
  return arrays_invalid(t) ? arrays_invalid(t) : pattern_invalid(t);
}

static int user_init(const void *params, double *y0, double *yp0)
{
  const user_binding *b = params;
  return b->type->init(b->ctx, y0, yp0);
}

static int user_res(const void *params, double t, const double *y, const double *yp, double *res)
{
  const user_binding *b = params;
  return b->type->res(b->ctx, t, y, yp, res);
}

/* Forward differences of the residual with respect to v (a copy of y or y'), into jac. */
static int difference_columns(const user_binding *b, double t, double *y, double *yp, double *v,
                              const double *res0, double *res1, double *jac)
{
  int n = b->type->neq;
  double root_eps = sqrt(DBL_EPSILON);
  for (int j = 0; j < n; j++) {
    double saved = v[j];
    double h = root_eps * fmax(fabs(saved), 1.0);
    v[j] = saved + h;
    h = v[j] - saved; /* the step actually taken, after rounding */
    int rc = b->type->res(b->ctx, t, y, yp, res1);
    v[j] = saved;
    if (rc != 0) {
      return rc;
    }
    for (int i = 0; i < n; i++) {
      jac[i + (size_t)j * (size_t)n] = (res1[i] - res0[i]) / h;
    }
  }
  return 0;
}

static int differenced_jac(const user_binding *b, double t, const double *y, const double *yp,
                           double *dfdy, double *dfdyp)
{
  size_t n = (size_t)b->type->neq;
  double *work = malloc(sizeof(double) * 4 * n);
  if (!work) {
    return MBDAE_ERR_NOMEM;
  }
  double *ycopy = work, *ypcopy = work + n, *res0 = work + 2 * n, *res1 = work + 3 * n;
  memcpy(ycopy, y, sizeof(double) * n);
  memcpy(ypcopy, yp, sizeof(double) * n);
  int rc = b->type->res(b->ctx, t, y, yp, res0);
  if (rc == 0 && dfdy) {
    rc = difference_columns(b, t, ycopy, ypcopy, ycopy, res0, res1, dfdy);
  }
  if (rc == 0 && dfdyp) {
    rc = difference_columns(b, t, ycopy, ypcopy, ypcopy, res0, res1, dfdyp);
  }
  free(work);
  return rc;
}

/* Forward differences over column groups: every column of group g of v (y or y') stepped at
 * once, its pattern rows read off the one residual difference, into values (pattern order). */
static int difference_groups(const user_binding *b, double t, double *y, double *yp, double *v,
                             const double *res0, double *res1, double *h, double *values)
{
  const mbdae_jac_pattern *pat = &b->pattern;
  int n = pat->neq;
  double root_eps = sqrt(DBL_EPSILON);
  for (int g = 0; g < b->ngroups; g++) {
    for (int j = 0; j < n; j++) {
      if (b->group[j] == g) {
        double saved = v[j];
        v[j] = saved + root_eps * fmax(fabs(saved), 1.0);
        h[j] = v[j] - saved; /* the step actually taken, after rounding */
        v[j] = saved + h[j];
      }
    }
    int rc = b->type->res(b->ctx, t, y, yp, res1);
    for (int j = 0; j < n; j++) {
      if (b->group[j] == g) {
        v[j] -= h[j];
        for (int k = pat->colptr[j]; k < pat->colptr[j + 1]; k++) {
          values[k] = (res1[pat->rowind[k]] - res0[pat->rowind[k]]) / h[j];
        }
      }
    }
    if (rc != 0) {
      return rc;
    }
  }
  return 0;
}

static int differenced_values(const user_binding *b, double t, const double *y, const double *yp,
                              double *dfdy, double *dfdyp)
{
  size_t n = (size_t)b->type->neq;
  double *work = malloc(sizeof(double) * 5 * n);
  if (!work) {
    return MBDAE_ERR_NOMEM;
  }
  double *ycopy = work, *ypcopy = work + n, *res0 = work + 2 * n, *res1 = work + 3 * n;
  double *h = work + 4 * n;
  memcpy(ycopy, y, sizeof(double) * n);
  memcpy(ypcopy, yp, sizeof(double) * n);
  int rc = b->type->res(b->ctx, t, y, yp, res0);
  if (rc == 0 && dfdy) {
    rc = difference_groups(b, t, ycopy, ypcopy, ycopy, res0, res1, h, dfdy);
  }
  if (rc == 0 && dfdyp) {
    rc = difference_groups(b, t, ycopy, ypcopy, ypcopy, res0, res1, h, dfdyp);
  }
  free(work);
  return rc;
}

static int user_jac(const void *params, double t, const double *y, const double *yp, double *dfdy,
                    double *dfdyp);

static int user_values(const void *params, double t, const double *y, const double *yp,
                       double *dfdy, double *dfdyp)
{
  const user_binding *b = params;
  if (b->type->jac_values) {
    return b->type->jac_values(b->ctx, t, y, yp, dfdy, dfdyp);
  }
  if (!b->type->jac) {
    return differenced_values(b, t, y, yp, dfdy, dfdyp);
  }
  return mbdae_pattern_values_of_dense(&b->pattern, user_jac, b, t, y, yp, dfdy, dfdyp);
}

static int user_jac(const void *params, double t, const double *y, const double *yp, double *dfdy,
                    double *dfdyp)
{
  const user_binding *b = params;
  if (b->type->jac) {
    return b->type->jac(b->ctx, t, y, yp, dfdy, dfdyp);
  }
  if (b->pattern.colptr) { /* a pattern without a dense jac: its values scattered */
    return mbdae_pattern_dense_of_values(&b->pattern, user_values, b, t, y, yp, dfdy, dfdyp);
  }
  return differenced_jac(b, t, y, yp, dfdy, dfdyp);
}

static int user_ref(const void *params, double *yref)
{
  const user_binding *b = params;
  return b->type->ref ? b->type->ref(b->ctx, yref) : MBDAE_ERR_NOREF;
}

const problem_type mbdae_user_problem_ops = {
    /* rtol = atol = 10^-(4 + m/4), m = 0..24, h0 = rtol: the test set's most common plan */
    .tolerances = {sizeof(mbdae_tolerance_plan), 4, 24, 1.0, 3, {1e-4, 1e-7, 1e-10}, 1e-6},
    .params_size = sizeof(user_binding),
    .options_help = "",
    .init = user_init,
    .res = user_res,
    .jac = user_jac,
    .jac_values = user_values,
    .ref = user_ref,
};
