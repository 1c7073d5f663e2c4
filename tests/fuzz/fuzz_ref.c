/* libFuzzer target for reference files (--ref FILE, read_reference_stream in src/cli/ref_file.c):
 * any bytes give neq finite values or a "name:line: why" refusal, never a crash, a leak or
 * undefined behaviour.  The bytes are read as the reference of three configurations: the
 * pendulum and the one-link chain (5 components each: the spec line decides) and the slider crank
 * (24, a file with other [sections]).  An accepted file named that configuration.
 * Build and run as the other fuzzers (tests/fuzz/CMakeLists.txt); seeds in corpus/ref/ (refsol
 * files, one without its spec line). */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static const char *const specs[] = {"pendulum", "chain:n=1", "crank"};
enum { NSPECS = 3, MAX_NEQ = 24 };

/* The problems, created once (the library keeps no state; these live to the end). */
static mbdae_problem *problem(int k)
{
  static mbdae_problem *made[NSPECS];
  if (!made[k] && mbdae_problem_create(specs[k], &made[k], NULL, 0) != 0) {
    abort();
  }
  return made[k];
}

/* 1 when the bytes hold "# spec: S" with S p's canonical spec. */
static int names_spec(const uint8_t *data, size_t size, const mbdae_problem *p)
{
  char want[512];
  int len = snprintf(want, sizeof want, "# spec: %s", mbdae_problem_spec(p));
  for (size_t i = 0; len > 0 && i + (size_t)len <= size; i++) {
    if ((i == 0 || data[i - 1] == '\n') && memcmp(data + i, want, (size_t)len) == 0) {
      return 1;
    }
  }
  return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
  if (size == 0) {
    return 0; /* fmemopen refuses an empty buffer */
  }
  for (int k = 0; k < NSPECS; k++) {
    const mbdae_problem *p = problem(k);
    FILE *in = fmemopen((void *)data, size, "r");
    if (!in) {
      return 0;
    }
    double yref[MAX_NEQ];
    int rc = read_reference_stream(in, "fuzz.txt", p, yref);
    fclose(in);
    for (int i = 0; rc == 0 && i < mbdae_problem_neq(p); i++) {
      if (!isfinite(yref[i])) {
        abort(); /* accepted a value it promises to refuse */
      }
    }
    if (rc == 0 && !names_spec(data, size, p)) {
      abort(); /* accepted a file that does not name the configuration */
    }
  }
  return 0;
}
