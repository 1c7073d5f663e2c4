/* The problem registry: spec parsing ("id" or "id:key=value,key=value") over a table of problem
 * descriptors it is given (problem_catalog.h: the built-in table is the harness's,
 * src/harness/problem_list.c), and the instances with their accessors.
 *
 * An instance owns a copy of its module's parameter struct and the description of its
 * configuration; nothing here is mutable after mbdae_problem_create returns. */
#include <stdlib.h>
#include <string.h>
#include <stdio.h>

#include "condense_max.h"
#include "finite.h"
#include "jac_pattern.h"
#include "problem_catalog.h"
#include "problem_type.h"
#include "solver_caps.h"
#include "struct_size.h"

#define SPEC_MAX 256

struct mbdae_problem {
  const problem_type *type; /* a module's descriptor, or own_type */
  problem_type *own_type;   /* a user's problem: the adapter, filled from the user's type */
  void *params;             /* the module's parameter struct (params_size bytes), or user_binding */
  int neq;                  /* number of equations of this configuration */
  int nconstraints;         /* position constraints of this configuration, 0 if none */
  int *index;               /* differentiation index per variable, neq entries */
  int *in_scd;              /* 1 when the component enters scd, neq entries */
  int jac_approximate;      /* 1 when the Jacobian is an approximation by design */
  int constraints_mapped;   /* 1 when the constraints hold by construction (form=ssf) */
  int constraints_in_residual; /* 1 when they are rows of F (form=dummy) */
  int res_checks_finite;       /* 1 when res() checks its values for finiteness itself */
  double tend;                 /* end of the interval of this configuration */
  const char *ref_source;      /* static string, or the user's */
  const char *const *names;    /* component names: the user's, or name_block's table */
  char *name_block;    /* a pointer table to neq names followed by their PROBLEM_NAME_LEN slots */
  char spec[SPEC_MAX]; /* canonical spec */
  mbdae_jac_pattern pattern;          /* where dF/dy + c dF/dy' can be nonzero */
  int *pattern_block;                 /* the pattern's arrays when the instance owns them */
  const problem_selection *selection; /* form=dummy's state selection, or NULL */
};

/* The index and scd arrays of an instance, neq entries each (one block). */
static int alloc_arrays(mbdae_problem *p, int neq)
{
  p->neq = neq;
  p->index = calloc(2 * (size_t)neq, sizeof(int));
  if (!p->index) {
    return MBDAE_ERR_NOMEM;
  }
  p->in_scd = p->index + neq;
  return 0;
}

/* The name slots of an instance (returned) behind the pointer table that p->names becomes. */
static char *alloc_names(mbdae_problem *p, int neq)
{
  size_t table = sizeof(char *) * (size_t)neq, text = PROBLEM_NAME_LEN * (size_t)neq;
  p->name_block = calloc(1, table + text);
  if (!p->name_block) {
    return NULL;
  }
  const char **ptr = (const char **)(void *)p->name_block;
  char *slots = p->name_block + table;
  for (int i = 0; i < neq; i++) {
    ptr[i] = slots + (size_t)i * PROBLEM_NAME_LEN;
  }
  p->names = ptr;
  return slots;
}

void mbdae_problem_info_names(problem_info *info, int first, int n, const char *const *names)
{
  for (int i = 0; i < n; i++) {
    snprintf(info->names + (size_t)(first + i) * PROBLEM_NAME_LEN, PROBLEM_NAME_LEN, "%s",
             names[i]);
  }
}

const problem_type *mbdae_catalog_find(const problem_catalog *catalog, const char *id, size_t len)
{
  for (int i = 0; i < catalog->count; i++) {
    const problem_type *type = catalog->types[i];
    if (strlen(type->id) == len && strncmp(type->id, id, len) == 0) {
      return type;
    }
  }
  return NULL;
}

static void set_msg(char *msg, size_t msglen, const char *fmt, const char *a, const char *b)
{
  if (msg && msglen > 0) {
    snprintf(msg, msglen, fmt, a, b);
  }
}

