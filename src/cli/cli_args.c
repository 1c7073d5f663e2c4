/* Argument helpers of the mbdae command: numbers, option values (--opt value and --opt=value),
 * names and the nearest valid one to a misspelt name, the storage of the iteration matrix
 * (--linsys). */
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"

int usage_error(const char *fmt, ...)
{
  va_list ap;
  va_start(ap, fmt);
  fputs("mbdae: ", stderr);
  vfprintf(stderr, fmt, ap);
  fputc('\n', stderr);
  va_end(ap);
  return EXIT_USAGE;
}

int parse_positive(const char *option, const char *text, double *out)
{
  char *end = NULL;
  errno = 0;
  double v = strtod(text, &end);
  if (end == text || *end != '\0' || errno == ERANGE) {
    usage_error("%s expects a positive number, got '%s'", option, text);
    return -1;
  }
  if (!isfinite(v) || !(v > 0.0)) {
    usage_error("%s must be positive and finite, got '%s'", option, text);
    return -1;
  }
  *out = v;
  return 0;
}

int parse_rtol(const char *option, const char *text, double *out)
{
  if (parse_positive(option, text, out) != 0) {
    return -1;
  }
  if (!(*out < 1.0)) {
    usage_error("%s must be below 1 (a relative error of 100%%), got '%s'", option, text);
    return -1;
  }
  return 0;
}

int parse_int(const char *option, const char *text, int lo, int hi, int *out)
{
  char *end = NULL;
  errno = 0;
  long v = strtol(text, &end, 10);
  if (end == text || *end != '\0' || errno == ERANGE || v < lo || v > hi) {
    usage_error("%s expects an integer from %d to %d, got '%s'", option, lo, hi, text);
    return -1;
  }
  *out = (int)v;
  return 0;
}

/* Optimal string alignment distance between a[0..la) and b[0..lb), at most 64 characters each
 * (longer: a large value). */
static size_t edit_distance(const char *a, size_t la, const char *b, size_t lb)
{
  enum { MAX = 64 };
  if (la > MAX || lb > MAX) {
    return (size_t)-1;
  }
  size_t d[MAX + 1][MAX + 1];
  for (size_t i = 0; i <= la; i++) {
    for (size_t j = 0; j <= lb; j++) {
      if (i == 0 || j == 0) {
        d[i][j] = i + j;
        continue;
      }
      size_t best = d[i - 1][j - 1] + (a[i - 1] != b[j - 1]);
      best = d[i - 1][j] + 1 < best ? d[i - 1][j] + 1 : best;
      best = d[i][j - 1] + 1 < best ? d[i][j - 1] + 1 : best;
      if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] &&
          d[i - 2][j - 2] + 1 < best) {
        best = d[i - 2][j - 2] + 1;
      }
      d[i][j] = best;
    }
  }
  return d[la][lb];
}

const char *closest_name(const char *word, size_t len, const char *const *names, int n)
{
  size_t limit = len <= 4 ? 1 : len <= 8 ? 2 : 3, best = limit + 1;
  const char *found = NULL;
  int ties = 0;
  for (int k = 0; k < n; k++) {
    size_t d = edit_distance(word, len, names[k], strlen(names[k]));
    if (d < best) {
      best = d, found = names[k], ties = 0;
    } else if (d == best) {
      ties++;
    }
  }
  return ties ? NULL : found;
}

int normalise_args(const cli_command *c, int argc, char **argv, int *out_argc, char ***out_argv)
{
  size_t bytes = sizeof(char *) * (2 * (size_t)argc + 1);
  for (int i = 0; i < argc; i++) {
    bytes += strlen(argv[i]) + 1;
  }
  char **out = malloc(bytes);
  if (!out) {
    usage_error("out of memory");
    return -1;
  }
  char *names = (char *)(out + 2 * (size_t)argc + 1);
  int n = 0, help = 0;
  for (int i = 0; i < argc; i++) {
    char *arg = argv[i];
    const char *eq = strchr(arg, '=');
    size_t len = eq ? (size_t)(eq - arg) : strlen(arg);
    const cli_option *o = strncmp(arg, "--", 2) == 0 ? cli_option_find(c, arg, len) : NULL;
    out[n++] = arg;
    if (i == 0 || strncmp(arg, "--", 2) != 0 || strcmp(arg, "--") == 0) {
      help |= i > 0 && strcmp(arg, "-h") == 0;
    } else if (!o && (eq || strcmp(arg, "--help") != 0)) {
      free(out);
      unknown_option(c->name, arg);
      return -1;
    } else if (!o) {
      help = 1;
    } else if (eq && !o->value) {
      free(out);
      usage_error("option %s takes no value, got '%s'", o->name, arg);
      return -1;
    } else if (eq) { /* --opt=value: the name copied, the value where it stands */
      memcpy(names, arg, len);
      names[len] = '\0';
      out[n - 1] = names;
      names += len + 1;
      out[n++] = arg + len + 1;
    } else if (o->value && i + 1 < argc) {
      out[n++] = argv[++i]; /* the value, whatever it looks like */
    }
  }
  out[n] = NULL;
  *out_argc = n;
  *out_argv = out;
  return help;
}

const char *option_value(int argc, char **argv, int *i)
{
  if (*i + 1 >= argc) {
    usage_error("option %s needs a value", argv[*i]);
    return NULL;
  }
  *i += 1;
  return argv[*i];
}

int copy_value(const char *option, const char *text, char *buf, size_t len)
{
  size_t need = strlen(text);
  if (need >= len) {
    usage_error("%s: the value is too long (%zu characters, at most %zu)", option, need, len - 1);
    return -1;
  }
  memcpy(buf, text, need + 1);
  return 0;
}

