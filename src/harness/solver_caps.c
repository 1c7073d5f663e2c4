/* What the harness reads from a solver type's capability record (include/mbdae/solve.h,
 * mbdae_solver_caps): the record as far as its size, or the defaults of a type without one; its
 * validation; the runs it refuses (a linsys kind it does not take, a projection it does not
 * honour, output times it cannot fill); the storage AUTO resolves to (mbdae_linsys_resolve) and
 * the cost of a factorization event (mbdae_solver_lu_cost).  As GSL reads a step type's fields
 * and SUNDIALS asks a linear solver its type (SUNLinSolGetType), never by the solver's name. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "solver_caps.h"
#include "solver_list.h"
#include "struct_size.h"

#define KIND_BITS                                                                                  \
  (MBDAE_LINSYS_BIT(MBDAE_JAC_DENSE) | MBDAE_LINSYS_BIT(MBDAE_JAC_BAND) |                          \
   MBDAE_LINSYS_BIT(MBDAE_JAC_SPARSE) | MBDAE_LINSYS_BIT(MBDAE_JAC_CONDENSED))

/* The first record with a size (this one) ends with lu_complex. */
#define CAPS_SIZE_MIN (offsetof(mbdae_solver_caps, lu_complex) + sizeof(int))

/* A type without a record: as solvers were run before records existed (include/mbdae/solve.h). */
static const mbdae_solver_caps DEFAULT_CAPS = {
    .size = sizeof(mbdae_solver_caps),
    .linsys = MBDAE_LINSYS_BIT(MBDAE_JAC_DENSE) | MBDAE_LINSYS_BIT(MBDAE_JAC_BAND) |
              MBDAE_LINSYS_BIT(MBDAE_JAC_SPARSE),
    .condenses = 0,
    .projects = 0,
    .steps = 0,
    .dense_output = 1,
    .lu_real = 1,
    .lu_complex = 0,
};

/* The type's own record, when its size reaches .caps and it has one. */
static const mbdae_solver_caps *own_record(const mbdae_solver_type *type)
{
  size_t end = offsetof(mbdae_solver_type, caps) + sizeof type->caps;
  return type && type->size >= end ? type->caps : NULL;
}

void mbdae_solver_caps_take(const mbdae_solver_type *type, mbdae_solver_caps *caps)
{
  const mbdae_solver_caps *own = own_record(type);
  *caps = DEFAULT_CAPS;
  if (own && own->size >= CAPS_SIZE_MIN && own->size <= sizeof *caps) {
    memcpy(caps, own, own->size);
    caps->size = sizeof *caps;
  }
}

/* NULL when the flags and counts of a record of a valid size keep the rules, else the rule. */
static const char *caps_values_invalid(const mbdae_solver_type *type, const mbdae_solver_caps *c)
{
  int flags[] = {c->condenses, c->projects, c->steps, c->dense_output};
  for (size_t k = 0; k < sizeof flags / sizeof flags[0]; k++) {
    if (flags[k] != 0 && flags[k] != 1) {
      return "the solver's capabilities: condenses, projects, steps and dense_output are 0 or 1";
    }
  }
  if ((c->linsys & ~KIND_BITS) != 0 || (c->linsys & KIND_BITS) == 0) {
    return "the solver's capabilities: linsys is MBDAE_LINSYS_BIT of one or more of DENSE, BAND, "
           "SPARSE and CONDENSED";
  }
  if (c->condenses && !(c->linsys & MBDAE_LINSYS_BIT(MBDAE_JAC_CONDENSED))) {
    return "the solver's capabilities: condenses = 1 needs MBDAE_JAC_CONDENSED in linsys";
  }
  if (c->lu_real < 0 || c->lu_complex < 0) {
    return "the solver's capabilities: lu_real and lu_complex are not negative";
  }
  if (c->steps && !mbdae_solver_stepper(type)) {
    return "the solver's capabilities: steps = 1, but only a built-in solver steps "
           "(mbdae_integrator_create needs its run as an object; a solver type gives integrate)";
  }
  return NULL;
}

const char *mbdae_solver_caps_invalid(const mbdae_solver_type *type)
{
  const mbdae_solver_caps *own = own_record(type);
  if (!own) {
    return NULL;
  }
  if (own->size == 0) {
    return "the solver's capability record has size 0: set .size = sizeof(mbdae_solver_caps)";
  }
  if (own->size < CAPS_SIZE_MIN) {
    return "the solver's capability record is smaller than any mbdae_solver_caps this library "
           "knows";
  }
  if (own->size > sizeof *own) {
    return "the solver's capability record is larger than this library's mbdae_solver_caps: it "
           "was built against a newer mbdae.h";
  }
  mbdae_solver_caps c;
  mbdae_solver_caps_take(type, &c);
  return caps_values_invalid(type, &c);
}

/* The names of the kinds in bits, ", "-separated, into buf. */
static void kind_names(unsigned bits, char *buf, size_t len)
{
  size_t used = 0;
  buf[0] = '\0';
  for (int k = MBDAE_JAC_DENSE; k <= MBDAE_JAC_CONDENSED && used < len; k++) {
    if (bits & MBDAE_LINSYS_BIT(k)) {
      used += (size_t)snprintf(buf + used, len - used, "%s%s", used ? ", " : "",
                               mbdae_jac_kind_name(k));
    }
  }
}

int mbdae_solver_caps_refuse(const mbdae_solver_type *type, const mbdae_options *opt, char *msg,
                             size_t msglen)
{
  mbdae_solver_caps c;
  mbdae_solver_caps_take(type, &c);
  int kind = opt->linsys;
  char kinds[64];
  if (kind > MBDAE_JAC_AUTO && kind <= MBDAE_JAC_CONDENSED &&
      !(c.linsys & MBDAE_LINSYS_BIT(kind))) {
    kind_names(c.linsys, kinds, sizeof kinds);
    snprintf(msg, msglen, "solver '%s' does not take linsys %s (its capabilities: %s)", type->id,
             mbdae_jac_kind_name(kind), kinds);
  } else if (opt->project && !c.projects) {
    snprintf(msg, msglen,
             "solver '%s' does not project its state after a step (options.project; its "
             "capabilities: projects = 0)",
             type->id);
  } else if (opt->ntout > 0 && !c.dense_output) {
    snprintf(msg, msglen,
             "solver '%s' gives no continuous output at output times (options.tout; its "
             "capabilities: dense_output = 0)",
             type->id);
  } else {
    return 0;
  }
  return MBDAE_ERR_UNSUPPORTED;
}

int mbdae_linsys_resolve(const mbdae_problem *p, const mbdae_solver_type *s, int linsys)
{
  mbdae_solver_caps c;
  mbdae_solver_caps_take(s, &c);
  int kind = mbdae_linsys_choose(p, &c, linsys);
  if (linsys == MBDAE_JAC_AUTO && !(c.linsys & MBDAE_LINSYS_BIT(kind)) &&
      (c.linsys & MBDAE_LINSYS_BIT(MBDAE_JAC_DENSE))) {
    return MBDAE_JAC_DENSE;
  }
  return kind;
}

double mbdae_solver_lu_cost(const mbdae_solver_type *solver, const mbdae_unit_costs *c)
{
  if (!c) {
    return 0.0;
  }
  if (mbdae_struct_size_invalid(c->size, sizeof *c, sizeof *c) != NULL) {
    return NAN;
  }
  mbdae_solver_caps caps;
  mbdae_solver_caps_take(solver, &caps);
  return caps.lu_real * c->lu_real + caps.lu_complex * c->lu_complex;
}
