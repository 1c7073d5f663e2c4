/* The linear-system layer (private): the iteration matrices of the implicit solvers, J + c M with
 * c real (BDF, the real system of Radau IIA) or J + s M with s complex (the complex system of
 * Radau IIA), J = dF/dy and M = dF/dy'.  mbdae_linsys: dense column-major n x n from full arrays,
 * factored by the small-dense kernel (solvers/smalldense.h) up to MBDAE_KERNEL_MAX_N rows, with
 * the condensation of kinematic rows (solvers/condense.h) up to MBDAE_CONDENSE_MAX_N, and by
 * LAPACK (solvers/lapack.h) above; mbdae_itmat (solvers/itmat.c): every kind (dense, band,
 * sparse) from a Jacobian store, a storage (solvers/matstore.h) and a table of factor operations.
 * An mbdae_linsys lives in one caller-provided block (mbdae_linsys_bytes), an mbdae_itmat
 * allocates its own; both are set up once per run. */
#ifndef MBDAE_LINSYS_H
#define MBDAE_LINSYS_H

#include <complex.h>
#include <stddef.h>

#include "condense.h"
#include "jacobian.h"
#include "matstore.h"

/* C11's CMPLX(re, im), exact even for infinite parts; glibc defines it for GCC only, so clang
 * builds (the fuzzers) get the same builtin that glibc's definition uses. */
#ifndef CMPLX
#define CMPLX(re, im) __builtin_complex((double)(re), (double)(im))
#endif

/* Largest n of a dense matrix factored by the small-dense kernel; LAPACK's dgetrf/zgetrf above.
 * Measured with tests/bench/bench_dense_lu (copy + factor per call, gcc -O3 without -march, shared
 * 2-core AMD EPYC, interleaved rounds; ratio = LAPACK / kernel time, real and complex):
 *   Debian's reference LAPACK/BLAS 3.11 (what the project is built and tested with): dense random
 *   matrices 1.1-2.3 and 1.1-2.5 at n = 64..640, so no crossover; Fekete's iteration matrices
 *   (15% nonzeros, whose zero multipliers the kernel skips as Hairer's DEC/DECC do) 4.4-6.6 at
 *   n = 80..400;
 *   OpenBLAS 0.3.21, one thread: dense random matrices 0.6 at n = 48, 0.24-0.35 at 400 (a blocked
 *   LU on a tuned BLAS overtakes an unblocked one above about 40 rows), Fekete's 1.1-3.2 at
 *   n = 80..400.
 * The bound is the largest order measured on both kinds of matrix: above it an unblocked LU
 * streams the whole trailing matrix per column and any blocked LAPACK gains.  The condensation
 * (mbdae_condensed) keeps its own bound, MBDAE_CONDENSE_MAX_N (64 rows). */
enum { MBDAE_KERNEL_MAX_N = 400 };

typedef struct mbdae_linsys {
  int n;              /* order */
  int is_complex;     /* 1: J + s M with s complex; 0: J + c M with c real */
  int lapack;         /* 1: LAPACK's dgetrf/zgetrf (n > MBDAE_KERNEL_MAX_N); 0: the kernel */
  int condensed;      /* the kernel's path: 1 with condensation (n <= MBDAE_CONDENSE_MAX_N) */
  double *re, *im;    /* the kernel's factors (im: complex systems only); LAPACK's real factors */
  double complex *z;  /* LAPACK's complex factors (n x n) and a right-hand side (n) */
  int *ipiv;          /* pivot rows, 1-based as in dgetrf */
  mbdae_condensed cd; /* the kernel's path: kinematic rows condensed (condense.h), re/im its E */
} mbdae_linsys;

/* The kernel without condensation: E = J + sr M formed into re and, for a complex system (im not
 * NULL), its imaginary part si M into im, then factored in place: 0 or MBDAE_ERR_SINGULAR. */
int mbdae_kernel_factor(int n, const double *J, const double *M, double sr, double si, double *re,
                        double *im, int *ipiv);

/* Bytes of the block mbdae_linsys_init needs for order n: a multiple of sizeof(double complex), so
 * that blocks laid end to end in one allocation stay aligned. */
size_t mbdae_linsys_bytes(int n, int is_complex);
/* ls set up on mem (mbdae_linsys_bytes(n, is_complex) bytes, aligned for double complex). */
void mbdae_linsys_init(mbdae_linsys *ls, int n, int is_complex, void *mem);

/* J or M changed since the last factorization: the kernel path's condensation plan
 * (solvers/condense.h), kept between factorizations of the same J and M, is made anew. */
void mbdae_linsys_new_matrices(mbdae_linsys *ls);
/* Factor J + c M (a real system): 0, or MBDAE_ERR_SINGULAR for an exactly singular matrix.  The
 * entries are not checked for finiteness (a pass over them cost as much as forming the matrix):
 * the solvers check the Jacobian, or see the NaN in their Newton iterates. */
int mbdae_linsys_factor(mbdae_linsys *ls, const double *J, const double *M, double c);
/* Factor J + (sr + i si) M (a complex system). */
int mbdae_linsys_factor_shift(mbdae_linsys *ls, const double *J, const double *M, double sr,
                              double si);
