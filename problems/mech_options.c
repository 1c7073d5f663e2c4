/* The model layer's spec keys: form= (offered forms from the table, problems/mech_forms.c),
 * Baumgarte's alpha= and beta=, form=dummy's select=, and the canonical spelling of them. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mech_layer.h"

/* Baumgarte's parameters when the spec gives none: alpha = beta, the critically damped choice,
 * with the constraint error decaying like t e^(-10 t).  Hafner & Poell do not print theirs. */
static const double BAUMGARTE_DEFAULT = 10.0;

void mbdae_mech_defaults(mech_params *mp, const mech_model *model)
{
  mp->model = model;
  mp->form = MECH_INDEX3;
  mp->alpha = BAUMGARTE_DEFAULT;
  mp->beta = BAUMGARTE_DEFAULT;
  mp->alpha_set = mp->beta_set = 0;
  mp->selected = 0;
  mp->select_set = 0;
}

void mech_variable_name(const mech_params *mp, int i, char *buf, size_t len)
{
  if (mp->model->names) {
    snprintf(buf, len, "%s", mp->model->names[i]);
  } else {
    mp->model->name(mp, i, buf, len);
  }
}

/* The names of the selected coordinates joined by sep into buf. */
static void selection_names(const mech_params *mp, unsigned long long selected, const char *sep,
                            char *buf, size_t len)
{
  buf[0] = '\0';
  for (int j = 0; j < mp->model->nq; j++) {
    if ((selected >> j) & 1ULL) {
      char name[PROBLEM_NAME_LEN];
      mech_variable_name(mp, j, name, sizeof name);
      size_t used = strlen(buf);
      snprintf(buf + used, len - used, "%s%s", used ? sep : "", name);
    }
  }
}

static int refuse_selection(const mech_params *mp, const char *value, char *msg, size_t msglen)
{
  const mech_model *m = mp->model;
  char names[MECH_DUMMY_MAX_NQ * PROBLEM_NAME_LEN];
  selection_names(mp, (m->nq < 64 ? (1ULL << m->nq) : 0ULL) - 1ULL, ", ", names, sizeof names);
  if (msg && msglen > 0) {
    snprintf(msg, msglen,
             "bad value '%s' for select= of problem '%s': %d distinct coordinate name(s) joined "
             "by '+', from: %s",
             value, m->type->id, m->nc, names);
  }
  return MBDAE_ERR_SPEC;
}

/* select=NAME+NAME...: nc distinct coordinates. */
static int parse_selection(mech_params *mp, const char *value, char *msg, size_t msglen)
{
  const mech_model *m = mp->model;
  unsigned long long set = 0;
  int count = 0;
  for (const char *p = value; m->dummy;) {
    size_t len = strcspn(p, "+");
    int found = -1;
    for (int j = 0; j < m->nq && found < 0; j++) {
      char name[PROBLEM_NAME_LEN];
      mech_variable_name(mp, j, name, sizeof name);
      found = strlen(name) == len && strncmp(name, p, len) == 0 ? j : -1;
    }
    if (found < 0 || ((set >> found) & 1ULL)) {
      return refuse_selection(mp, value, msg, msglen);
    }
    set |= 1ULL << found;
    count++;
    if (p[len] == '\0') {
      break;
    }
    p += len + 1;
  }
  if (count != m->nc) {
    return refuse_selection(mp, value, msg, msglen);
  }
  mp->selected = set;
  mp->select_set = 1;
  return 0;
}

/* The selection complete pivoting of G picks at the initial state (mechanical.h). */
static int default_selection(mech_params *mp, char *msg, size_t msglen)
{
  const mech_model *m = mp->model;
  size_t nq = (size_t)m->nq;
  double *q = malloc(sizeof(double) * (3 * nq + (size_t)m->nc));
  double pivot = 0.0, *none = NULL;
  int rc = q ? m->init(mp, q, q + nq, q + 2 * nq, q + 3 * nq) : MBDAE_ERR_NOMEM;
  rc = rc == 0 ? mech_select_at(mp, m->type->t0, q, none, &mp->selected, &pivot) : rc;
  free(q);
  if (rc == 0 && pivot == 0.0) {
    rc = MBDAE_ERR_SPEC;
  }
  if (rc != 0 && msg && msglen > 0) {
    snprintf(msg, msglen, "form=dummy of problem '%s': no selection at the initial state (%s)",
             m->type->id, rc == MBDAE_ERR_SPEC ? "G is rank deficient" : mbdae_strerror(rc));
  }
  return rc;
}

