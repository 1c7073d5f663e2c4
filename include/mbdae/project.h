/* mbdae/project.h: projection of a state onto the constraint manifold, after every accepted
 * step (mbdae_options.project). */
#ifndef MBDAE_PROJECT_H
#define MBDAE_PROJECT_H

#include <stddef.h>
#include "base.h"
#include "problem.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ---- projection onto the constraint manifold ---------------------------------------------- */

/* The orthogonal projection method (OPM) of Hafner & Poell (2015), Table 1, after Hairer,
 * Lubich & Wanner, Geometric Numerical Integration, IV.4 (standard projection) and VII.2: the
 * positions q are moved onto g(q) = 0 along the constraint gradient taken at the unprojected
 * point, q = q~ + G(q~)^T mu, mu by simplified Newton iterations with G G^T factored once, then
 * the velocities onto G v + g_t = 0 the same way (linear in v).  The metric is Euclidean (the
 * mass metric for unit masses, as in the pendulum problems).  g and G v + g_t are the problem's
 * own hidden constraints (mbdae_problem_constraints); G is their central difference quotient (g
 * is evaluated exactly, so the iteration still ends on g = 0 to rounding).  Which components are
 * positions (those g depends on) and velocities (those G v + g_t depends on besides) is found
 * once, at a generic point near the initial values.  Not for multipliers: they are left as they
 * are (the next step's nonlinear iteration recomputes them).  A projector holds work arrays: one
 * per run at a time. */
typedef struct mbdae_projector mbdae_projector;
/* A projector for p (which must outlive it): MBDAE_ERR_UNSUPPORTED with a message for a problem
 * without constraints or whose positions or velocities cannot be told apart. */
MBDAE_API int mbdae_projector_create(const mbdae_problem *p, mbdae_projector **out, char *msg,
                                     size_t msglen);
MBDAE_API void mbdae_projector_destroy(mbdae_projector *pr); /* NULL is a no-op */
/* Project y at t in place (projector: a mbdae_projector, so that it fits mbdae_options.project);
 * y' is left as it is.  0, or MBDAE_ERR_CONV when the iteration does not reach g = 0 to rounding
 * (MBDAE_ERR_SINGULAR: G G^T singular), or the constraint function's error. */
MBDAE_API int mbdae_projector_apply(void *projector, double t, double *y, double *yp);

#ifdef __cplusplus
}
#endif

#endif /* MBDAE_PROJECT_H */