static void list_ids(const problem_catalog *catalog, char *buf, size_t len)
{
  buf[0] = '\0';
  for (int i = 0; i < catalog->count; i++) {
    size_t used = strlen(buf);
    snprintf(buf + used, len - used, "%s%s", i ? ", " : "", catalog->types[i]->id);
  }
}

/* Append "; valid keys: ..." to the message already in msg; returns MBDAE_ERR_SPEC. */
static int name_valid_keys(const problem_type *type, char *msg, size_t msglen)
{
  if (msg && msglen > 0) {
    size_t used = strlen(msg);
    snprintf(msg + used, msglen - used, "; valid keys: %s",
             type->options_help[0] ? type->options_help : "none (it takes no options)");
  }
  return MBDAE_ERR_SPEC;
}

/* Split "key=value,key=value" and hand each pair to the module.  Every item must be key=value
 * with both parts non-empty, and a key may appear once: an empty list ("crank:"), an empty item
 * ("crank:,,index=3") or a repeated key ("index=1,index=3", where the last would silently win)
 * is refused rather than read as something the user did not write. */
static int apply_options(const problem_type *type, void *params, const char *opts, char *msg,
                         size_t msglen)
{
  char buf[SPEC_MAX];
  const char *keys[SPEC_MAX / 2]; /* an item takes at least two characters, "k=v" plus ',' */
  size_t nkeys = 0;
  if (strlen(opts) >= sizeof buf) {
    set_msg(msg, msglen, "problem spec options too long: '%s'%s", opts, "");
    return MBDAE_ERR_SPEC;
  }
  if (opts[0] == '\0') {
    set_msg(msg, msglen, "empty option list after '%s:'%s", type->id, "");
    return name_valid_keys(type, msg, msglen);
  }
  strcpy(buf, opts);
  for (char *item = buf, *next = NULL; item; item = next) {
    char *comma = strchr(item, ',');
    next = comma ? comma + 1 : NULL;
    if (comma) {
      *comma = '\0';
    }
    char *eq = strchr(item, '=');
    if (item[0] == '\0') {
      set_msg(msg, msglen, "empty option in '%s:%s' (a comma too many?)", type->id, opts);
      return name_valid_keys(type, msg, msglen);
    }
    if (!eq || eq == item || eq[1] == '\0') {
      set_msg(msg, msglen, "malformed option '%s' of problem '%s': expected key=value", item,
              type->id);
      return name_valid_keys(type, msg, msglen);
    }
    *eq = '\0';
    for (size_t k = 0; k < nkeys; k++) {
      if (strcmp(keys[k], item) == 0) {
        set_msg(msg, msglen, "key '%s' given twice in the options of problem '%s'", item, type->id);
        return name_valid_keys(type, msg, msglen);
      }
    }
    keys[nkeys++] = item;
    if (!type->set_option) {
      set_msg(msg, msglen, "unknown key '%s' of problem '%s'", item, type->id);
      return name_valid_keys(type, msg, msglen);
    }
    int rc = type->set_option(params, item, eq + 1, msg, msglen);
    if (rc != 0) {
      return rc;
    }
  }
  return 0;
}

/* Size, index, scd components, names and reference source of a configured instance (the two
 * calls of describe(), see problem_info). */
static int describe_instance(mbdae_problem *p, char *msg, size_t msglen)
{
  problem_info info = {.ref_source = NULL}; /* every field 0 unless describe() sets it */
  p->type->describe(p->params, &info);
  if (info.neq < 1 || info.nconstraints < 0) {
    set_msg(msg, msglen, "internal error: problem '%s' describes an invalid size%s", p->type->id,
            "");
    return MBDAE_ERR_INTERNAL;
  }
  if (alloc_arrays(p, info.neq) != 0 || !(info.names = alloc_names(p, info.neq))) {
    set_msg(msg, msglen, "%s%s", "out of memory", "");
    return MBDAE_ERR_NOMEM;
  }
  p->nconstraints = info.nconstraints;
  info.index = p->index;
  info.in_scd = p->in_scd;
  p->type->describe(p->params, &info);
  p->ref_source = info.ref_source;
  p->jac_approximate = info.jac_approximate;
  p->constraints_mapped = info.constraints_mapped;
  p->constraints_in_residual = info.constraints_in_residual;
  p->res_checks_finite = info.res_checks_finite;
  p->selection = info.selection;
  p->tend = info.tend > 0.0 ? info.tend : p->type->tend;
  return mbdae_pattern_build(p->type, p->params, p->neq, info.jac_kind, &p->pattern,
                             &p->pattern_block, msg, msglen);
}