/* 1 when the model offers form f. */
static int offers(const mech_model *m, int f)
{
  mech_form_kind kind = mbdae_mech_form_info((mech_form)f)->kind;
  return (kind != MECH_KIND_MINIMAL || m->ssf) && (kind != MECH_KIND_DUMMY || m->dummy);
}

static void offered_forms(const mech_params *mp, char *buf, size_t len)
{
  buf[0] = '\0';
  for (int f = 0; f < MECH_NFORMS; f++) {
    if (offers(mp->model, f)) {
      size_t used = strlen(buf);
      snprintf(buf + used, len - used, "%s%s", f ? "|" : "",
               mbdae_mech_form_info((mech_form)f)->name);
    }
  }
}

static int refuse_form(const mech_params *mp, const char *what, const char *value, char *msg,
                       size_t msglen)
{
  char forms[96];
  offered_forms(mp, forms, sizeof forms);
  if (msg && msglen > 0) {
    snprintf(msg, msglen, "%s '%s' of problem '%s'; forms offered: form=%s", what, value,
             mp->model->type->id, forms);
  }
  return MBDAE_ERR_SPEC;
}

static int parse_gain(const char *key, const char *value, double *out, char *msg, size_t msglen)
{
  char *end = NULL;
  double x = strtod(value, &end);
  if (end == value || *end != '\0' || !isfinite(x) || x < 0.0) {
    if (msg && msglen > 0) {
      snprintf(msg, msglen, "bad value '%s' for %s=: a finite number >= 0", value, key);
    }
    return MBDAE_ERR_SPEC;
  }
  *out = x;
  return 0;
}

int mbdae_mech_set_option(mech_params *mp, const char *key, const char *value, char *msg,
                          size_t msglen)
{
  if (strcmp(key, "form") == 0) {
    int f = mbdae_mech_form_by_name(value);
    if (f < 0) {
      return refuse_form(mp, "unknown form", value, msg, msglen);
    }
    if (!offers(mp->model, f)) {
      return refuse_form(mp, mbdae_mech_form_info((mech_form)f)->not_offered, value, msg, msglen);
    }
    mp->form = (mech_form)f;
    return form_of(mp)->kind == MECH_KIND_DUMMY && !mp->select_set
               ? default_selection(mp, msg, msglen)
               : 0;
  }
  if (strcmp(key, "select") == 0) {
    return parse_selection(mp, value, msg, msglen);
  }
  if (strcmp(key, "alpha") == 0) {
    mp->alpha_set = 1;
    return parse_gain(key, value, &mp->alpha, msg, msglen);
  }
  if (strcmp(key, "beta") == 0) {
    mp->beta_set = 1;
    return parse_gain(key, value, &mp->beta, msg, msglen);
  }
  return 1;
}

int mbdae_mech_option(void *params, const char *key, const char *value, char *msg, size_t msglen)
{
  mech_params *mp = params;
  int rc = mbdae_mech_set_option(mp, key, value, msg, msglen);
  if (rc == 1 && msg && msglen > 0) {
    snprintf(msg, msglen, "unknown key '%s' of problem '%s'; valid keys: %s", key,
             mp->model->type->id, mp->model->type->options_help);
  }
  return rc == 1 ? MBDAE_ERR_SPEC : rc;
}

int mbdae_mech_finish(const void *params, char *msg, size_t msglen)
{
  const mech_params *mp = params;
  if ((mp->alpha_set || mp->beta_set) && !form_of(mp)->stabilised) {
    if (msg && msglen > 0) {
      snprintf(msg, msglen, "alpha= and beta= belong to form=baumgarte, not form=%s",
               form_of(mp)->name);
    }
    return MBDAE_ERR_SPEC;
  }
  if (mp->select_set && form_of(mp)->kind != MECH_KIND_DUMMY) {
    if (msg && msglen > 0) {
      snprintf(msg, msglen, "select= belongs to form=dummy, not form=%s", form_of(mp)->name);
    }
    return MBDAE_ERR_SPEC;
  }
  return 0;
}

void mbdae_mech_format_options(const void *params, char *buf, size_t len)
{
  const mech_params *mp = params;
  int used = snprintf(buf, len, "form=%s", form_of(mp)->name);
  if (form_of(mp)->stabilised && used >= 0 && (size_t)used < len) {
    snprintf(buf + used, len - (size_t)used, ",alpha=%.17g,beta=%.17g", mp->alpha, mp->beta);
  }
  if (form_of(mp)->kind == MECH_KIND_DUMMY && used >= 0 && (size_t)used < len) {
    char names[MECH_DUMMY_MAX_NQ * PROBLEM_NAME_LEN];
    selection_names(mp, mp->selected, "+", names, sizeof names);
    snprintf(buf + used, len - (size_t)used, ",select=%s", names);
  }
}
