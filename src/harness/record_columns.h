/* The column table of a run record (mbdae_record): one entry per runs.csv column, in order, with
 * how the field is written and what the reader accepts.  The CSV writer and reader
 * (record_csv.c) and the JSON writer (record_json.c) all go through it, so that a column is named,
 * placed and checked in one place; doc/command.md, "Run records", documents it. */
#ifndef MBDAE_RECORD_COLUMNS_H
#define MBDAE_RECORD_COLUMNS_H

#include <stddef.h>

#include "mbdae/mbdae.h"

typedef enum column_kind {
  KIND_ID,      /* a name, mbdae_record_id_ok, under size characters */
  KIND_TEXT,    /* free text under size characters, RFC 4180 quoted when needed */
  KIND_ENV,     /* as KIND_TEXT, a field of the environment; an older file without the column
                   gives it in "# key: value" lines after its header instead */
  KIND_STATUS,  /* "ok" or "fail": whether the int status is MBDAE_OK */
  KIND_CODE,    /* the MBDAE_ name of the int status (mbdae_strcode) */
  KIND_TOL,     /* a positive finite double */
  KIND_REAL,    /* a finite double, or empty for NaN (scd, mescd, t, h) */
  KIND_SECONDS, /* a finite double >= 0, or empty for NaN (CPU times, drift) */
  KIND_LIMIT,   /* a finite double >= 0 (hmax: 0 is no limit) */
  KIND_COUNT,   /* a long from 0 to RECORD_COUNT_MAX */
  KIND_REPEATS, /* an int from 0 to MBDAE_REPEATS_MAX */
  KIND_VECTOR,  /* double *[neq]: space-separated numbers ("nan" for a non-finite one); empty: NULL
                 */
  KIND_NAMES    /* char **[neq]: space-separated names of [A-Za-z0-9_]; empty: NULL */
} column_kind;

typedef struct record_column {
  const char *name; /* header of runs.csv, key of JSON */
  column_kind kind;
  size_t offset, size; /* of the field in mbdae_record */
  /* What the reader takes for the column when a header lacks it (a file written before the
   * column existed); NULL: the column is required. */
  const char *absent;
} record_column;

extern const record_column record_columns[];
extern const int record_ncolumns;

/* Far above any run (10^15 residual evaluations), far below LONG_MAX: sums of counters in the
 * tables cannot overflow. */
#define RECORD_COUNT_MAX 1000000000000000L

/* Field access through the table. */
const char *record_text(const mbdae_record *r, const record_column *c);
/* A caller's record (or array of records, stride recs[0].size) as the library's full struct(s),
 * read as far as their size: NULL / the array (free it), or why not (mbdae_record_invalid's
 * reason; an array whose elements differ in size; out of memory). */
const char *mbdae_record_take(const mbdae_record *rec, mbdae_record *full);
mbdae_record *mbdae_records_take(const mbdae_record *recs, size_t n, const char **why);
double record_real(const mbdae_record *r, const record_column *c);
long record_long(const mbdae_record *r, const record_column *c);
int record_int(const mbdae_record *r, const record_column *c);
const void *record_pointer(const mbdae_record *r, const record_column *c);

#endif /* MBDAE_RECORD_COLUMNS_H */
