/* The simplified Newton iteration of the in-house implicit solvers (private): one loop, shared by
 * radau (and radau5) and bdf, over the phases a method supplies, as SUNDIALS' SUNNonlinearSolver
 * Newton module calls its integrator's Sys, LSolve and ConvTest (Gardner et al., Enabling new
 * flexibility in the SUNDIALS suite of nonlinear and differential/algebraic equation solvers,
 * ACM TOMS 48 (2022) 31).  Each iteration:
 *
 *   residual r = F(x)   (skipped in the first iteration when the method has it already)
 *   solve    dx from r  with the method's frozen iteration matrix
 *   check    the method's look at dx before it is applied (optional): go on, or stop
 *   update   x += dx, then the method's convergence test: go on, or stop
 *
 * The methods keep their own tests and their own state: radau RADAU5's rate watch and stopping
 * test on the increments of the transformed stages (HW IV.8), bdf DASSL's rate test on the
 * corrector's increments (Brenan, Campbell, Petzold, Numerical Solution of Initial-Value Problems
 * in DAEs, SIAM 1996, 5.2). */
#ifndef MBDAE_NEWTON_H
#define MBDAE_NEWTON_H

/* How an iteration ends, or NEWTON_CONTINUE from check and update to go on. */
typedef enum newton_outcome {
  NEWTON_CONTINUE = -1, /* (from check and update only) iterate again */
  NEWTON_CONVERGED = 0,
  NEWTON_SLOW,     /* converging, but predicted too slow for the iteration limit */
  NEWTON_FAILED,   /* diverged, not finite or too many iterations */
  NEWTON_UNDEFINED /* the residual could not be evaluated (or was not finite) */
} newton_outcome;

/* The phases of one method's iteration; ctx is the method's. */
typedef struct newton_ops {
  int (*residual)(void *ctx); /* r = F(x): 0, positive when x is outside F's domain, or negative */
  int (*solve)(void *ctx);    /* dx from r: 0 or a negative code */
  newton_outcome (*check)(void *ctx, int iter); /* before the update; may be NULL */
  newton_outcome (*update)(void *ctx, int iter);
} newton_ops;

/* Iterate from iteration 1 until check or update stops; residual_ready: r = F(x) is already
 * there for the first iteration.  Returns 0 and *outcome, or a negative code from residual or
 * solve (a fatal error).  Inline, with the phases declared inline too: with a method's constant
 * ops they are then compiled into its loop (out of line, radau's car axis run at 1e-7 took 1.3%
 * more instructions, bdf's 1.2%). */
static inline int newton_iterate(const newton_ops *ops, void *ctx, int residual_ready,
                                 newton_outcome *outcome)
{
  for (int iter = 1;; iter++) {
    if (!residual_ready) {
      int rc = ops->residual(ctx);
      if (rc != 0) {
        *outcome = NEWTON_UNDEFINED;
        return rc < 0 ? rc : 0;
      }
    }
    residual_ready = 0;
    int rc = ops->solve(ctx);
    if (rc != 0) {
      *outcome = NEWTON_FAILED;
      return rc;
    }
    newton_outcome verdict = ops->check ? ops->check(ctx, iter) : NEWTON_CONTINUE;
    if (verdict == NEWTON_CONTINUE) {
      verdict = ops->update(ctx, iter);
    }
    if (verdict != NEWTON_CONTINUE) {
      *outcome = verdict;
      return 0;
    }
  }
}

#endif /* MBDAE_NEWTON_H */
