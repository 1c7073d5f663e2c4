/* The mbdae command as a function, cli_main: dispatch to the subcommands (src/cli/cmd_*.c), then
 * make sure what they printed reached stdout.  src/cli/main.c calls it; so does the command-line
 * fuzzer (tests/fuzz/fuzz_args.c), in process.
 *
 * A write error on stdout (a full disk, a closed pipe, `mbdae list > /dev/full`) is caught in one
 * place, after every command: stdio reports it only through fflush/ferror, so without this check
 * the command would exit 0 with its output lost.  The commands' usage is in cli_commands.c.  Exit
 * status 2, not 1: 1 means a solver run failed with its results reported, and a script may still
 * read them; after a write error nothing usable was delivered, as after bad usage (the destination
 * the caller gave). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"

static int print_version(void)
{
  char deps[128];
  mbdae_dependency_versions(deps, sizeof deps);
  printf("mbdae %s (%s)\n", mbdae_version(), deps);
  return EXIT_OK;
}

/* mbdae help [COMMAND]: the usage of every command, or of one. */
static int help(int argc, char **argv)
{
  if (argc < 3) {
    cli_print_help(stdout);
    return EXIT_OK;
  }
  int self = strcmp(argv[2], "--help") == 0 || strcmp(argv[2], "-h") == 0;
  const cli_command *c = cli_command_find(self ? "help" : argv[2]);
  if (!c || argc > 3) {
    const char *near = argc > 3 ? NULL : cli_command_suggest(argv[2]);
    fputs("mbdae: help takes one command: ", stderr);
    cli_print_command_names(stderr);
    fprintf(stderr, "%s%s%s\n", near ? "; did you mean " : "", near ? near : "", near ? "?" : "");
    return EXIT_USAGE;
  }
  cli_print_command_help(stdout, c);
  return EXIT_OK;
}

/* Run command c on its arguments with --opt=value split (normalise_args); --help or -h among
 * them prints c's usage instead. */
static int run_command(const cli_command *c, int argc, char **argv)
{
  int n = 0;
  char **args = NULL;
  int rc = normalise_args(c, argc, argv, &n, &args);
  if (rc < 0) {
    return EXIT_USAGE;
  }
  if (rc == 1) {
    cli_print_command_help(stdout, c);
    rc = EXIT_OK;
  } else if (c->run) {
    rc = c->run(n, args);
  } else { /* version; help is answered before */
    rc = n == 1 ? print_version() : usage_error("%s takes no arguments", c->name);
  }
  free(args);
  return rc;
}

static int dispatch(int argc, char **argv)
{
  if (argc < 2) {
    cli_print_help(stderr);
    return EXIT_USAGE;
  }
  if (strcmp(argv[1], "-h") == 0 || strcmp(argv[1], "--help") == 0) {
    cli_print_help(stdout);
    return EXIT_OK;
  }
  if (strcmp(argv[1], "help") == 0) {
    return help(argc, argv);
  }
  if (strcmp(argv[1], "--version") == 0) {
    return print_version();
  }
  const cli_command *c = cli_command_find(argv[1]);
  if (c) {
    return run_command(c, argc - 1, argv + 1);
  }
  const char *near = cli_command_suggest(argv[1]);
  fprintf(stderr, "mbdae: unknown command '%s'; valid commands: ", argv[1]);
  cli_print_command_names(stderr);
  fprintf(stderr, " (mbdae --help)%s%s%s\n", near ? "; did you mean " : "", near ? near : "",
          near ? "?" : "");
  return EXIT_USAGE;
}

/* rc unless stdout could not be written: then say so and return EXIT_USAGE. */
static int check_stdout(int rc)
{
  errno = 0;
  if (fflush(stdout) == 0 && !ferror(stdout)) {
    return rc;
  }
  /* errno is from the failed flush; an earlier failed write leaves only the error flag. */
  fprintf(stderr, "mbdae: error writing standard output: %s\n",
          errno ? strerror(errno) : "write error");
  clearerr(stdout); /* an in-process caller (the fuzzer) starts the next command clean */
  return EXIT_USAGE;
}

int cli_main(int argc, char **argv)
{
  int rc = check_stdout(dispatch(argc, argv));
  plugin_unload_all(); /* the next command of an in-process caller starts without them */
  return rc;
}
