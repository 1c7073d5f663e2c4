/* solvers/linsys.h included twice compiles: its include guard covers the whole header, the
 * iteration matrices (mbdae_itmat) too.  Before the fix the guard closed above mbdae_itmat and a
 * second inclusion redefined struct mbdae_itmat: this file did not compile.  The relative path
 * needs no private include directory (linsys.h's own includes are found next to it). */
#include "../solvers/linsys.h"
#include "../solvers/linsys.h"

#include <stdio.h>

int main(void)
{
  mbdae_itmat m = {0};
  mbdae_linsys ls = {0};
  if (m.jac != NULL || ls.n != 0) {
    fprintf(stderr, "test_linsys_guard: zeroed structs are not zero\n");
    return 1;
  }
  printf("test_linsys_guard: linsys.h included twice\n");
  return 0;
}
