/* The spec keys of a pendulum chain (see chain_config.h): parsing, checking, canonical form.
 * Numbers are printed in the shortest form that reads back to the same double (%.15g, else
 * %.16g, else %.17g), so that a canonical spec reproduces its instance bit for bit. */
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "chain_config.h"

static const double HALF_PI = 1.57079632679489661923132169163975144;

/* The largest n: 6 n variables (form=ggl) and (6 n)^2 matrix entries stay countable in int. */
enum { CHAIN_N_MAX = 100000 };

static void set_list(chain_list *list, double value)
{
  list->count = 1;
  list->v[0] = value;
}

void chain_config_default(chain_config *c)
{
  memset(c, 0, sizeof *c);
  c->n = 3;
  set_list(&c->mass, 1.0);
  set_list(&c->length, 1.0);
  set_list(&c->theta, HALF_PI);
  set_list(&c->omega, 0.0);
  c->tend = 10.0;
}

static int bad(char *msg, size_t msglen, const char *key, const char *value, const char *want)
{
  if (msg && msglen > 0) {
    snprintf(msg, msglen, "bad value '%s' for %s= of problem 'chain': %s", value, key, want);
  }
  return -1;
}

/* One number of a list, ending at end (':' or '\0'); positive: > 0 required. */
static int parse_number(const char *text, const char **end, int positive, double *out)
{
  char *stop = NULL;
  errno = 0;
  double x = strtod(text, &stop);
  if (stop == text || (*stop != ':' && *stop != '\0') || errno == ERANGE || !isfinite(x) ||
      (positive && !(x > 0.0))) {
    return -1;
  }
  *end = stop;
  *out = x;
  return 0;
}

static int parse_list(const char *key, const char *value, int positive, chain_list *list, char *msg,
                      size_t msglen)
{
  const char *want = positive ? "positive finite numbers, one or one per link (a:b:...)"
                              : "finite numbers, one or one per link (a:b:...)";
  int count = 0;
  for (const char *p = value;; p++) {
    double x;
    if (count == CHAIN_LIST_MAX || parse_number(p, &p, positive, &x) != 0) {
      return bad(msg, msglen, key, value, want);
    }
    list->v[count++] = x;
    if (*p == '\0') {
      break;
    }
  }
  list->count = count;
  return 0;
}

int chain_config_set(chain_config *c, const char *key, const char *value, char *msg, size_t msglen)
{
  if (strcmp(key, "n") == 0) {
    char *end = NULL;
    errno = 0;
    long n = strtol(value, &end, 10);
    if (end == value || *end != '\0' || errno == ERANGE || n < 1 || n > CHAIN_N_MAX) {
      char want[64];
      snprintf(want, sizeof want, "an integer from 1 to %d", CHAIN_N_MAX);
      return bad(msg, msglen, key, value, want);
    }
    c->n = (int)n;
    return 0;
  }
  if (strcmp(key, "tend") == 0) {
    const char *end = NULL;
    double t;
    if (parse_number(value, &end, 1, &t) != 0 || *end != '\0') {
      return bad(msg, msglen, key, value, "a positive finite number");
    }
    c->tend = t;
    return 0;
  }
  struct {
    const char *key;
    chain_list *list;
    int positive;
  } lists[] = {
      {"m", &c->mass, 1}, {"l", &c->length, 1}, {"theta", &c->theta, 0}, {"omega", &c->omega, 0}};
  for (size_t i = 0; i < sizeof lists / sizeof lists[0]; i++) {
    if (strcmp(key, lists[i].key) == 0) {
      return parse_list(key, value, lists[i].positive, lists[i].list, msg, msglen);
    }
  }
  return 1;
}

int chain_config_check(const chain_config *c, char *msg, size_t msglen)
{
  const chain_list *lists[] = {&c->mass, &c->length, &c->theta, &c->omega};
  const char *keys[] = {"m", "l", "theta", "omega"};
  for (int i = 0; i < 4; i++) {
    if (lists[i]->count != 1 && lists[i]->count != c->n) {
      if (msg && msglen > 0) {
        snprintf(msg, msglen,
                 "%s= of problem 'chain' has %d values for n=%d links: give one value (every "
                 "link) or %d",
                 keys[i], lists[i]->count, c->n, c->n);
      }
      return -1;
    }
  }
  return 0;
}

/* The shortest of %.15g, %.16g, %.17g that reads back to x. */
static int format_number(char *buf, size_t len, double x)
{
  int used = 0;
  for (int digits = 15; digits <= 17; digits++) {
    used = snprintf(buf, len, "%.*g", digits, x);
    if (used >= 0 && (size_t)used < len && strtod(buf, NULL) == x) {
      break;
    }
  }
  return used;
}

/* Append "key=a:b:..." (with a leading ',' unless first) to buf; the running length in *used. */
static void append_list(char *buf, size_t len, size_t *used, const char *key,
                        const chain_list *list)
{
  *used += (size_t)snprintf(buf + (*used < len ? *used : len), *used < len ? len - *used : 0,
                            ",%s=", key);
  for (int k = 0; k < list->count; k++) {
    char num[32];
    format_number(num, sizeof num, list->v[k]);
    *used += (size_t)snprintf(buf + (*used < len ? *used : len), *used < len ? len - *used : 0,
                              "%s%s", k ? ":" : "", num);
  }
}

int chain_config_format(const chain_config *c, char *buf, size_t len)
{
  size_t used = (size_t)snprintf(buf, len, "n=%d", c->n);
  append_list(buf, len, &used, "m", &c->mass);
  append_list(buf, len, &used, "l", &c->length);
  append_list(buf, len, &used, "theta", &c->theta);
  append_list(buf, len, &used, "omega", &c->omega);
  chain_list tend = {1, {c->tend}};
  append_list(buf, len, &used, "tend", &tend);
  return used > INT_MAX ? INT_MAX : (int)used;
}

int chain_config_is_default(const chain_config *c)
{
  chain_config d;
  chain_config_default(&d);
  const chain_list *mine[] = {&c->mass, &c->length, &c->theta, &c->omega};
  const chain_list *defaults[] = {&d.mass, &d.length, &d.theta, &d.omega};
  for (int i = 0; i < 4; i++) {
    for (int k = 0; k < c->n; k++) {
      if (chain_value(mine[i], k) != chain_value(defaults[i], k)) {
        return 0;
      }
    }
  }
  return c->tend == d.tend;
}

double chain_value(const chain_list *list, int k) { return list->v[list->count == 1 ? 0 : k]; }

int chain_quarter_turns(double theta, int *k)
{
  double quarter = nearbyint(theta / HALF_PI);
  if (fabs(quarter) <= 4.0 && theta == quarter * HALF_PI) {
    *k = (int)quarter;
    return 1;
  }
  return 0;
}

void chain_direction(double theta, double *s, double *c)
{
  static const double exact_sin[4] = {0.0, 1.0, 0.0, -1.0}, exact_cos[4] = {1.0, 0.0, -1.0, 0.0};
  int k;
  if (chain_quarter_turns(theta, &k)) {
    *s = exact_sin[(k % 4 + 4) % 4];
    *c = exact_cos[(k % 4 + 4) % 4];
    return;
  }
  *s = sin(theta);
  *c = cos(theta);
}
