/* The reference trajectories compiled into the library (private): each refsol/<name>_traj.txt
 * becomes one ref_traj, generated at build time by cmake/embed_traj.cmake, its numbers the file's
 * decimal strings read by the C compiler (correctly rounded, as strtod reads them: test_ref_traj
 * compares every value with the file's).  The rows are in the order of the file's spec's
 * components, the spec of the end reference (refsol/<name>.txt); a problem maps them to its
 * configuration as it maps that end reference (mechanical.h: mech_model.traj). */
#ifndef MBDAE_REF_TRAJ_H
#define MBDAE_REF_TRAJ_H

#include <stddef.h>

typedef struct ref_traj {
  size_t ntimes;    /* output times, t[ntimes - 1] = t_end */
  int width;        /* values per row: the components of the file's spec */
  const double *t;  /* ntimes */
  const double *y;  /* ntimes rows of width values, y[k * width + i] */
  int nturns;       /* whole turns per row ([turns] of a chain's file), 0: none */
  const int *turns; /* ntimes rows of nturns; NULL when nturns is 0 */
} ref_traj;

/* One per refsol/<name>_traj.txt (CMakeLists.txt lists them). */
extern const ref_traj mbdae_traj_pendulum, mbdae_traj_dpendulum, mbdae_traj_chain_n1,
    mbdae_traj_chain_n2, mbdae_traj_chain_n3, mbdae_traj_chain_n4, mbdae_traj_chain_n5,
    mbdae_traj_chain_n6, mbdae_traj_chain_n7, mbdae_traj_chain_n8, mbdae_traj_caraxis,
    mbdae_traj_andrews, mbdae_traj_crank, mbdae_traj_crank_consistent, mbdae_traj_fekete,
    mbdae_traj_wheelset;

#endif /* MBDAE_REF_TRAJ_H */
