/* runs.csv: run records as RFC 4180 CSV, written and read through the one column table of
 * record.c (record_columns.h).
 *
 * Fields with commas, quotes or line breaks are quoted, quotes doubled; line breaks inside a
 * message become spaces, so that one record is one line and files concatenate.  Doubles are
 * written with %.17g, which reads back bit for bit; a missing value (NaN) is an empty field.  The
 * vectors y and yref and the component names are space-separated lists in one field each.  Every
 * row names where it was made in its last columns (mbdae_version, dependencies, machine, cpu), so
 * that any CSV reader reads the file as a header and runs, and shards concatenate with one header.
 * Older files had "# key: value" lines after the header instead: the reader still takes them
 * for the rows after them.
 *
 * The reader finds columns by name (any order, every column once; a column added later, such as
 * the drift figures, may be missing from an older file and reads as its table's `absent` text),
 * refuses anything the writer cannot have written, and says where: "name:line: why". */
#include <errno.h>
#include <float.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>

#include "record_columns.h"
#include "struct_size.h"
#include "record_side.h"

enum { MAX_FIELDS = 64 };

/* ---- writing ------------------------------------------------------------------------------ */

/* Text in one field; control characters (line breaks) become spaces. */
static void csv_text(FILE *out, const char *s)
{
  int quote = strpbrk(s, ",\"") != NULL;
  for (const char *c = s; *c && !quote; c++) {
    quote = (unsigned char)*c < 0x20;
  }
  if (!quote) {
    fputs(s, out);
    return;
  }
  fputc('"', out);
  for (; *s; s++) {
    if (*s == '"') {
      fputs("\"\"", out);
    } else {
      fputc((unsigned char)*s < 0x20 ? ' ' : *s, out);
    }
  }
  fputc('"', out);
}

static void csv_vector(FILE *out, const double *v, int n)
{
  for (int i = 0; v && i < n; i++) {
    if (isfinite(v[i])) {
      fprintf(out, "%s%.17g", i ? " " : "", v[i]);
    } else {
      fprintf(out, "%snan", i ? " " : "");
    }
  }
}

/* side: the side file holding the vectors ("@side" in their fields), or NULL: inline. */
static void csv_field(FILE *out, const mbdae_record *r, const record_column *c, const char *side)
{
  if (side && (c->kind == KIND_VECTOR || c->kind == KIND_NAMES) && record_pointer(r, c)) {
    fprintf(out, "@%s", side);
    return;
  }
  double v;
  switch (c->kind) {
  case KIND_ID:
  case KIND_TEXT:
  case KIND_ENV:
    csv_text(out, record_text(r, c));
    break;
  case KIND_STATUS:
    fputs(record_int(r, c) == MBDAE_OK ? "ok" : "fail", out);
    break;
  case KIND_CODE:
    fputs(mbdae_strcode(record_int(r, c)), out);
    break;
  case KIND_TOL:
  case KIND_REAL:
  case KIND_SECONDS:
  case KIND_LIMIT:
    if (isfinite(v = record_real(r, c))) {
      fprintf(out, "%.17g", v);
    }
    break;
  case KIND_COUNT:
    fprintf(out, "%ld", record_long(r, c));
    break;
  case KIND_REPEATS:
    fprintf(out, "%d", record_int(r, c));
    break;
  case KIND_VECTOR:
    csv_vector(out, record_pointer(r, c), r->neq);
    break;
  case KIND_NAMES: {
    char *const *names = record_pointer(r, c);
    for (int i = 0; names && i < r->neq; i++) {
      fprintf(out, "%s%s", i ? " " : "", names[i]);
    }
    break;
  }
  }
}

int mbdae_record_write_csv_header(FILE *out, const mbdae_environment *env)
{
  (void)env; /* each row has its environment in its columns */
  for (int c = 0; c < record_ncolumns; c++) {
    fprintf(out, "%s%s", c ? "," : "", record_columns[c].name);
  }
  fputc('\n', out);
  return ferror(out) ? -1 : 0;
}