int mbdae_catalog_create(const problem_catalog *catalog, const char *spec, mbdae_problem **out,
                         char *msg, size_t msglen)
{
  if (msg && msglen > 0) {
    msg[0] = '\0';
  }
  if (!out) {
    set_msg(msg, msglen, "%s%s", "mbdae_problem_create: out is NULL", "");
    return MBDAE_ERR_ARG;
  }
  *out = NULL;
  if (!spec || spec[0] == '\0') {
    char ids[128];
    list_ids(catalog, ids, sizeof ids);
    set_msg(msg, msglen, "empty problem spec; valid problems: %s%s", ids, "");
    return MBDAE_ERR_SPEC;
  }
  const char *colon = strchr(spec, ':');
  size_t idlen = colon ? (size_t)(colon - spec) : strlen(spec);
  const problem_type *type = mbdae_catalog_find(catalog, spec, idlen);
  if (!type) {
    char ids[128], name[64];
    list_ids(catalog, ids, sizeof ids);
    snprintf(name, sizeof name, "%.*s", (int)(idlen < 60 ? idlen : 60), spec);
    set_msg(msg, msglen, "unknown problem '%s'; valid problems: %s", name, ids);
    return MBDAE_ERR_SPEC;
  }
  mbdae_problem *p = calloc(1, sizeof *p);
  void *params = calloc(1, type->params_size);
  if (!p || !params) {
    free(p);
    free(params);
    set_msg(msg, msglen, "%s%s", "out of memory", "");
    return MBDAE_ERR_NOMEM;
  }
  p->type = type;
  p->params = params;
  type->set_defaults(params);
  if (colon) {
    int rc = apply_options(type, params, colon + 1, msg, msglen);
    if (rc == 0 && type->finish) {
      rc = type->finish(params, msg, msglen);
    }
    if (rc != 0) {
      mbdae_problem_destroy(p);
      return rc;
    }
  }
  int rc = describe_instance(p, msg, msglen);
  if (rc != 0) {
    mbdae_problem_destroy(p);
    return rc;
  }
  char opts[SPEC_MAX] = "";
  if (type->format_options) {
    type->format_options(params, opts, sizeof opts);
  }
  snprintf(p->spec, sizeof p->spec, "%s%s%s", type->id, opts[0] ? ":" : "", opts);
  *out = p;
  return 0;
}

void mbdae_problem_destroy(mbdae_problem *p)
{
  if (p) {
    free(p->params);
    free(p->own_type);
    free(p->index);
    free(p->name_block);
    free(p->pattern_block);
    free(p);
  }
}

/* y1, y2, ..., yn for a user's problem without names. */
static int generate_names(mbdae_problem *p, int neq)
{
  char *slots = alloc_names(p, neq);
  if (!slots) {
    return MBDAE_ERR_NOMEM;
  }
  for (int i = 0; i < neq; i++) {
    snprintf(slots + (size_t)i * PROBLEM_NAME_LEN, PROBLEM_NAME_LEN, "y%d", i + 1);
  }
  return 0;
}

/* A user's problem's adapter descriptor: the shared callbacks, the user's size and interval. */
static void bind_user_type(mbdae_problem *p, const mbdae_problem_type *type, void *ctx)
{
  *p->own_type = mbdae_user_problem_ops;
  p->own_type->id = type->id;
  p->own_type->title = type->title;
  p->own_type->t0 = type->t0;
  p->own_type->tend = type->tend;
  p->tend = type->tend;
  p->type = p->own_type;
  user_binding *b = p->params;
  b->type = type;
  b->ctx = ctx;
  for (int i = 0; i < type->neq; i++) {
    p->index[i] = type->index[i];
    p->in_scd[i] = type->in_scd ? type->in_scd[i] : 1;
  }
  p->ref_source = type->ref_source ? type->ref_source : "no reference solution";
  p->names = type->names;
  snprintf(p->spec, sizeof p->spec, "%s", type->id);
  mbdae_pattern_of_user(type->neq, type->jac_kind, type->jac_colptr, type->jac_rowind, &p->pattern);
  b->pattern = p->pattern;
}

