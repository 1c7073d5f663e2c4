/* The canonical-spec writers of every built-in problem (problem_type.format_options) with every
 * buffer length from 0 to one past the full text: nothing written at or past len (guard bytes
 * after the buffer; ASan would also see it), the text NUL-terminated within len, and the longest
 * prefix of the full text that fits (snprintf's truncation), for the default configuration and
 * configurations that make each writer take its other branches (stabilised forms with alpha and
 * beta, form=dummy with select=, the chain's lists, the double pendulum's keys, Fekete's n).
 * The writers are private (hidden in the shared library), so this test links the problems' and the
 * core's objects (the object libraries mbdae_problems and mbdae_core, compiled once).
 * The registry writes into 256 bytes, which no built-in spec fills: only here do the writers see
 * a short buffer. */
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "mbdae/mbdae.h"
#include "problem_type.h"

/* The descriptors under test (problems/; the library's table is src/harness/problem_list.c). */
extern const problem_type mbdae_problem_caraxis, mbdae_problem_andrews, mbdae_problem_crank,
    mbdae_problem_pendulum, mbdae_problem_dpendulum, mbdae_problem_chain, mbdae_problem_fekete,
    mbdae_problem_wheelset;

enum { FULL_MAX = 4096, GUARD = 64 };
static const unsigned char SENTINEL = 0xa5;

typedef struct config {
  const problem_type *type;
  const char *options; /* "key=value,..." applied as the registry applies them, or "" */
} config;

static const config CONFIGS[] = {
    {&mbdae_problem_caraxis, ""},
    {&mbdae_problem_caraxis, "form=baumgarte,alpha=0.125,beta=3.0000000000000004"},
    {&mbdae_problem_andrews, ""},
    {&mbdae_problem_andrews, "form=baumgarte,jac=approx"},
    {&mbdae_problem_andrews, "form=ggl"},
    {&mbdae_problem_crank, ""},
    {&mbdae_problem_crank, "form=ggl,beam=nonlinear,damping=on"},
    {&mbdae_problem_crank, "form=baumgarte"},
    {&mbdae_problem_pendulum, ""},
    {&mbdae_problem_pendulum, "form=dummy"},
    {&mbdae_problem_pendulum, "form=baumgarte,alpha=1e-300"},
    {&mbdae_problem_dpendulum, ""},
    {&mbdae_problem_dpendulum, "theta1=0.123456789012345,m2=2.5,omega2=-1e-7,form=baumgarte"},
    {&mbdae_problem_chain, ""},
    {&mbdae_problem_chain, "n=5,m=1:2:3:4:5.5,l=0.25,theta=1:0.5,form=index2"},
    {&mbdae_problem_chain, "n=4,omega=0.1:0.2:0.3:0.4,tend=2,form=baumgarte"},
    {&mbdae_problem_fekete, ""},
    {&mbdae_problem_fekete, "n=7,form=baumgarte"},
    {&mbdae_problem_wheelset, ""},
};
enum { NCONFIGS = sizeof CONFIGS / sizeof CONFIGS[0] };

/* The options applied to params (key=value items, then finish): 0, or the first failure. */
static int apply(const config *c, void *params)
{
  char buf[512], msg[256];
  strcpy(buf, c->options);
  for (char *item = buf[0] ? buf : NULL, *next = NULL; item; item = next) {
    char *comma = strchr(item, ',');
    next = comma ? comma + 1 : NULL;
    if (comma) {
      *comma = '\0';
    }
    char *eq = strchr(item, '=');
    *eq = '\0';
    int rc = c->type->set_option(params, item, eq + 1, msg, sizeof msg);
    CHECK(rc == 0, "%s: %s=%s: %s", c->type->id, item, eq + 1, msg);
    if (rc != 0) {
      return rc;
    }
  }
  return c->type->finish ? c->type->finish(params, msg, sizeof msg) : 0;
}

/* One length: the writer into buf[0..len) followed by GUARD sentinel bytes. */
static void check_length(const config *c, const void *params, const char *full, size_t len)
{
  unsigned char *block = malloc(len + GUARD);
  memset(block, SENTINEL, len + GUARD);
  char *buf = (char *)block;
  c->type->format_options(params, buf, len);
  size_t spoiled = 0;
  for (size_t k = len; k < len + GUARD; k++) {
    spoiled += block[k] != SENTINEL;
  }
  CHECK(spoiled == 0, "%s:%s, len %zu: %zu bytes written past the buffer", c->type->id, c->options,
        len, spoiled);
  if (len > 0) {
    size_t fit = strlen(full) < len - 1 ? strlen(full) : len - 1;
    int terminated = memchr(buf, '\0', len) != NULL;
    CHECK(terminated, "%s:%s, len %zu: not NUL-terminated", c->type->id, c->options, len);
    CHECK(terminated && strlen(buf) == fit && strncmp(buf, full, fit) == 0,
          "%s:%s, len %zu: '%.*s', expected the first %zu characters of '%s'", c->type->id,
          c->options, len, terminated ? (int)strlen(buf) : 0, buf, fit, full);
  }
  free(block);
}

static void check_config(const config *c)
{
  void *params = calloc(1, c->type->params_size);
  c->type->set_defaults(params);
  if (apply(c, params) == 0) {
    char full[FULL_MAX];
    c->type->format_options(params, full, sizeof full);
    CHECK(strlen(full) + 1 < sizeof full, "%s: %zu characters", c->type->id, strlen(full));
    CHECK(full[0] != '\0' || c->type == &mbdae_problem_wheelset, "%s:%s: empty", c->type->id,
          c->options);
    for (size_t len = 0; len <= strlen(full) + 2; len++) {
      check_length(c, params, full, len);
    }
  }
  free(params);
}

int main(void)
{
  for (int i = 0; i < NCONFIGS; i++) {
    check_config(&CONFIGS[i]);
  }
  return check_summary("test_spec_writers");
}