int split_items(const char *option, const char *text, char *buf, size_t len, const char **items,
                int max)
{
  if (copy_value(option, text, buf, len) != 0) {
    return -1;
  }
  int n = 0;
  for (char *item = buf, *next = NULL; item; item = next) {
    char *comma = strchr(item, ',');
    next = comma ? comma + 1 : NULL;
    if (comma) {
      *comma = '\0';
    }
    if (item[0] == '\0') {
      usage_error("%s expects a comma-separated list without empty items, got '%s'", option, text);
      return -1;
    }
    if (n == max) {
      usage_error("%s takes at most %d items, got '%s'", option, max, text);
      return -1;
    }
    items[n++] = item;
  }
  return n;
}

int parse_linsys(const char *option, const char *text, int *out)
{
  for (int kind = MBDAE_JAC_AUTO; mbdae_jac_kind_name(kind); kind++) {
    if (strcmp(text, mbdae_jac_kind_name(kind)) == 0) {
      *out = kind;
      return 0;
    }
  }
  usage_error("%s expects auto, dense, band, sparse or condensed, got '%s'", option, text);
  return -1;
}

const char *linsys_used(const mbdae_problem *p, const char *solver, int linsys)
{
  return mbdae_jac_kind_name(mbdae_linsys_resolve(p, cli_solver_find(solver), linsys));
}

/* "; did you mean NAME?" when there is a near name, and the end of the line. */
static void print_suggestion(const char *near)
{
  fprintf(stderr, "%s%s%s\n", near ? "; did you mean " : "", near ? near : "", near ? "?" : "");
}

int check_solver(const char *name)
{
  if (cli_solver_find(name)) {
    return 0;
  }
  const char *names[64];
  int n = 0;
  for (int i = 0; i < mbdae_solver_count() && n < 64; i++) {
    names[n++] = mbdae_solver_id(i);
  }
  for (int i = 0; i < plugin_solver_count() && n < 64; i++) {
    names[n++] = plugin_solver(i)->id;
  }
  const char *near = closest_name(name, strlen(name), names, n);
  fprintf(stderr, "mbdae: unknown solver '%s'; valid solvers:", name);
  for (int i = 0; i < mbdae_solver_count(); i++) {
    fprintf(stderr, "%s %s", i ? "," : "", mbdae_solver_id(i));
  }
  for (int i = 0; i < plugin_solver_count(); i++) {
    fprintf(stderr, ", %s (--plugin %s)", plugin_solver(i)->id, plugin_solver_file(i));
  }
  print_suggestion(near);
  return -1;
}

/* The library's message for an unknown problem names the built-in ones; add the plug-ins', and
 * the nearest problem id when the id of spec is none (a typo). */
static void print_problem_error(const char *spec, const char *msg)
{
  const char *names[64];
  int n = 0, known = 0;
  size_t len = strcspn(spec, ":");
  for (int i = 0; i < mbdae_problem_count() && n < 64; i++) {
    names[n++] = mbdae_problem_id(i);
  }
  for (int i = 0; i < plugin_problem_count() && n < 64; i++) {
    names[n++] = plugin_problem(i)->id;
  }
  for (int k = 0; k < n; k++) {
    known |= strlen(names[k]) == len && strncmp(names[k], spec, len) == 0;
  }
  const char *near = known ? NULL : closest_name(spec, len, names, n);
  fprintf(stderr, "mbdae: %s", msg);
  for (int i = 0; i < plugin_problem_count(); i++) {
    fprintf(stderr, "%s%s (--plugin %s)", i ? ", " : "; plug-in problems: ", plugin_problem(i)->id,
            plugin_problem_file(i));
  }
  print_suggestion(near);
}

mbdae_problem *open_problem(const char *spec)
{
  mbdae_problem *p = NULL;
  char msg[512];
  const char *colon = strchr(spec, ':');
  const mbdae_problem_type *type =
      plugin_problem_find(spec, colon ? (size_t)(colon - spec) : strlen(spec));
  if (type && colon) {
    usage_error("%s: %s is a plug-in problem, which takes no key=value options", spec, type->id);
    return NULL;
  }
  int rc = type ? mbdae_problem_from_type(type, NULL, &p, msg, sizeof msg)
                : mbdae_problem_create(spec, &p, msg, sizeof msg);
  if (rc != 0) {
    print_problem_error(spec, msg);
    return NULL;
  }
  return p;
}

void warn_inconsistent_start(const mbdae_problem *p)
{
  size_t n = (size_t)mbdae_problem_neq(p);
  double *y = malloc(sizeof(double) * 2 * n);
  double rabs = 0.0, rrel = 0.0;
  int rc = y ? mbdae_problem_init(p, y, y + n) : MBDAE_ERR_NOMEM;
  if (rc == 0) {
    rc = mbdae_problem_residual_size(p, mbdae_problem_t0(p), y, y + n, &rabs, &rrel);
  }
  free(y);
  if (rc != 0) {
    fprintf(stderr,
            "mbdae: warning: the residual at the initial values of %s cannot be measured: %s\n",
            mbdae_problem_spec(p), mbdae_strerror(rc));
  } else if (!(rrel <= INITIAL_RESIDUAL_REL_TOL)) {
    fprintf(stderr,
            "mbdae: warning: the initial values of %s are not consistent: max |F| = %.3e, "
            "max |F_i| / size of terms = %.3e > %g; the run starts from them anyway (see mbdae "
            "check)\n",
            mbdae_problem_spec(p), rabs, rrel, INITIAL_RESIDUAL_REL_TOL);
  }
}
