/* libFuzzer target for the runs.csv reader (mbdae_record_read_csv, src/harness/record_csv.c): any
 * bytes must give records or a "name:line: why" message, never a crash, a leak or undefined
 * behaviour.  The bytes reach the reader as a stream (fmemopen), as a file's would.  Accepted
 * records are checked against what the reader promises (ids safe for gnuplot, tolerances positive
 * and finite, counters bounded, lists of neq entries) and written back, which must read again to
 * the same number of records.
 *
 * Build (clang):  cmake -S . -B build-fuzz -DCMAKE_C_COMPILER=clang -DMBDAE_FUZZ=ON
 *                 cmake --build build-fuzz --target fuzz_csv
 * Run:            build-fuzz/tests/fuzz/fuzz_csv -max_total_time=60 tests/fuzz/corpus/csv */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mbdae/mbdae.h"

static void check_record(const mbdae_record *r)
{
  if (!mbdae_record_id_ok(r->problem) || !mbdae_record_id_ok(r->solver) ||
      !mbdae_record_id_ok(r->spec) || !(r->rtol > 0.0) || !isfinite(r->rtol) || !(r->atol > 0.0) ||
      !isfinite(r->atol) || !(r->h0 > 0.0) || !isfinite(r->h0) || r->stats.steps < 0 ||
      r->stats.nres > 1000000000000000L || r->repeats < 0 || r->status > 0 || r->neq < 0 ||
      (r->y && !r->names)) {
    abort(); /* the reader accepted what it promises to refuse */
  }
  for (int i = 0; r->names && i < r->neq; i++) {
    if (!r->names[i][0]) {
      abort();
    }
  }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
  if (size == 0) {
    return 0; /* fmemopen refuses an empty buffer */
  }
  FILE *in = fmemopen((void *)data, size, "r");
  if (!in) {
    return 0;
  }
  mbdae_record *recs = NULL;
  size_t n = 0;
  char msg[600];
  int rc = mbdae_record_read_csv(in, "fuzz.csv", &recs, &n, msg, sizeof msg);
  fclose(in);
  if (rc != 0) {
    if (recs || n || strncmp(msg, "fuzz.csv", 8) != 0) {
      abort();
    }
    return 0;
  }
  char *text = NULL;
  size_t len = 0;
  FILE *out = open_memstream(&text, &len);
  if (out) {
    mbdae_record_write_csv_header(out, n ? &recs[0].env : NULL);
    for (size_t k = 0; k < n; k++) {
      check_record(&recs[k]);
      mbdae_record_write_csv_row(out, &recs[k]);
    }
    fclose(out);
    FILE *again = fmemopen(text, len, "r");
    mbdae_record *back = NULL;
    size_t nback = 0;
    if (again && mbdae_record_read_csv(again, "again.csv", &back, &nback, msg, sizeof msg) != 0) {
      abort(); /* what the writer wrote, the reader must read */
    }
    if (again && nback != n) {
      abort();
    }
    if (again) {
      fclose(again);
    }
    mbdae_records_free(back, nback);
    free(text);
  }
  mbdae_records_free(recs, n);
  return 0;
}
