/* The mbdae command's entry point: everything is in cli_main (src/cli/cli_main.c), which the
 * command-line fuzzer calls in process as well. */
#include "cli.h"

int main(int argc, char **argv) { return cli_main(argc, argv); }