/* How a user's Jacobian is made: its own (jac or jac_values), or differences over the column
 * groups of its pattern (kept in pattern_block), or over every column. */
static int bind_user_jacobian(mbdae_problem *p, const mbdae_problem_type *type)
{
  user_binding *b = p->params;
  if (type->jac || type->jac_values) {
    p->own_type->jac_nres = 0;
    return 0;
  }
  p->own_type->jac_nres = 2 * type->neq + 1;
  if (!p->pattern.colptr) {
    return 0;
  }
  p->pattern_block = malloc(sizeof(int) * (size_t)type->neq);
  b->ngroups = p->pattern_block ? mbdae_pattern_groups(&p->pattern, p->pattern_block) : -1;
  if (b->ngroups < 0) {
    return MBDAE_ERR_NOMEM;
  }
  b->group = p->pattern_block;
  p->own_type->jac_nres = 2 * b->ngroups + 1;
  return 0;
}

int mbdae_problem_from_type(const mbdae_problem_type *type, void *ctx, mbdae_problem **out,
                            char *msg, size_t msglen)
{
  if (msg && msglen > 0) {
    msg[0] = '\0';
  }
  if (!out) {
    set_msg(msg, msglen, "%s%s", "mbdae_problem_from_type: out is NULL", "");
    return MBDAE_ERR_ARG;
  }
  *out = NULL;
  const char *bad = mbdae_user_problem_invalid(type);
  if (bad) {
    set_msg(msg, msglen, "mbdae_problem_from_type: %s%s", bad, "");
    return MBDAE_ERR_ARG;
  }
  mbdae_problem *p = calloc(1, sizeof *p);
  if (p) {
    p->own_type = calloc(1, sizeof *p->own_type);
    p->params = calloc(1, sizeof(user_binding));
  }
  if (!p || !p->own_type || !p->params || alloc_arrays(p, type->neq) != 0) {
    mbdae_problem_destroy(p);
    set_msg(msg, msglen, "%s%s", "out of memory", "");
    return MBDAE_ERR_NOMEM;
  }
  bind_user_type(p, type, ctx);
  if ((!p->names && generate_names(p, type->neq) != 0) || bind_user_jacobian(p, type) != 0) {
    mbdae_problem_destroy(p);
    set_msg(msg, msglen, "%s%s", "out of memory", "");
    return MBDAE_ERR_NOMEM;
  }
  *out = p;
  return 0;
}

const void *mbdae_problem_params(const mbdae_problem *p) { return p->params; }
const problem_selection *mbdae_problem_selection(const mbdae_problem *p) { return p->selection; }
const char *mbdae_problem_name(const mbdae_problem *p) { return p->type->id; }
const char *mbdae_problem_title(const mbdae_problem *p) { return p->type->title; }
const char *mbdae_problem_spec(const mbdae_problem *p) { return p->spec; }
int mbdae_problem_neq(const mbdae_problem *p) { return p->neq; }
double mbdae_problem_t0(const mbdae_problem *p) { return p->type->t0; }
double mbdae_problem_tend(const mbdae_problem *p) { return p->tend; }
const int *mbdae_problem_index(const mbdae_problem *p) { return p->index; }
const char *mbdae_problem_ref_source(const mbdae_problem *p) { return p->ref_source; }
int mbdae_problem_jac_nres(const mbdae_problem *p) { return p->type->jac_nres; }
int mbdae_problem_jac_approximate(const mbdae_problem *p) { return p ? p->jac_approximate : 0; }
int mbdae_problem_nconstraints(const mbdae_problem *p) { return p->nconstraints; }
int mbdae_problem_constraints_mapped(const mbdae_problem *p) { return p->constraints_mapped; }
int mbdae_problem_constraints_in_residual(const mbdae_problem *p)
{
  return p->constraints_in_residual;
}

const char *mbdae_problem_component(const mbdae_problem *p, int i)
{
  return (i >= 0 && i < p->neq) ? p->names[i] : NULL;
}

