/* mbdae refsol: recompute the references mbdae computes itself (refsol/<id>_ref.c) and print the
 * data file exactly as committed in refsol/. */
#include <string.h>

#include "cli.h"
#include "refsol.h"

int cmd_refsol(int argc, char **argv)
{
  if (argc != 2) {
    return usage_error("refsol takes one of: pendulum, dpendulum");
  }
  int rc;
  if (strcmp(argv[1], "pendulum") == 0) {
    rc = refsol_pendulum_write(stdout);
  } else if (strcmp(argv[1], "dpendulum") == 0) {
    rc = refsol_dpendulum_write(stdout);
  } else {
    return usage_error("no reference generator for '%s'; valid: pendulum, dpendulum "
                       "(caraxis, andrews and crank references are published data, see refsol/)",
                       argv[1]);
  }
  return rc == 0 ? EXIT_OK : EXIT_FAILED_RUN;
}
