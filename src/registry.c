/* The problem registry: the list of problem descriptors, spec parsing ("id" or
 * "id:key=value,key=value") and the instances with their accessors.
 *
 * An instance owns a copy of its module's parameter struct and the description of its
 * configuration; nothing here is mutable after mbdae_problem_create returns. */
#include <stdlib.h>
#include <string.h>
#include <stdio.h>

#include "problem_type.h"

static const problem_type *const problem_types[] = {
    &mbdae_problem_caraxis, &mbdae_problem_andrews,  &mbdae_problem_crank,
    &mbdae_problem_pendulum, &mbdae_problem_dpendulum,
};
enum { NPROBLEMS = (int)(sizeof problem_types / sizeof problem_types[0]) };

#define SPEC_MAX 256

struct mbdae_problem {
  const problem_type *type;
  void *params;         /* the module's parameter struct, params_size bytes */
  problem_info info;    /* index, scd set, reference source of this configuration */
  char spec[SPEC_MAX];  /* canonical spec */
};

int mbdae_problem_count(void) { return NPROBLEMS; }

const char *mbdae_problem_id(int i)
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

const char *mbdae_problem_options(const char *id)
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
    return MBDAE_ERR_SPEC;
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
      return MBDAE_ERR_SPEC;
    }
    *eq = '\0';
    if (!type->set_option) {
      if (msg && msglen > 0) {
        snprintf(msg, msglen, "problem '%s' takes no options (got '%s')", type->id, item);
      }
      return MBDAE_ERR_SPEC;
    }
    int rc = type->set_option(params, item, eq + 1, msg, msglen);
    if (rc != 0) {
      return rc;
    }
  }
  return 0;
}

int mbdae_problem_create(const char *spec, mbdae_problem **out, char *msg, size_t msglen)
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
    list_ids(ids, sizeof ids);
    set_msg(msg, msglen, "empty problem spec; valid problems: %s%s", ids, "");
    return MBDAE_ERR_SPEC;
  }
  const char *colon = strchr(spec, ':');
  size_t idlen = colon ? (size_t)(colon - spec) : strlen(spec);
  const problem_type *type = find_type(spec, idlen);
  if (!type) {
    char ids[128], name[64];
    list_ids(ids, sizeof ids);
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
    if (rc != 0) {
      mbdae_problem_destroy(p);
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

void mbdae_problem_destroy(mbdae_problem *p)
{
  if (p) {
    free(p->params);
    free(p);
  }
}

const void *mbdae_problem_params(const mbdae_problem *p) { return p->params; }
const char *mbdae_problem_name(const mbdae_problem *p) { return p->type->id; }
const char *mbdae_problem_title(const mbdae_problem *p) { return p->type->title; }
const char *mbdae_problem_spec(const mbdae_problem *p) { return p->spec; }
int mbdae_problem_neq(const mbdae_problem *p) { return p->type->neq; }
double mbdae_problem_t0(const mbdae_problem *p) { return p->type->t0; }
double mbdae_problem_tend(const mbdae_problem *p) { return p->type->tend; }
const int *mbdae_problem_index(const mbdae_problem *p) { return p->info.index; }
const char *mbdae_problem_ref_source(const mbdae_problem *p) { return p->info.ref_source; }
int mbdae_problem_nconstraints(const mbdae_problem *p) { return p->type->nconstraints; }

int mbdae_problem_in_scd(const mbdae_problem *p, int i)
{
  return (i >= 0 && i < p->type->neq) ? p->info.in_scd[i] : 0;
}

void mbdae_problem_tolerances(const mbdae_problem *p, mbdae_tolerance_plan *plan)
{
  *plan = p->type->tolerances;
}

int mbdae_problem_init(const mbdae_problem *p, double *y0, double *yp0)
{
  if (!y0 || !yp0) {
    return MBDAE_ERR_ARG;
  }
  return p->type->init(p->params, y0, yp0);
}

int mbdae_problem_res(const mbdae_problem *p, double t, const double *y, const double *yp,
                      double *res)
{
  if (!y || !yp || !res) {
    return MBDAE_ERR_ARG;
  }
  return p->type->res(p->params, t, y, yp, res);
}

int mbdae_problem_jac(const mbdae_problem *p, double t, const double *y, const double *yp,
                      double *dfdy, double *dfdyp)
{
  if (!y || !yp) {
    return MBDAE_ERR_ARG;
  }
  if (!p->type->jac) {
    return MBDAE_ERR_UNSUPPORTED;
  }
  return p->type->jac(p->params, t, y, yp, dfdy, dfdyp);
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
