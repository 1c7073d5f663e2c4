/* Versions in the records: the library's version agrees with its header's macros, and the
 * dependency versions are read from the libraries linked at run time (the SUNDIALS one must be
 * the version whose headers the library was built against). */
#include <stdio.h>
#include <string.h>

#include <sundials/sundials_config.h>

#include "support.h"

int main(void)
{
  char want[32], deps[128] = "";
  snprintf(want, sizeof want, "%d.%d.%d", MBDAE_VERSION_MAJOR, MBDAE_VERSION_MINOR,
           MBDAE_VERSION_PATCH);
  CHECK(strcmp(mbdae_version(), want) == 0 && strcmp(MBDAE_VERSION, want) == 0,
        "version %s = macros %s", mbdae_version(), want);
  mbdae_dependency_versions(deps, sizeof deps);
  char sundials[64];
  snprintf(sundials, sizeof sundials, "SUNDIALS %s, ", SUNDIALS_VERSION);
  CHECK(strncmp(deps, sundials, strlen(sundials)) == 0, "'%s' starts with '%s'", deps, sundials);
  int a = -1, b = -1, c = -1;
  const char *lapack = strstr(deps, "LAPACK ");
  CHECK(lapack && sscanf(lapack, "LAPACK %d.%d.%d", &a, &b, &c) == 3 && a >= 3,
        "LAPACK version in '%s'", deps);
  mbdae_dependency_versions(deps, 8);
  CHECK(strlen(deps) == 7, "a short buffer is cut, NUL-terminated");
  return check_summary("test_version");
}