/* Solve with the factors of a real system: b is overwritten by x. */
int mbdae_linsys_solve(const mbdae_linsys *ls, double *b);
/* Solve with the factors of a complex system: br + i bi is overwritten by x. */
int mbdae_linsys_solve_shift(const mbdae_linsys *ls, double *br, double *bi);

/* ---- iteration matrices of every kind -------------------------------------------------------
 * An iteration matrix is a composition: a storage (solvers/matstore.h: dense column-major, LAPACK
 * band, compressed sparse columns) formed from a Jacobian store (solvers/jacobian.h), and the
 * factor/solve operations of one factorization (mbdae_factor_ops), chosen once at creation:
 *   kernel        DENSE, n <= MBDAE_CONDENSE_MAX_N: the small-dense kernel with the condensation
 *                 of kinematic rows (solvers/condense.h), which forms E = J + s M itself while it
 *                 condenses (the plan skips the condensed rows): n^2 (complex 2 n^2);
 *   kernel dense  DENSE, MBDAE_CONDENSE_MAX_N < n <= MBDAE_KERNEL_MAX_N: the kernel on E formed
 *                 with its real and imaginary parts apart (mbdae_kernel_factor), no condensation;
 *   lapack dense  DENSE above: the dense storage factored in place by dgetrf/zgetrf;
 *   band          BAND: the band storage factored in place by our band LU (solvers/bandlu.h,
 *                 the bits of the reference dgbtrf/zgbtrf whatever LAPACK is linked),
 *                 (2 ml + mu + 1) n doubles (complex: twice);
 *   klu           SPARSE: the pattern analysed once, the storage's values refactored per matrix
 *                 (solvers/sparselu.h); O(nnz + fill). */
struct mbdae_klu;
struct mbdae_itmat;

typedef struct mbdae_factor_ops {
  const char *name; /* "kernel", "kernel dense", "lapack dense", "band", "klu" */
  /* Bytes of the storage and workspace for jac (see mbdae_itmat_bytes). */
  size_t (*bytes)(const mbdae_jacobian *jac, int is_complex);
  /* Allocate (m->block, or the solver's own) and set up m->st.v: 0 or a negative code. */
  int (*create)(struct mbdae_itmat *m);
  /* Factor J + (sr + i si) M (si = 0 for a real matrix) from m->jac's current values. */
  int (*factor)(struct mbdae_itmat *m, double sr, double si);
  /* Solve in place: b (bi NULL, real matrix) or br + i bi (complex). */
  int (*solve)(const struct mbdae_itmat *m, double *br, double *bi);
  /* See mbdae_itmat_finite. */
  int (*finite)(const struct mbdae_itmat *m);
} mbdae_factor_ops;

typedef struct mbdae_itmat {
  const mbdae_jacobian *jac;   /* the store the matrices are formed from */
  int is_complex;              /* 1: J + s M with s complex */
  mbdae_matstore st;           /* the formed matrix (LAPACK: its factors after factoring) */
  const mbdae_factor_ops *ops; /* the factorization */
  mbdae_condensed cd;          /* kernel: the condensed system and its factors */
  int *ipiv;                   /* kernel dense, LAPACK: pivot rows */
  double *rhs;                 /* LAPACK, complex: an interleaved right-hand side (2 n) */
  struct mbdae_klu *klu;       /* klu: the solver, which holds the storage's values */
  void *block;                 /* the allocation of the storage and the workspace */
  unsigned long stamp;         /* kernel: jac->stamp of the Jacobian the plan was made for */
} mbdae_itmat;

/* The matrix for jac (which must outlive it): 0 or MBDAE_ERR_NOMEM (or KLU's refusal,
 * MBDAE_ERR_INTERNAL). */
int mbdae_itmat_create(mbdae_itmat *m, const mbdae_jacobian *jac, int is_complex);
void mbdae_itmat_free(mbdae_itmat *m);
/* Factor J + c M (real) or J + (sr + i si) M (complex) from the store's current values: 0,
 * MBDAE_ERR_SINGULAR, or another negative code. */
int mbdae_itmat_factor(mbdae_itmat *m, double c);
int mbdae_itmat_factor_shift(mbdae_itmat *m, double sr, double si);
/* The order of the dense system the last factorization factored: the reduced system's after
 * condensation, else n (band and sparse matrices: n, an upper bound of their cost's scale). */
int mbdae_itmat_factored_order(const mbdae_itmat *m);
/* Solve in place with the factors. */
int mbdae_itmat_solve(const mbdae_itmat *m, double *b);
int mbdae_itmat_solve_shift(const mbdae_itmat *m, double *br, double *bi);
/* 1 when the real factors (dense, band) or the matrix handed to KLU are all finite: a non-finite
 * entry of the matrix stays non-finite through the elimination. */
int mbdae_itmat_finite(const mbdae_itmat *m);
/* Bytes mbdae_itmat_create allocates for jac; for SPARSE the values handed to KLU and a
 * right-hand side, without KLU's factors (their size depends on the fill). */
size_t mbdae_itmat_bytes(const mbdae_jacobian *jac, int is_complex);

#endif /* MBDAE_LINSYS_H */
