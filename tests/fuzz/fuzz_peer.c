/* libFuzzer target for the saved peer runs of `mbdae bench --against` (peer_runs_parse,
 * src/cli/peer_runs.c): any bytes give runs or a "name:line: why" message, never a crash, a leak
 * or undefined behaviour; accepted runs keep what the reader promises (plain ids, rtol positive
 * and finite, counters non-negative).
 * Build and run as the other fuzzers (tests/fuzz/CMakeLists.txt); seeds in corpus/peer/. */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "peer_runs.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
  if (size == 0) {
    return 0; /* fmemopen refuses an empty buffer */
  }
  FILE *in = fmemopen((void *)data, size, "r");
  if (!in) {
    return 0;
  }
  peer_run *runs = NULL;
  size_t n = 0;
  char msg[300];
  int rc = peer_runs_parse(in, "fuzz.jsonl", &runs, &n, msg, sizeof msg);
  fclose(in);
  if (rc != 0 && (runs || n || strncmp(msg, "fuzz.jsonl", 10) != 0)) {
    abort();
  }
  for (size_t k = 0; k < n; k++) {
    if (!mbdae_record_id_ok(runs[k].problem) || !mbdae_record_id_ok(runs[k].solver) ||
        !(runs[k].rtol > 0.0) || !isfinite(runs[k].rtol) || runs[k].steps < 0 || runs[k].nres < 0) {
      abort(); /* the reader accepted what it promises to refuse */
    }
  }
  free(runs);
  return 0;
}