static int write_row(FILE *out, const mbdae_record *rec, const char *side)
{
  for (int c = 0; c < record_ncolumns; c++) {
    if (c > 0) {
      fputc(',', out);
    }
    csv_field(out, rec, &record_columns[c], side);
  }
  fputc('\n', out);
  return ferror(out) ? -1 : 0;
}

int mbdae_record_write_csv_row(FILE *out, const mbdae_record *rec)
{
  mbdae_record full;
  return mbdae_record_take(rec, &full) == NULL ? write_row(out, &full, NULL) : -1;
}

int mbdae_record_write_csv_row_side(FILE *out, const mbdae_record *caller, const char *dir,
                                    const char *side_name)
{
  mbdae_record full;
  const mbdae_record *rec = &full;
  if (!out || mbdae_record_take(caller, &full) != NULL || !dir || !side_name ||
      !record_side_name_ok(side_name)) {
    return -1;
  }
  if (rec->neq <= MBDAE_RECORD_INLINE_MAX || (!rec->y && !rec->yref && !rec->names)) {
    return write_row(out, rec, NULL);
  }
  size_t len = strlen(dir) + strlen(side_name) + 2;
  char *path = malloc(len);
  int rc = path ? 0 : -1;
  if (path) {
    snprintf(path, len, "%s/%s", dir, side_name);
    rc = record_side_write(path, rec);
    free(path);
  }
  return rc == 0 ? write_row(out, rec, side_name) : -1;
}

/* ---- reading: fields ---------------------------------------------------------------------- */

/* Split one line into at most max fields (quotes removed, doubled quotes undone), in place;
 * returns the number of fields, or -1 for an unterminated quote or text after a closing one. */
static int csv_split(char *line, char **fields, int max)
{
  int n = 0;
  char *s = line;
  for (;;) {
    char *start = s, *dst = s;
    if (*s == '"') {
      for (s++;; s++) {
        if (*s == '\0') {
          return -1;
        }
        if (*s == '"' && s[1] != '"') {
          break;
        }
        s += *s == '"'; /* a doubled quote stands for one */
        *dst++ = *s;
      }
      s++;
      if (*s && *s != ',') {
        return -1;
      }
    }
    while (*s && *s != ',') {
      *dst++ = *s++;
    }
    char sep = *s;
    *dst = '\0';
    if (n == max) {
      return -1;
    }
    fields[n++] = start;
    if (sep != ',') {
      return n;
    }
    s++;
  }
}

/* A whole field as a finite number: no trailing text, no overflow.  An underflow (ERANGE with a
 * subnormal or zero result) is the nearest double, as %.17g wrote it: a subnormal y reads back. */
static int parse_real(const char *s, double *v)
{
  char *end = NULL;
  errno = 0;
  *v = strtod(s, &end);
  int underflow = errno == ERANGE && fabs(*v) < DBL_MIN;
  return end != s && *end == '\0' && (errno != ERANGE || underflow) && isfinite(*v) ? 0 : -1;
}

static int parse_long(const char *s, long lo, long hi, long *v)
{
  char *end = NULL;
  errno = 0;
  *v = strtol(s, &end, 10);
  return end != s && *end == '\0' && errno != ERANGE && *v >= lo && *v <= hi ? 0 : -1;
}

