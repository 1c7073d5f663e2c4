/* Side files of runs.csv: the final vector of a record of more than MBDAE_RECORD_INLINE_MAX
 * components, kept out of the CSV row (whose names, y and yref fields then read "@FILE").
 *
 * Format (one file per row, next to runs.csv):
 *   # mbdae record vectors: neq N
 *   i name y yref          (N lines, i = 1..N in order; y and yref %.17g, "nan" for a non-finite
 *                           value, "-" where the record has no such vector)
 * The reader checks every line and refuses a missing file, a wrong count, a bad name (not a
 * component name, record_component_name_ok: what would break runs.csv or its names field) or number
 * with "FILE:line: why". */
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "record_side.h"

int record_component_name_ok(const char *s, size_t n)
{
  if (n == 0 || n >= MBDAE_RECORD_ID_LEN) {
    return 0;
  }
  for (size_t i = 0; i < n; i++) {
    char c = s[i];
    if (!((c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_')) {
      return 0;
    }
  }
  return 1;
}

int record_side_name_ok(const char *s)
{
  if (!*s || *s == '.') {
    return 0;
  }
  for (; *s; s++) {
    if (!strchr("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_.-", *s)) {
      return 0;
    }
  }
  return 1;
}

static void side_number(FILE *out, const double *v, int i)
{
  if (!v) {
    fputs(" -", out);
  } else if (isfinite(v[i])) {
    fprintf(out, " %.17g", v[i]);
  } else {
    fputs(" nan", out);
  }
}

/* A new file beside path, opened O_CREAT | O_EXCL | O_NOFOLLOW (never an existing file or a
 * link's target), its name in tmp; -1 with errno when none could be made.  The name's tag mixes
 * the clock and this call's stack address (no state kept between calls); O_EXCL settles a clash. */
static int new_side_fd(const char *path, char *tmp, size_t len)
{
  for (int i = 0; i < 64; i++) {
    struct timespec ts;
    clock_gettime(CLOCK_REALTIME, &ts);
    unsigned long tag =
        (unsigned long)ts.tv_nsec ^ (unsigned long)(uintptr_t)&ts ^ ((unsigned long)i << 24);
    if (snprintf(tmp, len, "%s.%ld-%lx.tmp", path, (long)getpid(), tag) >= (int)len) {
      errno = ENAMETOOLONG;
      return -1;
    }
    int fd = open(tmp, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0666);
    if (fd >= 0 || errno != EEXIST) {
      return fd;
    }
  }
  errno = EEXIST;
  return -1;
}

static int write_side_lines(FILE *out, const mbdae_record *r)
{
  fprintf(out, "# mbdae record vectors: neq %d\n", r->neq);
  for (int i = 0; i < r->neq; i++) {
    fprintf(out, "%d %s", i + 1, r->names ? r->names[i] : "-");
    side_number(out, r->y, i);
    side_number(out, r->yref, i);
    fputc('\n', out);
  }
  return ferror(out) ? -1 : 0;
}

/* The side file is written whole into a new file beside path and renamed over path: a link planted
 * at path is replaced, never written through, and a failed write leaves what was at path as it
 * was. */
int record_side_write(const char *path, const mbdae_record *r)
{
  size_t len = strlen(path) + 64;
  char *tmp = malloc(len);
  if (!tmp) {
    return -1;
  }
  int fd = new_side_fd(path, tmp, len);
  FILE *out = fd >= 0 ? fdopen(fd, "w") : NULL;
  if (!out && fd >= 0) {
    close(fd);
  }
  int bad = !out || write_side_lines(out, r) != 0;
  bad = (out && fclose(out) != 0) || bad;
  if (!bad && rename(tmp, path) != 0) {
    bad = 1;
  }
  if (bad && fd >= 0) {
    remove(tmp);
  }
  free(tmp);
  return bad ? -1 : 0;
}

/* One component line "i name y yref" into slot i - 1 of what is asked for. */
static int side_line(char *line, long want_index, int what, void *out, char **name_at)
{
  char *fields[4], *save = NULL;
  int nf = 0;
  for (char *tok = strtok_r(line, " ", &save); tok; tok = strtok_r(NULL, " ", &save)) {
    if (nf == 4) {
      return -1;
    }
    fields[nf++] = tok;
  }
  char *end;
  if (nf != 4 || strtol(fields[0], &end, 10) != want_index || *end) {
    return -1;
  }
  int named = record_component_name_ok(fields[1], strlen(fields[1]));
  if (!named && (what == RECORD_SIDE_NAMES || strcmp(fields[1], "-") != 0)) {
    return -1; /* every line's name is checked, whichever column is read */
  }
  if (what == RECORD_SIDE_NAMES) {
    *name_at = fields[1];
    return 0;
  }
  const char *s = fields[what == RECORD_SIDE_Y ? 2 : 3];
  double v = strcmp(s, "nan") == 0 ? NAN : strtod(s, &end);
  if (strcmp(s, "nan") != 0 && (end == s || *end || !isfinite(v))) {
    return -1;
  }
  ((double *)out)[want_index - 1] = v;
  return 0;
}

enum { SIDE_LINE_MAX = 512 }; /* "i name y yref": at most 10 + 63 + 2 x 25 characters and blanks */

/* The next line of in into *line (as getline), read at most SIDE_LINE_MAX bytes: bounded while
 * it is read (a file in /proc says its size is 0, and one line of /proc/self/pagemap has
 * gigabytes).  Its length, 0 at the end, -1 for a longer line. */
static ssize_t side_getline(char **line, size_t *cap, FILE *in)
{
  if (*cap < SIDE_LINE_MAX + 1) {
    char *grown = realloc(*line, SIDE_LINE_MAX + 1);
    if (!grown) {
      return -1;
    }
    *line = grown;
    *cap = SIDE_LINE_MAX + 1;
  }
  size_t n = 0;
  for (int c; n < SIDE_LINE_MAX && (c = getc(in)) != EOF;) {
    (*line)[n++] = (char)c;
    if (c == '\n') {
      break;
    }
  }
  (*line)[n] = '\0';
  return n == SIDE_LINE_MAX && (*line)[n - 1] != '\n' ? -1 : (ssize_t)n;
}

/* The count line; the number of components, or -1. */
static long side_count(FILE *in, char **line, size_t *cap)
{
  long neq = -1;
  char *end;
  if (side_getline(line, cap, in) > 0 && strncmp(*line, "# mbdae record vectors: neq ", 28) == 0) {
    neq = strtol(*line + 28, &end, 10);
    neq = (*end == '\n' || *end == '\0') && neq > 0 && neq <= 1000000000L ? neq : -1;
  }
  return neq;
}

/* Names into one block as mbdae_record_init makes it: pointers, then the strings. */
static int keep_names(char **text, long n, size_t total, char ***out)
{
  char **names = malloc(sizeof(char *) * (size_t)n + total);
  if (!names) {
    return -1;
  }
  char *dst = (char *)(names + n);
  for (long i = 0; i < n; i++) {
    size_t len = strlen(text[i]) + 1;
    memcpy(dst, text[i], len);
    names[i] = dst;
    dst += len;
  }
  *out = names;
  return 0;
}

int record_side_read(const char *path, const char *shown, int what, void **out, long *n, char *why,
                     size_t len)
{
  *out = NULL;
  *n = 0;
  /* a regular file only: /dev/zero's endless line ate memory, a FIFO blocked (O_NONBLOCK: the
   * open does not wait for a writer) */
  struct stat st;
  int fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC), regular = 0;
  FILE *in =
      fd >= 0 && fstat(fd, &st) == 0 && (regular = S_ISREG(st.st_mode)) ? fdopen(fd, "r") : NULL;
  if (!in) {
    snprintf(why, len, "%s: %s", shown,
             fd >= 0 && !regular ? "not a regular file" : strerror(errno));
    if (fd >= 0) {
      close(fd);
    }
    return -1;
  }
  char *line = NULL;
  size_t cap = 0, total = 0;
  long neq = side_count(in, &line, &cap), i = 0;
  /* every component is a line of the file: a header that claims more components than the file
   * has bytes is refused before anything is allocated for them (a cut file still reads up to
   * where it ends, and says so) */
  int too_many = neq > (long)st.st_size;
  void *vals =
      neq > 0 && !too_many
          ? calloc((size_t)neq, what == RECORD_SIDE_NAMES ? sizeof(char *) : sizeof(double))
          : NULL;
  char **names = vals;
  int bad = !vals;
  for (ssize_t got; !bad && i < neq && (got = side_getline(&line, &cap, in)) > 0; i++) {
    line[got - (line[got - 1] == '\n')] = '\0';
    char *name = NULL;
    bad = side_line(line, i + 1, what, vals, &name) != 0;
    if (!bad && name) {
      names[i] = strdup(name);
      bad = !names[i];
      total += bad ? 0 : strlen(name) + 1;
    }
  }
  int extra = !bad && i == neq && side_getline(&line, &cap, in) != 0;
  if (neq <= 0 || bad || i < neq || extra) {
    long at = neq <= 0 || too_many ? 1 : (extra ? neq + 2 : (bad ? i + 1 : i + 2));
    snprintf(why, len, "%s:%ld: %s", shown, at,
             neq <= 0   ? "not '# mbdae record vectors: neq N'"
             : too_many ? "neq larger than the file can hold"
             : extra    ? "more lines than neq"
             : bad      ? "not 'i name y yref' for this component (name: [A-Za-z0-9_], at most 63)"
                        : "fewer lines than neq");
  }
  int rc = neq > 0 && !bad && i == neq && !extra ? 0 : -1;
  if (what == RECORD_SIDE_NAMES && names) {
    char **block = NULL;
    rc = rc == 0 ? keep_names(names, neq, total, &block) : rc;
    for (long k = 0; k < i; k++) {
      free(names[k]);
    }
    free(names);
    vals = block;
  }
  if (rc != 0) {
    free(vals);
    vals = NULL;
  }
  free(line);
  fclose(in);
  *out = vals;
  *n = rc == 0 ? neq : 0;
  return rc;
}
