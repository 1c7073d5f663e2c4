/* Saved runs of the Fortran peers (RADAU5, RADAU, MEBDFI) for `mbdae bench --against FILE`: one
 * JSON object per line, as the Fortran peer harness's peerrun prints it (refsol/peer/ holds a
 * measured file).
 */
#ifndef MBDAE_PEER_RUNS_H
#define MBDAE_PEER_RUNS_H

#include <stddef.h>
#include <stdio.h>

typedef struct peer_run {
  char problem[64]; /* caraxis, andrews, crank, pendulum, dpendulum */
  char solver[64];  /* radau5, radau, mebdfi */
  double rtol;      /* rtol = atol */
  int ok;           /* status "ok" */
  double scd, mescd;
  long steps, nres; /* nres: residual evaluations, without those of difference Jacobians */
  double cpu_seconds;
} peer_run;

/* Read and validate every line of f, named `name` in messages (blank lines skipped); on error -1
 * with "name:line: why" in msg and nothing allocated.  *runs is released with free(). */
int peer_runs_parse(FILE *f, const char *name, peer_run **runs, size_t *n, char *msg,
                    size_t msglen);
/* Read and validate every line of path (blank lines skipped); on error -1 with "path:line: why" in
 * msg and nothing allocated.  *runs is released with free(). */
int peer_runs_read(const char *path, peer_run **runs, size_t *n, char *msg, size_t msglen);
/* The run of peer solver `solver` on problem at rtol (relative match 1e-9), or NULL. */
const peer_run *peer_runs_find(const peer_run *runs, size_t n, const char *problem,
                               const char *solver, double rtol);

#endif /* MBDAE_PEER_RUNS_H */
