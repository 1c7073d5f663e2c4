/* The reference generators of mbdae: the references this project computes itself, in
 * quadruple precision (GCC's __float128, libquadmath), rather than copying them from the test set.
 *
 * - pendulum (Hafner & Poell, eq. (1)): the exact solution in Jacobi elliptic functions,
 *   refsol/pendulum_ref.c; its output is the committed file refsol/pendulum.txt.
 * - dpendulum (Hafner & Poell, eq. (6)): the angle (state-space) formulation integrated by
 *   Gragg-Bulirsch-Stoer extrapolation and confirmed by Gauss-Legendre collocation,
 *   refsol/dpendulum_ref.c; its output is the committed file refsol/dpendulum.txt.
 * - chain (Thomsen (ed.) 2005 section 3.4): the same two methods on Lagrange's equations of n
 * links, refsol/chain_ref.c, for any configuration; the default configurations of n = 1..8 links
 * are the committed files refsol/chain_n1.txt .. chain_n8.txt.
 *
 * - reference trajectories (refsol/<name>_traj.txt, the solution at 101 uniform output times
 *   whose last row is the end reference): refsol_pendulum_trajectory and refsol_chain_trajectory
 *   below, and for the test-set problems two of the library's solvers; the generator is
 *   refsol/traj_gen.c (`mbdae_traj_gen NAME`), the library compiles the files in
 *   (mbdae_problem_reference_trajectory).
 *
 * The write functions print exactly the content of the committed data file (the driver exposes
 * them as `mbdae refsol pendulum|dpendulum`; a test checks that the file and the generator agree).
 * They return 0 on success, -1 when writing to `out` failed. */
#ifndef MBDAE_REFSOL_H
#define MBDAE_REFSOL_H

#include <stdio.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Print the pendulum reference file (refsol/pendulum.txt). */
int refsol_pendulum_write(FILE *out);

/* Print the double pendulum reference file (refsol/dpendulum.txt). */
int refsol_dpendulum_write(FILE *out);

/* Print the reference file of the chain configuration `spec` (a canonical spec of the library,
 * "chain:n=...,form=...", mbdae_problem_spec) with its neq values in the order of names (the
 * instance's component names: x1, y1, vx1, vy1, F1, ..., theta1, ..., omega1, ..., mu1, ...); for
 * the default configurations of n = 1..8 links it is refsol/chain_n<n>.txt.  0; -1 when writing
 * or memory failed; -2 for a spec or name that is not a chain's; msg says why. */
int refsol_chain_write(FILE *out, const char *spec, int neq, const char *const *names, char *msg,
                       size_t msglen);

/* refsol_chain_write, telling progress(ctx, share) the share of the integration done (0..1,
 * about a hundred times; NULL: not told): the reference of a chain takes seconds per unit of
 * time and link. */
typedef void (*refsol_progress)(void *ctx, double share);
int refsol_chain_write_progress(FILE *out, const char *spec, int neq, const char *const *names,
                                char *msg, size_t msglen, refsol_progress progress, void *ctx);

/* A reference trajectory at the grid t_k = t_end k / nintervals, k = 0..nintervals, computed by two
 * methods, in arrays the caller allocates: t (nintervals + 1), y ((nintervals + 1) neq, y[k neq +
 * i] component i at t_k, the first method's value rounded to double), agree_rel and agree_scaled
 * (neq: the largest |y1 - y2| / |y1| over the grid, 0 where the two are equal, and the largest
 * |y1 - y2| over the largest |y1|, computed in quad), turns ((nintervals + 1) n for a chain of n
 * links: the whole turns of each angle at t_k, as the end reference states them for form=ssf;
 * unused for the pendulum). */
typedef struct refsol_traj {
  double *t, *y, *agree_rel, *agree_scaled;
  int *turns;
} refsol_traj;

/* The pendulum's trajectory (y = (x, y, vx, vy, F)): the exact solution (refsol_pendulum_state),
 * checked by the Taylor series method of refsol_pendulum_write, its steps ending on the grid. */
void refsol_pendulum_trajectory(int nintervals, refsol_traj *out);

/* The trajectory of the chain or double pendulum configuration `spec` (as refsol_chain_write):
 * Gragg-Bulirsch-Stoer extrapolation, checked by Gauss-Legendre collocation, both in __float128
 * with the reference's steps per unit of time (or more, so that they end on the grid).  0; -1
 * when memory failed; -2 for a spec, name or grid that is not a chain's; msg says why. */
int refsol_chain_trajectory(const char *spec, int neq, const char *const *names, int nintervals,
                            refsol_traj *out, char *msg, size_t msglen, refsol_progress progress,
                            void *ctx);

/* The exact pendulum solution at time t, evaluated in quadruple precision and rounded to double:
 * y = (x, y, vx, vy, F) and its time derivative yp, so that (y, yp) satisfies the DAE of
 * problems/pendulum.c with g = 9.81 (to rounding). */
void refsol_pendulum_state(double t, double y[5], double yp[5]);

#ifdef __cplusplus
}
#endif

#endif /* MBDAE_REFSOL_H */
