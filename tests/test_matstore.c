/* The storage layer's layouts (solvers/matstore.h) are SUNDIALS' layouts: the IDA binding forms
 * its SUNBandMatrix and SUNDenseMatrix through mbdae_matstore_form on their data, so for every
 * entry of the band (and of a dense matrix) the position the storage computes must be the address
 * SUNDIALS' own accessor gives, and SUNDIALS' leading dimension the storage's.  (That the band
 * layout is LAPACK's, dgbtrf's AB(kl + ku + 1 + i - j, j), is checked through the factorizations
 * of tests/test_linsys_kinds.c.) */
#include <sundials/sundials_context.h>
#include <sunmatrix/sunmatrix_band.h>
#include <sunmatrix/sunmatrix_dense.h>

#include "check.h"
#include "matstore.h"

static void band_layout(SUNContext ctx, int n, int ml, int mu)
{
  SUNMatrix A = SUNBandMatrix(n, mu, ml, ctx);
  CHECK(A != NULL, "SUNBandMatrix(%d, %d, %d)", n, mu, ml);
  if (!A) {
    return;
  }
  size_t ld = mbdae_band_ld(ml, mu);
  CHECK((size_t)SUNBandMatrix_LDim(A) == ld, "n %d, ml %d, mu %d: ld %ld, storage %zu", n, ml, mu,
        (long)SUNBandMatrix_LDim(A), ld);
  double *data = SUNBandMatrix_Data(A);
  int wrong = 0;
  for (int j = 0; j < n; j++) {
    for (int i = j - mu < 0 ? 0 : j - mu; i <= j + ml && i < n; i++) {
      wrong += &SM_ELEMENT_B(A, i, j) != data + mbdae_band_at(ld, ml, mu, i, j);
    }
  }
  CHECK(wrong == 0, "n %d, ml %d, mu %d: %d entries at another place than SUNDIALS'", n, ml, mu,
        wrong);
  SUNMatDestroy(A);
}

static void dense_layout(SUNContext ctx, int n)
{
  SUNMatrix A = SUNDenseMatrix(n, n, ctx);
  CHECK(A != NULL, "SUNDenseMatrix(%d)", n);
  if (!A) {
    return;
  }
  double *data = SUNDenseMatrix_Data(A);
  int wrong = 0;
  for (int j = 0; j < n; j++) {
    for (int i = 0; i < n; i++) {
      wrong += &SM_ELEMENT_D(A, i, j) != data + i + (size_t)j * (size_t)SUNDenseMatrix_Rows(A);
    }
  }
  CHECK(SUNDenseMatrix_Rows(A) == n && wrong == 0, "dense %d: %d entries elsewhere", n, wrong);
  SUNMatDestroy(A);
}

int main(void)
{
  SUNContext ctx = NULL;
  CHECK(SUNContext_Create(NULL, &ctx) == 0, "SUNContext_Create");
  const int shapes[][3] = {{1, 0, 0}, {5, 1, 1}, {7, 2, 1}, {7, 1, 3}, {9, 8, 8}, {12, 0, 4}};
  for (size_t k = 0; ctx && k < sizeof shapes / sizeof shapes[0]; k++) {
    band_layout(ctx, shapes[k][0], shapes[k][1], shapes[k][2]);
  }
  for (int n = 1; ctx && n <= 9; n += 4) {
    dense_layout(ctx, n);
  }
  SUNContext_Free(&ctx);
  return check_summary("test_matstore");
}
