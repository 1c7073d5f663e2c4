/* libFuzzer target: the mbdae command line, in process.  The input bytes are split at NULs into
 * argv[1..] and passed to cli_main (src/cli/cli_main.c), as main() would be called.
 *
 * Bounded work per input, so that a slow run is not mistaken for a hang: inputs whose command is
 * sweep, bench, refsol, plot or table are rejected (they start many runs, fork workers or gnuplot,
 * or write files), as are inputs with an argument starting --repeat, --plugin or --trajectory
 * (also as --opt=value; --trajectory writes a file, and a generated path could load any
 * shared object of the machine into the fuzzer's process); a run gets "--max-steps 2000" appended
 * (the last --max-steps wins), so an integration stops after at most 2000 steps.  What remains --
 * list, run, check, help and every malformed command line -- takes milliseconds. stdout and stderr:
 * run the fuzzer with -close_fd_mask=3 (as .ci/run does) to send the command's output to /dev/null
 * while libFuzzer and the sanitizers keep reporting. Build: cmake -DMBDAE_FUZZ=ON with clang
 * (tests/fuzz/CMakeLists.txt); seeds in corpus/args/. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

enum { MAX_ARGS = 64 };

static const char *const rejected_commands[] = {"sweep", "bench", "refsol", "plot", "table"};

/* 1 when the command line would do unbounded or side-effecting work (see above). */
static int rejected(int argc, char **argv)
{
  for (size_t k = 0; argc > 1 && k < sizeof rejected_commands / sizeof rejected_commands[0]; k++) {
    if (strcmp(argv[1], rejected_commands[k]) == 0) {
      return 1;
    }
  }
  for (int i = 1; i < argc; i++) {
    if (strncmp(argv[i], "--repeat", 8) == 0 || strncmp(argv[i], "--plugin", 8) == 0 ||
        strncmp(argv[i], "--trajectory", 12) == 0) {
      return 1;
    }
  }
  return 0;
}

/* Split buf (len bytes, NUL-terminated at buf[len]) at NULs into argv[1..]; returns argc. */
static int split_args(char *buf, size_t len, char **argv)
{
  int argc = 0;
  argv[argc++] = "mbdae";
  for (size_t at = 0; at <= len && argc < MAX_ARGS - 3; at += strlen(buf + at) + 1) {
    if (at == len && argc > 1) {
      break; /* the terminator after a final NUL is not another, empty, argument */
    }
    argv[argc++] = buf + at;
  }
  return argc;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
  char *buf = malloc(size + 1);
  if (!buf) {
    return 0;
  }
  memcpy(buf, data, size);
  buf[size] = '\0';
  char *argv[MAX_ARGS + 1];
  int argc = size ? split_args(buf, size, argv) : 1;
  if (rejected(argc, argv)) {
    free(buf);
    return -1; /* not added to the corpus */
  }
  if (argc > 1 && strcmp(argv[1], "run") == 0) {
    argv[argc++] = "--max-steps";
    argv[argc++] = "2000";
  }
  argv[argc] = NULL;
  cli_main(argc, argv);
  free(buf);
  return 0;
}
