/* LAPACK wrappers: dgetrf/dgetrs, zgetrf/zgetrs and dggev (reference
 * LAPACK, Fortran calling convention: arguments by reference, a hidden length argument after
 * character arguments). */
#include <stddef.h>
#include <stdio.h>

#include "mbdae/mbdae.h"
#include "lapack.h"

extern void dgetrf_(const int *m, const int *n, double *a, const int *lda, int *ipiv, int *info);
extern void dgetrs_(const char *trans, const int *n, const int *nrhs, const double *a,
                    const int *lda, const int *ipiv, double *b, const int *ldb, int *info,
                    size_t trans_len);
extern void zgetrf_(const int *m, const int *n, double complex *a, const int *lda, int *ipiv,
                    int *info);
extern void zgetrs_(const char *trans, const int *n, const int *nrhs, const double complex *a,
                    const int *lda, const int *ipiv, double complex *b, const int *ldb, int *info,
                    size_t trans_len);
extern void dggev_(const char *jobvl, const char *jobvr, const int *n, double *a, const int *lda,
                   double *b, const int *ldb, double *alphar, double *alphai, double *beta,
                   double *vl, const int *ldvl, double *vr, const int *ldvr, double *work,
                   const int *lwork, int *info, size_t jobvl_len, size_t jobvr_len);

extern void ilaver_(int *major, int *minor, int *patch);

void mbdae_lapack_version(char *buf, size_t len)
{
  int major = 0, minor = 0, patch = 0;
  ilaver_(&major, &minor, &patch);
  snprintf(buf, len, "LAPACK %d.%d.%d", major, minor, patch);
}

static int map_info(int info)
{
  if (info > 0) {
    return MBDAE_ERR_SINGULAR;
  }
  return info < 0 ? MBDAE_ERR_INTERNAL : 0;
}

int mbdae_lu_factor(int n, double *a, int *ipiv)
{
  int info = 0;
  dgetrf_(&n, &n, a, &n, ipiv, &info);
  return map_info(info);
}

int mbdae_lu_solve(int n, const double *lu, const int *ipiv, double *b)
{
  int info = 0, one = 1;
  dgetrs_("N", &n, &one, lu, &n, ipiv, b, &n, &info, 1);
  return map_info(info);
}

int mbdae_zlu_factor(int n, double complex *a, int *ipiv)
{
  int info = 0;
  zgetrf_(&n, &n, a, &n, ipiv, &info);
  return map_info(info);
}

int mbdae_zlu_solve(int n, const double complex *lu, const int *ipiv, double complex *b)
{
  int info = 0, one = 1;
  zgetrs_("N", &n, &one, lu, &n, ipiv, b, &n, &info, 1);
  return map_info(info);
}

/* The minimum LWORK of dggev. */
int mbdae_ggev_lwork(int n) { return n > 0 ? 8 * n : 1; }

int mbdae_ggev(int n, double *a, double *b, double *alphar, double *alphai, double *beta,
               double *work)
{
  int info = 0, one = 1, lwork = mbdae_ggev_lwork(n);
  double unused = 0.0; /* vl and vr are not referenced without eigenvectors */
  dggev_("N", "N", &n, a, &n, b, &n, alphar, alphai, beta, &unused, &one, &unused, &one, work,
         &lwork, &info, 1, 1);
  if (info > 0) {
    return MBDAE_ERR_SOLVER;
  }
  return info < 0 ? MBDAE_ERR_INTERNAL : 0;
}