int mbdae_problem_in_scd(const mbdae_problem *p, int i)
{
  return (i >= 0 && i < p->neq) ? p->in_scd[i] : 0;
}

int mbdae_problem_tolerances(const mbdae_problem *p, mbdae_tolerance_plan *plan)
{
  if (!p || !plan || mbdae_struct_size_invalid(plan->size, sizeof *plan, sizeof *plan) != NULL) {
    return MBDAE_ERR_ARG;
  }
  mbdae_tolerance_plan full = p->type->tolerances;
  full.size = sizeof full;
  mbdae_struct_give(&full, plan, plan->size);
  return 0;
}

int mbdae_problem_init(const mbdae_problem *p, double *y0, double *yp0)
{
  if (!y0 || !yp0) {
    return MBDAE_ERR_ARG;
  }
  return p->type->init(p->params, y0, yp0);
}

/* The residual behind both public entries: mbdae_problem_res_checked calls this, not the exported
 * mbdae_problem_res, whose call from inside the library would go through the PLT. */
static int evaluate_res(const mbdae_problem *p, double t, const double *y, const double *yp,
                        double *res)
{
  if (!y || !yp || !res) {
    return MBDAE_ERR_ARG;
  }
  return p->type->res(p->params, t, y, yp, res);
}

int mbdae_problem_res(const mbdae_problem *p, double t, const double *y, const double *yp,
                      double *res)
{
  return evaluate_res(p, t, y, yp, res);
}

int mbdae_problem_res_checked(const mbdae_problem *p, double t, const double *y, const double *yp,
                              double *res)
{
  int rc = evaluate_res(p, t, y, yp, res);
  if (rc != 0 || p->res_checks_finite) {
    return rc;
  }
  return mbdae_all_finite((size_t)p->neq, res) ? 0 : MBDAE_RECOVERABLE;
}

const char *mbdae_jac_kind_name(int kind)
{
  static const char *const names[] = {"auto", "dense", "band", "sparse", "condensed"};
  return kind >= MBDAE_JAC_AUTO && kind <= MBDAE_JAC_CONDENSED ? names[kind] : NULL;
}

int mbdae_linsys_choose(const mbdae_problem *p, const mbdae_solver_caps *caps, int linsys)
{
  if (linsys != MBDAE_JAC_AUTO) {
    return linsys;
  }
  int condenses = caps && caps->condenses;
  if (p->pattern.kind == MBDAE_JAC_DENSE && p->neq <= MBDAE_CONDENSE_MAX_N && condenses) {
    return MBDAE_JAC_CONDENSED;
  }
  return p->pattern.kind;
}

void mbdae_problem_jac_pattern(const mbdae_problem *p, mbdae_jac_pattern *pat)
{
  *pat = p->pattern;
}

/* 1 when colptr/rowind hold a valid pattern of neq columns over rows 0 .. nrows - 1. */
static int rows_pattern_valid(int neq, int nrows, const int *colptr, const int *rowind)
{
  if (colptr[0] != 0) {
    return 0;
  }
  for (int j = 0; j < neq; j++) {
    if (colptr[j + 1] < colptr[j]) {
      return 0;
    }
    for (int e = colptr[j]; e < colptr[j + 1]; e++) {
      if (rowind[e] < 0 || rowind[e] >= nrows || (e > colptr[j] && rowind[e] <= rowind[e - 1])) {
        return 0;
      }
    }
  }
  return 1;
}

int mbdae_problem_constraint_pattern(const mbdae_problem *p, int *colptr, int *rowind)
{
  if (!p || !colptr) {
    return MBDAE_ERR_ARG;
  }
  if (!p->type->constraint_pattern || p->nconstraints <= 0) {
    return MBDAE_ERR_UNSUPPORTED;
  }
  int rc = p->type->constraint_pattern(p->params, colptr, rowind);
  if (rc == 0 && (colptr[p->neq] < 0 ||
                  (rowind && !rows_pattern_valid(p->neq, p->nconstraints, colptr, rowind)))) {
    rc = MBDAE_ERR_INTERNAL;
  }
  return rc;
}

