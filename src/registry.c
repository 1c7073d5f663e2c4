/* The problem registry: the list of problem descriptors, spec parsing ("id" or
 * "id:key=value,key=value") and the instances with their accessors.
 *
 * An instance owns a copy of its module's parameter struct and the description of its
 * configuration; nothing here is mutable after daets_problem_create returns. */
#include <stdlib.h>
#include <string.h>
#include <stdio.h>

#include "problem_type.h"

static const problem_type *const problem_types[] = {
    &daets_problem_caraxis, &daets_problem_andrews,  &daets_problem_crank,
    &daets_problem_pendulum, &daets_problem_dpendulum,
};
enum { NPROBLEMS = (int)(sizeof problem_types / sizeof problem_types[0]) };

#define SPEC_MAX 256

struct daets_problem {
  const problem_type *type;
  void *params;         /* the module's parameter struct, params_size bytes */
  problem_info info;    /* index, scd set, reference source of this configuration */
  char spec[SPEC_MAX];  /* canonical spec */
};

int daets_problem_count(void) { return NPROBLEMS; }

const char *daets_problem_id(int i)
{
  if (i < 0 || i >= NPROBLEMS) {
    return NULL;
  }
  return problem_types[i]->id;
}

static const problem_type *find_type(const char *id, size_t len)
{
  for (int i = 0; i < NPROBLEMS; i++) {
    if (strlen(problem_types[i]->id) == len && strncmp(problem_types[i]->id, id, len) == 0) {
      return problem_types[i];
    }
  }
  return NULL;
}

const char *daets_problem_options(const char *id)
{
  const problem_type *type = id ? find_type(id, strlen(id)) : NULL;
  return type ? type->options_help : NULL;
}

static void set_msg(char *msg, size_t msglen, const char *fmt, const char *a, const char *b)
{
  if (msg && msglen > 0) {
    snprintf(msg, msglen, fmt, a, b);
  }
}

static void list_ids(char *buf, size_t len)
{
  buf[0] = '\0';
  for (int i = 0; i < NPROBLEMS; i++) {
    size_t used = strlen(buf);
    snprintf(buf + used, len - used, "%s%s", i ? ", " : "", problem_types[i]->id);
  }
}

/* Split "key=value,key=value" and hand each pair to the module. */
static int apply_options(const problem_type *type, void *params, const char *opts, char *msg,
                         size_t msglen)
{
  char buf[SPEC_MAX];
  if (strlen(opts) >= sizeof buf) {
    set_msg(msg, msglen, "problem spec options too long: '%s'%s", opts, "");
    return DAETS_ERR_SPEC;
  }
  strcpy(buf, opts);
  char *save = NULL;
  for (char *item = strtok_r(buf, ",", &save); item; item = strtok_r(NULL, ",", &save)) {
    char *eq = strchr(item, '=');
    if (!eq || eq == item || eq[1] == '\0') {
      if (msg && msglen > 0) {
        snprintf(msg, msglen, "malformed option '%s' for problem '%s': expected key=value (%s)",
                 item, type->id, type->options_help[0] ? type->options_help : "no options");
      }
      return DAETS_ERR_SPEC;
    }
    *eq = '\0';
    if (!type->set_option) {
      if (msg && msglen > 0) {
        snprintf(msg, msglen, "problem '%s' takes no options (got '%s')", type->id, item);
      }
      return DAETS_ERR_SPEC;
    }
    int rc = type->set_option(params, item, eq + 1, msg, msglen);
    if (rc != 0) {
      return rc;
    }
  }
  return 0;
}

