/* Minimal assertion helpers for the CTest executables: each failed check prints where and why,
 * and check_summary() prints "N passed, N failed" and returns the exit status. */
#ifndef MBDAE_TEST_CHECK_H
#define MBDAE_TEST_CHECK_H

#include <math.h>
#include <stdio.h>

static int check_passed, check_failed;

#define CHECK(cond, ...)                                                                           \
  do {                                                                                             \
    if (cond) {                                                                                    \
      check_passed++;                                                                              \
    } else {                                                                                       \
      check_failed++;                                                                              \
      fprintf(stderr, "%s:%d: FAILED %s: ", __FILE__, __LINE__, #cond);                            \
      fprintf(stderr, __VA_ARGS__);                                                                \
      fputc('\n', stderr);                                                                         \
    }                                                                                              \
  } while (0)

static inline int check_summary(const char *name)
{
  printf("%s: %d passed, %d failed\n", name, check_passed, check_failed);
  return check_failed ? 1 : 0;
}

#endif /* MBDAE_TEST_CHECK_H */