/* The code whose MBDAE_ name is s (MBDAE_OK included); -1 when s names none. */
static int parse_code(const char *s, int *code)
{
#define MBDAE_LOOKUP_ENTRY(name, value, text)                                                      \
  if (strcmp(s, #name) == 0) {                                                                     \
    *code = value;                                                                                 \
    return 0;                                                                                      \
  }
  MBDAE_ERROR_TABLE(MBDAE_LOOKUP_ENTRY)
#undef MBDAE_LOOKUP_ENTRY
  return -1;
}

/* Items of a space-separated list (no empty item, no leading or trailing space); -1 if bad. */
static long count_items(const char *s)
{
  if (!*s) {
    return 0;
  }
  long n = 1;
  for (const char *c = s; *c; c++) {
    if (*c == ' ' && (c == s || c[1] == ' ' || c[1] == '\0')) {
      return -1;
    }
    n += *c == ' ';
  }
  return n;
}

/* A list of numbers ("nan" for a non-finite one) into a new array of *n values. */
static int read_vector(const char *s, double **out, long *n)
{
  *n = count_items(s);
  *out = NULL;
  if (*n <= 0) {
    return *n < 0 || s[0] ? -1 : 0;
  }
  double *v = malloc(sizeof(double) * (size_t)*n);
  char item[64];
  for (long i = 0; v && i < *n; i++) {
    size_t len = strcspn(s, " ");
    int bad = len >= sizeof item;
    if (!bad) {
      memcpy(item, s, len);
      item[len] = '\0';
      bad = strcmp(item, "nan") == 0 ? (v[i] = NAN, 0) : parse_real(item, &v[i]);
    }
    if (bad) {
      free(v);
      return -1;
    }
    s += len + (s[len] == ' ');
  }
  *out = v;
  return v ? 0 : -1;
}

/* A list of names into one block (pointers, then the strings), as mbdae_record_init makes it. */
static int read_names(const char *s, char ***out, long *n)
{
  *n = count_items(s);
  *out = NULL;
  if (*n <= 0) {
    return *n < 0 ? -1 : 0;
  }
  size_t text = strlen(s) + 1;
  char **names = malloc(sizeof(char *) * (size_t)*n + text);
  if (!names) {
    return -1;
  }
  char *dst = (char *)(names + *n);
  memcpy(dst, s, text);
  for (long i = 0; i < *n; i++) {
    size_t len = strcspn(dst, " ");
    if (!record_component_name_ok(dst, len)) {
      free(names);
      return -1;
    }
    names[i] = dst;
    dst[len] = '\0';
    dst += len + 1;
  }
  *out = names;
  return 0;
}

/* What a column accepts, for messages. */
static const char *expected(column_kind kind)
{
  switch (kind) {
  case KIND_ID:
    return "a name of [A-Za-z0-9_:=,.+-]";
  case KIND_TEXT:
  case KIND_ENV:
    return "text";
  case KIND_STATUS:
    return "ok or fail";
  case KIND_CODE:
    return "an MBDAE_ code name (MBDAE_OK, MBDAE_ERR_...)";
  case KIND_TOL:
    return "a positive finite number";
  case KIND_REAL:
    return "a finite number or nothing";
  case KIND_SECONDS:
    return "a number >= 0 or nothing";
  case KIND_LIMIT:
    return "a finite number >= 0";
  case KIND_COUNT:
  case KIND_REPEATS:
    return "a whole number >= 0";
  case KIND_VECTOR:
    return "space-separated numbers (nan for a non-finite one) or nothing";
  case KIND_NAMES:
    return "space-separated names of [A-Za-z0-9_] (at most 63 characters) or nothing";
  }
  return "valid";
}

/* What one row's fields say beyond the record: the status column, the lengths of the lists. */
typedef struct row_extra {
  int ok;             /* status column: 1 ok, 0 fail */
  long count;         /* length of the first list read, -1 before one */
  int mixed;          /* two lists of different lengths */
  const char *dir;    /* where side files are ("@FILE" fields) */
  char side_why[400]; /* why a side file was refused */
} row_extra;

/* A list field "@FILE": the list from the side file FILE next to runs.csv; 0, -1 (not a side
 * file name) or -2 (the file refused: why in x->side_why). */
static int side_field(const record_column *c, const char *s, row_extra *x, void **out, long *n)
{
  if (!record_side_name_ok(s + 1)) {
    return -1;
  }
  size_t len = strlen(x->dir) + strlen(s) + 1;
  char *path = malloc(len);
  if (!path) {
    snprintf(x->side_why, sizeof x->side_why, "out of memory");
    return -2;
  }
  snprintf(path, len, "%s/%s", x->dir, s + 1);
  int what = c->kind == KIND_NAMES                    ? RECORD_SIDE_NAMES
             : c->offset == offsetof(mbdae_record, y) ? RECORD_SIDE_Y
                                                      : RECORD_SIDE_YREF;
  int rc = record_side_read(path, path, what, out, n, x->side_why, sizeof x->side_why);
  free(path);
  return rc == 0 ? 0 : -2;
}

static void note_count(row_extra *x, long n)
{
  if (n > 0) {
    x->mixed = x->mixed || (x->count >= 0 && x->count != n);
    x->count = n;
  }
}

/* Store text s in column c of r; 0, or -1 (s not what the column takes). */
static int store_field(mbdae_record *r, const record_column *c, const char *s, row_extra *x)
{
  char *dst = (char *)r + c->offset;
  double v = NAN;
  long n = 0;
  int code = 0;
  switch (c->kind) {
  case KIND_ID:
  case KIND_TEXT:
  case KIND_ENV:
    if (strlen(s) >= c->size || (c->kind == KIND_ID && !mbdae_record_id_ok(s))) {
      return -1;
    }
    memcpy(dst, s, strlen(s) + 1);
    return 0;
  case KIND_STATUS:
    x->ok = strcmp(s, "ok") == 0;
    return x->ok || strcmp(s, "fail") == 0 ? 0 : -1;
  case KIND_CODE:
    if (parse_code(s, &code) != 0 || code > 0) {
      return -1;
    }
    memcpy(dst, &code, sizeof code);
    return 0;
  case KIND_TOL:
  case KIND_REAL:
  case KIND_SECONDS:
  case KIND_LIMIT:
    if ((*s || c->kind == KIND_TOL || c->kind == KIND_LIMIT) && parse_real(s, &v) != 0) {
      return -1;
    }
    memcpy(dst, &v, sizeof v);
    return (c->kind == KIND_TOL && !(v > 0.0)) || (c->kind != KIND_REAL && v < 0.0) ? -1 : 0;
  case KIND_COUNT:
  case KIND_REPEATS:
    if (parse_long(s, 0, c->kind == KIND_COUNT ? RECORD_COUNT_MAX : MBDAE_REPEATS_MAX, &n) != 0) {
      return -1;
    }
    if (c->kind == KIND_COUNT) {
      memcpy(dst, &n, sizeof n);
    } else {
      memcpy(dst, &(int){(int)n}, sizeof(int));
    }
    return 0;
  case KIND_VECTOR: {
    double *vec = NULL;
    int rc = s[0] == '@' ? side_field(c, s, x, (void **)&vec, &n) : read_vector(s, &vec, &n);
    memcpy(dst, &vec, sizeof vec);
    note_count(x, n);
    return rc;
  }
  case KIND_NAMES: {
    char **names = NULL;
    int rc = s[0] == '@' ? side_field(c, s, x, (void **)&names, &n) : read_names(s, &names, &n);
    memcpy(dst, &names, sizeof names);
    note_count(x, n);
    return rc;
  }
  }
  return -1;
}

static void field_error(const record_column *c, const char *s, char *why, size_t len)
{
  snprintf(why, len, "column %s: '%.40s%s' is not %s", c->name, s, strlen(s) > 40 ? "..." : "",
           expected(c->kind));
  if (c->kind == KIND_ID || c->kind == KIND_TEXT || c->kind == KIND_ENV) {
    size_t used = strlen(why);
    snprintf(why + used, len - used, " under %zu characters", c->size);
  }
}

/* The row's fields together: status and code agree, the lists have one length (names with y),
 * the spec is the problem's (its id, alone or before ':'). */
static int check_row(mbdae_record *r, const row_extra *x, char *why, size_t len)
{
  size_t n = strlen(r->problem);
  if (x->ok != (r->status == MBDAE_OK)) {
    snprintf(why, len, "status %s with code %s", x->ok ? "ok" : "fail", mbdae_strcode(r->status));
  } else if (x->mixed) {
    snprintf(why, len, "names, y and yref of different lengths");
  } else if (r->y && !r->names) {
    snprintf(why, len, "y without names");
  } else if (x->count > 1000000000L) {
    snprintf(why, len, "vectors of %ld values", x->count);
  } else if (strncmp(r->spec, r->problem, n) != 0 || (r->spec[n] != '\0' && r->spec[n] != ':')) {
    snprintf(why, len, "spec %.60s is not a configuration of problem %.31s", r->spec, r->problem);
  } else {
    r->neq = x->count > 0 ? (int)x->count : 0;
    return 0;
  }
  return -1;
}

/* ---- reading: lines ----------------------------------------------------------------------- */

/* Where the reader is: the header's column positions, the environment of the rows to come and
 * the records read so far. */
typedef struct reader {
  int where[MAX_FIELDS]; /* where[c]: the field of column c, -1 when the header lacks it */
  int nfields;           /* fields of the header */
  int have_header;
  mbdae_environment env;
  mbdae_record *recs;
  size_t n, cap;
  char dir[4096];               /* the directory of the file read: where its side files are */
  mbdae_record_check_fn *check; /* the caller's check of every row, or NULL */
  void *check_ctx;
} reader;

/* A header line: every column of the table once, nothing else. */
static int read_header(reader *rd, char **fields, int nf, char *why, size_t len)
{
  for (int c = 0; c < record_ncolumns; c++) {
    rd->where[c] = -1;
  }
  for (int k = 0; k < nf; k++) {
    int c = 0;
    while (c < record_ncolumns && strcmp(fields[k], record_columns[c].name) != 0) {
      c++;
    }
    if (c == record_ncolumns || rd->where[c] >= 0) {
      snprintf(why, len, "%s column '%.40s' in the header",
               c == record_ncolumns ? "unknown" : "repeated", fields[k]);
      return -1;
    }
    rd->where[c] = k;
  }
  for (int c = 0; c < record_ncolumns; c++) {
    if (rd->where[c] < 0 && !record_columns[c].absent) {
      snprintf(why, len, "the header has no column '%s'", record_columns[c].name);
      return -1;
    }
  }
  rd->nfields = nf;
  rd->have_header = 1;
  return 0;
}

/* One data line into a new record at the end of rd->recs. */
static int read_row(reader *rd, char **fields, int nf, char *why, size_t len)
{
  if (nf != rd->nfields) {
    snprintf(why, len, "%d fields, the header has %d", nf, rd->nfields);
    return -1;
  }
  if (rd->n == rd->cap) {
    size_t cap = rd->cap ? 2 * rd->cap : 64;
    mbdae_record *grown = realloc(rd->recs, sizeof *grown * cap);
    if (!grown) {
      snprintf(why, len, "out of memory");
      return -1;
    }
    rd->recs = grown;
    rd->cap = cap;
  }
  mbdae_record *r = &rd->recs[rd->n];
  memset(r, 0, sizeof *r);
  r->size = sizeof *r;
  r->env = rd->env;
  row_extra x = {.count = -1, .dir = rd->dir};
  int rc = 0;
  for (int c = 0; c < record_ncolumns && rc == 0; c++) {
    if (rd->where[c] < 0 && record_columns[c].kind == KIND_ENV) {
      continue; /* an older file: the "# key: value" lines gave it (r->env) */
    }
    const char *s = rd->where[c] >= 0 ? fields[rd->where[c]] : record_columns[c].absent;
    if ((rc = store_field(r, &record_columns[c], s, &x)) == -2) {
      snprintf(why, len, "column %s: %.400s", record_columns[c].name, x.side_why);
    } else if (rc != 0) {
      field_error(&record_columns[c], s, why, len);
    }
  }
  rc = rc == 0 ? check_row(r, &x, why, len) : rc;
  rc = rc == 0 && rd->check ? (rd->check(rd->check_ctx, r, why, len) != 0 ? -1 : 0) : rc;
  if (rc != 0) {
    mbdae_record_free(r);
    return -1;
  }
  rd->n++;
  return 0;
}

/* "# key: value": the environment of the rows after it; other comments are skipped. */
static void read_comment(reader *rd, const char *line)
{
  static const struct {
    const char *key;
    size_t offset, size;
  } keys[] = {
      {"# mbdae: ", offsetof(mbdae_environment, mbdae), sizeof rd->env.mbdae},
      {"# dependencies: ", offsetof(mbdae_environment, dependencies), sizeof rd->env.dependencies},
      {"# machine: ", offsetof(mbdae_environment, machine), sizeof rd->env.machine},
      {"# cpu: ", offsetof(mbdae_environment, cpu), sizeof rd->env.cpu},
  };
  for (size_t k = 0; k < sizeof keys / sizeof keys[0]; k++) {
    size_t n = strlen(keys[k].key);
    if (strncmp(line, keys[k].key, n) == 0) {
      snprintf((char *)&rd->env + keys[k].offset, keys[k].size, "%s", line + n);
    }
  }
}

/* One line of text (len bytes, no line break): a comment, the header or a row. */
static int read_line(reader *rd, char *line, size_t len, char *why, size_t whylen)
{
  char *fields[MAX_FIELDS];
  if (strlen(line) != len) {
    snprintf(why, whylen, "a NUL byte in the line");
    return -1;
  }
  if (line[0] == '#') {
    read_comment(rd, line);
    return 0;
  }
  int nf = csv_split(line, fields, MAX_FIELDS);
  if (nf < 0) {
    snprintf(why, whylen, "not a CSV record (a stray quote, over %d fields)", MAX_FIELDS);
    return -1;
  }
  for (int c = 0; c < record_ncolumns; c++) { /* a header starts with a column's name */
    if (strcmp(fields[0], record_columns[c].name) == 0) {
      return read_header(rd, fields, nf, why, whylen); /* the first, or a shard's */
    }
  }
  if (!rd->have_header) {
    snprintf(why, whylen, "a header line (problem,spec,solver,...) must come first");
    return -1;
  }
  return read_row(rd, fields, nf, why, whylen);
}

int mbdae_record_read_csv_sized(FILE *in, const char *name, size_t rec_size, mbdae_record **recs,
                                size_t *n, char *msg, size_t msglen)
{
  return mbdae_record_read_csv_checked_sized(in, name, rec_size, NULL, NULL, recs, n, msg, msglen);
}

int mbdae_record_read_csv_checked_sized(FILE *in, const char *name, size_t rec_size,
                                        mbdae_record_check_fn *check, void *ctx,
                                        mbdae_record **recs, size_t *n, char *msg, size_t msglen)
{
  /* The first record with a size is this library's: the only stride there is yet. */
  const char *bad = mbdae_struct_size_invalid(rec_size, sizeof(mbdae_record), sizeof(mbdae_record));
  if (bad) {
    *recs = NULL;
    *n = 0;
    snprintf(msg, msglen, "%s: mbdae_record: %s", name ? name : "(stream)", bad);
    return -1;
  }
  reader rd;
  memset(&rd, 0, sizeof rd);
  rd.check = check;
  rd.check_ctx = ctx;
  char *line = NULL, why[600];
  size_t linecap = 0;
  ssize_t len;
  long lineno = 0;
  int rc = 0;
  *recs = NULL;
  *n = 0;
  name = name ? name : "(stream)";
  const char *slash = strrchr(name, '/');
  snprintf(rd.dir, sizeof rd.dir, "%.*s", slash ? (int)(slash - name) : 1, slash ? name : ".");
  if (slash == name) {
    snprintf(rd.dir, sizeof rd.dir, "/");
  }
  while (rc == 0 && (len = getline(&line, &linecap, in)) >= 0) {
    lineno++;
    while (len > 0 && (line[len - 1] == '\n' || line[len - 1] == '\r')) {
      line[--len] = '\0';
    }
    if (len > 0 && read_line(&rd, line, (size_t)len, why, sizeof why) != 0) {
      snprintf(msg, msglen, "%s:%ld: %s", name, lineno, why);
      rc = -1;
    }
  }
  if (rc == 0 && ferror(in)) {
    snprintf(msg, msglen, "%s: %s", name, strerror(errno));
    rc = -1;
  }
  free(line);
  if (rc != 0) {
    mbdae_records_free(rd.recs, rd.n);
    return -1;
  }
  *recs = rd.recs;
  *n = rd.n;
  return 0;
}
