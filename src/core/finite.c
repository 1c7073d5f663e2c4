/* mbdae_all_finite (src/core/finite.h). */
#include "finite.h"

int mbdae_all_finite(size_t count, const double *x)
{
  /* x - x is 0 for a finite x and NaN for an infinite or NaN one, and a NaN stays in the sum:
   * one branch-free pass (the residual check runs on every evaluation). */
  double probe = 0.0;
  for (size_t i = 0; i < count; i++) {
    probe += x[i] - x[i];
  }
  return probe == 0.0;
}
