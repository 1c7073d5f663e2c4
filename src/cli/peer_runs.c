/* Reading saved peer runs (peer_runs.h): JSON Lines, each line one flat object whose members are
 * strings, numbers, true/false/null or arrays of numbers (y, yref; skipped); scd and mescd are
 * null for a failed run.  The reader accepts
 * exactly that subset of JSON (RFC 8259) and checks every member it uses: the problem and solver
 * are plain ids, rtol is positive and finite, counters are non-negative integers, scd/mescd/CPU
 * are finite.  A line that breaks a rule is refused with path:line before anything is run. */
#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bounded_read.h"
#include "cli.h"
#include "peer_runs.h"

typedef struct cursor {
  const char *s;
  char why[128];
} cursor;

static void skip_space(cursor *c)
{
  while (isspace((unsigned char)*c->s)) {
    c->s++;
  }
}

static int fail(cursor *c, const char *why)
{
  snprintf(c->why, sizeof c->why, "%s", why);
  return -1;
}

/* A string without escapes (ids and messages of peerrun need none) into out[len]. */
static int read_string(cursor *c, char *out, size_t len)
{
  if (*c->s != '"') {
    return fail(c, "expected a string");
  }
  const char *end = strchr(c->s + 1, '"');
  if (!end || memchr(c->s + 1, '\\', (size_t)(end - c->s - 1))) {
    return fail(c, "unterminated string, or an escape (not expected in a peer run)");
  }
  size_t n = (size_t)(end - c->s - 1);
  if (out) {
    snprintf(out, len, "%.*s", (int)(n < len ? n : len - 1), c->s + 1);
  }
  c->s = end + 1;
  return 0;
}

static int read_number(cursor *c, double *v)
{
  char *end = NULL;
  errno = 0;
  *v = strtod(c->s, &end);
  if (end == c->s || errno == ERANGE || !isfinite(*v)) {
    return fail(c, "expected a finite number");
  }
  c->s = end;
  return 0;
}

/* Skip one value that the reader does not use (or check its form). */
static int skip_value(cursor *c)
{
  double v;
  if (*c->s == '"') {
    return read_string(c, NULL, 0);
  }
  if (*c->s == '[') {
    for (c->s++, skip_space(c); *c->s != ']';) {
      if (read_number(c, &v) != 0) {
        return -1;
      }
      skip_space(c);
      if (*c->s == ',') {
        c->s++, skip_space(c);
      } else if (*c->s != ']') {
        return fail(c, "expected ',' or ']' in an array");
      }
    }
    c->s++;
    return 0;
  }
  static const char *const words[] = {"true", "false", "null"};
  for (int k = 0; k < 3; k++) {
    if (strncmp(c->s, words[k], strlen(words[k])) == 0) {
      c->s += strlen(words[k]);
      return 0;
    }
  }
  return read_number(c, &v);
}

enum {
  HAVE_PROBLEM = 1,
  HAVE_SOLVER = 2,
  HAVE_RTOL = 4,
  HAVE_STATUS = 8,
  HAVE_SCD = 16,
  HAVE_MESCD = 32,
  HAVE_STEPS = 64,
  HAVE_NRES = 128,
  HAVE_CPU = 256,
  HAVE_ALL = 511
};

static int read_count(cursor *c, long *out)
{
  double v;
  if (read_number(c, &v) != 0 || v < 0.0 || v > 1e15 || v != floor(v)) {
    return fail(c, "a counter must be a non-negative integer");
  }
  *out = (long)v;
  return 0;
}

/* One member "key": value into r; *have gains the member's bit. */
static int read_member(cursor *c, peer_run *r, int *have)
{
  char key[32], status[16];
  if (read_string(c, key, sizeof key) != 0) {
    return -1;
  }
  skip_space(c);
  if (*c->s != ':') {
    return fail(c, "expected ':' after a key");
  }
  c->s++, skip_space(c);
  int rc;
  if (strcmp(key, "problem") == 0 || strcmp(key, "solver") == 0) {
    int is_problem = key[0] == 'p';
    char *id = is_problem ? r->problem : r->solver;
    rc = read_string(c, id, sizeof r->problem);
    if (rc == 0 && !mbdae_record_id_ok(id)) {
      rc = fail(c, "problem and solver must be plain ids");
    }
    *have |= is_problem ? HAVE_PROBLEM : HAVE_SOLVER;
  } else if (strcmp(key, "status") == 0) {
    rc = read_string(c, status, sizeof status);
    r->ok = strcmp(status, "ok") == 0;
    *have |= HAVE_STATUS;
  } else if (strcmp(key, "rtol") == 0) {
    rc = read_number(c, &r->rtol);
    if (rc == 0 && !(r->rtol > 0.0)) {
      rc = fail(c, "rtol must be positive");
    }
    *have |= HAVE_RTOL;
  } else if (strcmp(key, "scd") == 0 || strcmp(key, "mescd") == 0) {
    double *v = key[0] == 's' ? &r->scd : &r->mescd;
    if (strncmp(c->s, "null", 4) == 0) { /* a failed run has none */
      c->s += 4, *v = NAN, rc = 0;
    } else {
      rc = read_number(c, v);
    }
    *have |= key[0] == 's' ? HAVE_SCD : HAVE_MESCD;
  } else if (strcmp(key, "steps") == 0 || strcmp(key, "nres") == 0) {
    rc = read_count(c, key[0] == 's' ? &r->steps : &r->nres);
    *have |= key[0] == 's' ? HAVE_STEPS : HAVE_NRES;
  } else if (strcmp(key, "cpu_seconds") == 0) {
    rc = read_number(c, &r->cpu_seconds);
    *have |= HAVE_CPU;
  } else {
    rc = skip_value(c);
  }
  return rc;
}