int mbdae_problem_constraint_pattern_alloc(const mbdae_problem *p, mbdae_jac_pattern *pat,
                                           int **block)
{
  *block = NULL;
  *pat = (mbdae_jac_pattern){.kind = MBDAE_JAC_DENSE, .neq = p->neq};
  int *colptr = malloc(sizeof(int) * ((size_t)p->neq + 1));
  if (!colptr) {
    return MBDAE_ERR_NOMEM;
  }
  int rc = mbdae_problem_constraint_pattern(p, colptr, NULL);
  if (rc != 0) {
    free(colptr);
    return rc == MBDAE_ERR_UNSUPPORTED ? 0 : rc;
  }
  size_t nnz = (size_t)colptr[p->neq];
  int *all = realloc(colptr, sizeof(int) * ((size_t)p->neq + 1 + (nnz ? nnz : 1)));
  if (!all) {
    free(colptr);
    return MBDAE_ERR_NOMEM;
  }
  rc = mbdae_problem_constraint_pattern(p, all, all + p->neq + 1);
  if (rc != 0 || (size_t)all[p->neq] != nnz) {
    free(all);
    return rc != 0 ? rc : MBDAE_ERR_INTERNAL;
  }
  *pat = (mbdae_jac_pattern){.kind = MBDAE_JAC_SPARSE,
                             .neq = p->neq,
                             .nnz = nnz,
                             .colptr = all,
                             .rowind = all + p->neq + 1};
  *block = all;
  return 0;
}

int mbdae_problem_jac(const mbdae_problem *p, double t, const double *y, const double *yp,
                      double *dfdy, double *dfdyp)
{
  if (!y || !yp) {
    return MBDAE_ERR_ARG;
  }
  if (p->type->jac) {
    return p->type->jac(p->params, t, y, yp, dfdy, dfdyp);
  }
  if (p->type->jac_values && p->pattern.colptr) {
    return mbdae_pattern_dense_of_values(&p->pattern, p->type->jac_values, p->params, t, y, yp,
                                         dfdy, dfdyp);
  }
  return MBDAE_ERR_UNSUPPORTED;
}

int mbdae_problem_jac_values(const mbdae_problem *p, double t, const double *y, const double *yp,
                             double *dfdy, double *dfdyp)
{
  if (!y || !yp) {
    return MBDAE_ERR_ARG;
  }
  if (!p->pattern.colptr) {
    return mbdae_problem_jac(p, t, y, yp, dfdy, dfdyp); /* dense: column-major is CSC order */
  }
  if (p->type->jac_values) {
    return p->type->jac_values(p->params, t, y, yp, dfdy, dfdyp);
  }
  if (p->type->jac) {
    return mbdae_pattern_values_of_dense(&p->pattern, p->type->jac, p->params, t, y, yp, dfdy,
                                         dfdyp);
  }
  return MBDAE_ERR_UNSUPPORTED;
}

int mbdae_problem_ref(const mbdae_problem *p, double *yref)
{
  if (!yref) {
    return MBDAE_ERR_ARG;
  }
  if (!p->type->ref) {
    return MBDAE_ERR_NOREF;
  }
  return p->type->ref(p->params, yref);
}

int mbdae_problem_reference_trajectory(const mbdae_problem *p, size_t *ntimes, const double **t,
                                       double *y)
{
  if (!ntimes || !t) {
    return MBDAE_ERR_ARG;
  }
  *ntimes = 0;
  *t = NULL;
  if (!p->type->ref_traj) {
    return MBDAE_ERR_NOREF;
  }
  int rc = p->type->ref_traj(p->params, p->neq, ntimes, t, y);
  if (rc != 0) {
    *ntimes = 0;
    *t = NULL;
  }
  return rc;
}

int mbdae_problem_constraints(const mbdae_problem *p, double t, const double *y, const double *yp,
                              double *gpos, double *gvel, double *gacc)
{
  if (!y || !yp) {
    return MBDAE_ERR_ARG;
  }
  if (!p->type->constraints) {
    return MBDAE_ERR_UNSUPPORTED;
  }
  return p->type->constraints(p->params, t, y, yp, gpos, gvel, gacc);
}
