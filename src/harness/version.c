/* Versions for the records of a run: this library's, and those of SUNDIALS and LAPACK as the
 * libraries linked at run time report them (SUNDIALSGetVersion, LAPACK's ilaver), so that a
 * results table says what computed it.  Harness layer: LAPACK's version comes through the solvers'
 * LAPACK wrapper (solvers/lapack.h), the one place LAPACK is called from. */
#include <stdio.h>

#include <sundials/sundials_version.h>

#include "lapack.h"
#include "mbdae/mbdae.h"

const char *mbdae_version(void) { return MBDAE_VERSION; }

void mbdae_dependency_versions(char *buf, size_t len)
{
  if (!buf || len == 0) {
    return;
  }
  char sundials[64] = "unknown", lapack[64];
  SUNDIALSGetVersion(sundials, (int)sizeof sundials);
  mbdae_lapack_version(lapack, sizeof lapack);
  snprintf(buf, len, "SUNDIALS %s, %s", sundials, lapack);
}