int daets_problem_create(const char *spec, daets_problem **out, char *msg, size_t msglen)
{
  if (msg && msglen > 0) {
    msg[0] = '\0';
  }
  if (!out) {
    set_msg(msg, msglen, "%s%s", "daets_problem_create: out is NULL", "");
    return DAETS_ERR_ARG;
  }
  *out = NULL;
  if (!spec || spec[0] == '\0') {
    char ids[128];
    list_ids(ids, sizeof ids);
    set_msg(msg, msglen, "empty problem spec; valid problems: %s%s", ids, "");
    return DAETS_ERR_SPEC;
  }
  const char *colon = strchr(spec, ':');
  size_t idlen = colon ? (size_t)(colon - spec) : strlen(spec);
  const problem_type *type = find_type(spec, idlen);
  if (!type) {
    char ids[128], name[64];
    list_ids(ids, sizeof ids);
    snprintf(name, sizeof name, "%.*s", (int)(idlen < 60 ? idlen : 60), spec);
    set_msg(msg, msglen, "unknown problem '%s'; valid problems: %s", name, ids);
    return DAETS_ERR_SPEC;
  }
  daets_problem *p = calloc(1, sizeof *p);
  void *params = calloc(1, type->params_size);
  if (!p || !params) {
    free(p);
    free(params);
    set_msg(msg, msglen, "%s%s", "out of memory", "");
    return DAETS_ERR_NOMEM;
  }
  p->type = type;
  p->params = params;
  type->set_defaults(params);
  if (colon) {
    int rc = apply_options(type, params, colon + 1, msg, msglen);
    if (rc != 0) {
      daets_problem_destroy(p);
      return rc;
    }
  }
  type->describe(params, &p->info);
  char opts[SPEC_MAX] = "";
  if (type->format_options) {
    type->format_options(params, opts, sizeof opts);
  }
  snprintf(p->spec, sizeof p->spec, "%s%s%s", type->id, opts[0] ? ":" : "", opts);
  *out = p;
  return 0;
}

void daets_problem_destroy(daets_problem *p)
{
  if (p) {
    free(p->params);
    free(p);
  }
}

const void *daets_problem_params(const daets_problem *p) { return p->params; }
const char *daets_problem_name(const daets_problem *p) { return p->type->id; }
const char *daets_problem_title(const daets_problem *p) { return p->type->title; }
const char *daets_problem_spec(const daets_problem *p) { return p->spec; }
int daets_problem_neq(const daets_problem *p) { return p->type->neq; }
double daets_problem_t0(const daets_problem *p) { return p->type->t0; }
double daets_problem_tend(const daets_problem *p) { return p->type->tend; }
const int *daets_problem_index(const daets_problem *p) { return p->info.index; }
const char *daets_problem_ref_source(const daets_problem *p) { return p->info.ref_source; }
int daets_problem_nconstraints(const daets_problem *p) { return p->type->nconstraints; }

int daets_problem_in_scd(const daets_problem *p, int i)
{
  return (i >= 0 && i < p->type->neq) ? p->info.in_scd[i] : 0;
}

void daets_problem_tolerances(const daets_problem *p, daets_tolerance_plan *plan)
{
  *plan = p->type->tolerances;
}

int daets_problem_init(const daets_problem *p, double *y0, double *yp0)
{
  if (!y0 || !yp0) {
    return DAETS_ERR_ARG;
  }
  return p->type->init(p->params, y0, yp0);
}

int daets_problem_res(const daets_problem *p, double t, const double *y, const double *yp,
                      double *res)
{
  if (!y || !yp || !res) {
    return DAETS_ERR_ARG;
  }
  return p->type->res(p->params, t, y, yp, res);
}

int daets_problem_jac(const daets_problem *p, double t, const double *y, const double *yp,
                      double *dfdy, double *dfdyp)
{
  if (!y || !yp) {
    return DAETS_ERR_ARG;
  }
  if (!p->type->jac) {
    return DAETS_ERR_UNSUPPORTED;
  }
  return p->type->jac(p->params, t, y, yp, dfdy, dfdyp);
}

int daets_problem_ref(const daets_problem *p, double *yref)
{
  if (!yref) {
    return DAETS_ERR_ARG;
  }
  if (!p->type->ref) {
    return DAETS_ERR_NOREF;
  }
  return p->type->ref(p->params, yref);
}

int daets_problem_constraints(const daets_problem *p, double t, const double *y, const double *yp,
                              double *gpos, double *gvel, double *gacc)
{
  if (!y || !yp) {
    return DAETS_ERR_ARG;
  }
  if (!p->type->constraints) {
    return DAETS_ERR_UNSUPPORTED;
  }
  return p->type->constraints(p->params, t, y, yp, gpos, gvel, gacc);
}
