/* What the orthogonal projector (solvers/projection.c) shares inside the library: the split of the
 * components into positions and velocities, and the constraint gradients over them, for the
 * symmetric projection method (solvers/spm.c), which projects along the same directions. */
#ifndef MBDAE_PROJECTION_H
#define MBDAE_PROJECTION_H

#include "mbdae/mbdae.h"

/* The components a level moves (0: positions, those g depends on; 1: velocities, those
 * G v + g_t depends on besides): their number, and their indices in y through *idx. */
int mbdae_projector_components(const mbdae_projector *pr, int level, const int **idx);
/* The gradient of a level's constraints over its components at (t, y, y'), by central
 * differences: nc x m, column-major, into jac (m = mbdae_projector_components(pr, level)). */
int mbdae_projector_gradient(mbdae_projector *pr, int level, double t, const double *y,
                             const double *yp, double *jac);

#endif /* MBDAE_PROJECTION_H */
