/* A run record as one JSON object (RFC 8259): the keys are the runs.csv columns of the table in
 * record.c, in its order (the environment last: mbdae_version, dependencies, machine, cpu). Numbers
 * are written with %.17g (they read back bit for bit); JSON has no NaN, so a missing number is
 * null, and so is a missing list (y of a run that never started, yref of a problem without a
 * reference). */
#include <math.h>

#include "record_columns.h"

void mbdae_json_write_string(FILE *out, const char *s)
{
  fputc('"', out);
  for (; *s; s++) {
    unsigned char c = (unsigned char)*s;
    if (c == '"' || c == '\\') {
      fprintf(out, "\\%c", c);
    } else if (c < 0x20) {
      fprintf(out, "\\u%04x", c);
    } else {
      fputc(c, out);
    }
  }
  fputc('"', out);
}

void mbdae_json_write_number(FILE *out, double v)
{
  if (isfinite(v)) {
    fprintf(out, "%.17g", v);
  } else {
    fputs("null", out);
  }
}

static void json_list(FILE *out, const record_column *c, const mbdae_record *r)
{
  const void *list = record_pointer(r, c);
  if (!list) {
    fputs("null", out);
    return;
  }
  fputc('[', out);
  for (int i = 0; i < r->neq; i++) {
    fputs(i ? ", " : "", out);
    if (c->kind == KIND_NAMES) {
      mbdae_json_write_string(out, ((char *const *)list)[i]);
    } else {
      mbdae_json_write_number(out, ((const double *)list)[i]);
    }
  }
  fputc(']', out);
}

static void json_value(FILE *out, const record_column *c, const mbdae_record *r)
{
  switch (c->kind) {
  case KIND_ID:
  case KIND_TEXT:
  case KIND_ENV:
    mbdae_json_write_string(out, record_text(r, c));
    break;
  case KIND_STATUS:
    mbdae_json_write_string(out, record_int(r, c) == MBDAE_OK ? "ok" : "fail");
    break;
  case KIND_CODE:
    mbdae_json_write_string(out, mbdae_strcode(record_int(r, c)));
    break;
  case KIND_TOL:
  case KIND_REAL:
  case KIND_SECONDS:
  case KIND_LIMIT:
    mbdae_json_write_number(out, record_real(r, c));
    break;
  case KIND_COUNT:
    fprintf(out, "%ld", record_long(r, c));
    break;
  case KIND_REPEATS:
    fprintf(out, "%d", record_int(r, c));
    break;
  case KIND_VECTOR:
  case KIND_NAMES:
    json_list(out, c, r);
    break;
  }
}

int mbdae_record_write_json(FILE *out, const mbdae_record *caller)
{
  mbdae_record full;
  if (mbdae_record_take(caller, &full) != NULL) {
    return -1;
  }
  const mbdae_record *rec = &full;
  fputc('{', out);
  for (int c = 0; c < record_ncolumns; c++) {
    fprintf(out, "%s\"%s\": ", c ? ", " : "", record_columns[c].name);
    json_value(out, &record_columns[c], rec);
  }
  fputc('}', out);
  return ferror(out) ? -1 : 0;
}