static int read_object(cursor *c, peer_run *r)
{
  int have = 0;
  memset(r, 0, sizeof *r);
  skip_space(c);
  if (*c->s != '{') {
    return fail(c, "expected a JSON object");
  }
  for (c->s++, skip_space(c); *c->s != '}';) {
    if (read_member(c, r, &have) != 0) {
      return -1;
    }
    skip_space(c);
    if (*c->s == ',') {
      c->s++, skip_space(c);
    } else if (*c->s != '}') {
      return fail(c, "expected ',' or '}' after a member");
    }
  }
  c->s++, skip_space(c);
  if (*c->s != '\0') {
    return fail(c, "text after the object");
  }
  if (have != HAVE_ALL) {
    return fail(c, "a member is missing (problem, solver, rtol, status, scd, mescd, steps, nres, "
                   "cpu_seconds)");
  }
  return 0;
}

static int append(peer_run **runs, size_t *n, size_t *cap, const peer_run *r)
{
  if (*n == *cap) {
    size_t grown = *cap ? 2 * *cap : 64;
    peer_run *more = realloc(*runs, grown * sizeof **runs);
    if (!more) {
      return -1;
    }
    *runs = more, *cap = grown;
  }
  (*runs)[(*n)++] = *r;
  return 0;
}

/* The next line of f into *line (*cap > 0 bytes, grown as needed); 1, 0 at the end, -1 when
 * the line is over 16 MiB. */
static int next_line(FILE *f, char **line, size_t *cap)
{
  size_t used = 0;
  int ch;
  while ((ch = fgetc(f)) != EOF && ch != '\n') {
    if (used + 1 >= *cap) {
      size_t grown = 2 * *cap;
      char *more = grown < ((size_t)1 << 24) ? realloc(*line, grown) : NULL;
      if (!more) {
        return -1;
      }
      *line = more, *cap = grown;
    }
    (*line)[used++] = (char)ch;
  }
  (*line)[used] = '\0';
  return (ch == EOF && used == 0) ? 0 : 1;
}

int peer_runs_parse(FILE *f, const char *name, peer_run **runs, size_t *n, char *msg, size_t msglen)
{
  *runs = NULL, *n = 0;
  size_t cap = 4096, have = 0;
  char *line = malloc(cap);
  if (!line) {
    snprintf(msg, msglen, "%s: out of memory", name);
    return -1;
  }
  long lineno = 0;
  int rc = 0, more;
  while (rc == 0 && (more = next_line(f, &line, &cap)) != 0) {
    lineno++;
    cursor c = {.s = line};
    peer_run r;
    skip_space(&c);
    if (more >= 0 && *c.s != '\0' && read_object(&c, &r) == 0 && append(runs, n, &have, &r) != 0) {
      snprintf(c.why, sizeof c.why, "out of memory");
      more = -2;
    }
    if (more < 0 || c.why[0]) {
      snprintf(msg, msglen, "%s:%ld: %s", name, lineno, more == -1 ? "line too long" : c.why);
      rc = -1;
    }
  }
  free(line);
  if (rc != 0 || *n == 0) {
    if (rc == 0) {
      snprintf(msg, msglen, "%s: no peer runs in the file", name);
    }
    free(*runs);
    *runs = NULL, *n = 0;
    return -1;
  }
  return 0;
}

int peer_runs_read(const char *path, peer_run **runs, size_t *n, char *msg, size_t msglen)
{
  *runs = NULL, *n = 0;
  FILE *f = bounded_open(path, BOUNDED_SLACK);
  if (!f) {
    snprintf(msg, msglen, "%s: %s", path, errno == EINVAL ? "not a regular file" : strerror(errno));
    return -1;
  }
  int rc = peer_runs_parse(f, path, runs, n, msg, msglen);
  if (ferror(f)) { /* what was read before the error is not the file */
    snprintf(msg, msglen, "%s: %s", path,
             errno == EFBIG ? "more bytes than the file's size and 16 MiB: not a file of peer runs"
                            : strerror(errno));
    free(*runs);
    *runs = NULL, *n = 0;
    rc = -1;
  }
  fclose(f);
  return rc;
}

const peer_run *peer_runs_find(const peer_run *runs, size_t n, const char *problem,
                               const char *solver, double rtol)
{
  for (size_t i = 0; i < n; i++) {
    if (strcmp(runs[i].problem, problem) == 0 && strcmp(runs[i].solver, solver) == 0 &&
        fabs(runs[i].rtol - rtol) <= 1e-9 * rtol) {
      return &runs[i];
    }
  }
  return NULL;
}
