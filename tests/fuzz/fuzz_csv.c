/* libFuzzer target for the runs.csv reader of mbdae sweep (sweep_csv_parse in src/cli/sweep_output.c):
 * any bytes must give rows or a "name:line: why" message, never a crash, a leak or undefined
 * behaviour.  The bytes reach the reader as a stream (fmemopen), as a file's would.  Accepted
 * rows are checked against what the reader promises (ids safe for gnuplot, tolerances positive and
 * finite, counters bounded) and written back, which must read again to the same number of rows.
 *
 * Build (clang):  clang -fsanitize=fuzzer,address,undefined -Iinclude -Isrc
 *                   tests/fuzz/fuzz_csv.c src/cli/sweep_output.c src/cli/report.c -Lbuild -lmbdae -lm
 * Run:            ./a.out -max_total_time=60 tests/fuzz/corpus/csv */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sweep.h"

static void check_row(const sweep_row *r)
{
  if (!sweep_safe_id(r->problem) || !sweep_safe_id(r->solver) || !sweep_safe_id(r->spec) ||
      !(r->rtol > 0.0) || !isfinite(r->rtol) || !(r->atol > 0.0) || !isfinite(r->atol) ||
      !(r->h0 > 0.0) || !isfinite(r->h0) || r->steps < 0 || r->nres > 1000000000000000L ||
      r->repeats < 0) {
    abort(); /* the reader accepted what it promises to refuse */
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
  sweep_row *rows = NULL;
  int nrows = 0;
  char msg[600];
  int rc = sweep_csv_parse(in, "fuzz.csv", &rows, &nrows, msg, sizeof msg);
  fclose(in);
  if (rc != 0) {
    if (rows || nrows || strncmp(msg, "fuzz.csv", 8) != 0) {
      abort();
    }
    return 0;
  }
  char *text = NULL;
  size_t len = 0;
  FILE *out = open_memstream(&text, &len);
  if (out) {
    sweep_csv_header(out);
    for (int k = 0; k < nrows; k++) {
      check_row(&rows[k]);
      sweep_csv_row(out, &rows[k]);
    }
    fclose(out);
    FILE *again = fmemopen(text, len, "r");
    sweep_row *back = NULL;
    int nback = -1;
    if (again && sweep_csv_parse(again, "again.csv", &back, &nback, msg, sizeof msg) != 0) {
      abort(); /* what the writer wrote, the reader must read */
    }
    if (again && nback != nrows) {
      abort();
    }
    if (again) {
      fclose(again);
    }
    free(back);
    free(text);
  }
  free(rows);
  return 0;
}
