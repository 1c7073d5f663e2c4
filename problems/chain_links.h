/* The pendulum chain's derivatives link by link (private to the library): each link's entries
 * of dF/dy and dF/dy' are emitted one at a time into a sink, which places them in a dense
 * matrix (the model callbacks of problems/chain.c, in the layer's block order), counts or
 * records their positions (the compressed-column pattern) or adds them to pattern values
 * (mbdae_problem_jac_values): one source for the chain's structure and its values.
 *
 * With d_k = p_k - p_{k-1} (p_0 = 0) and the reaction (W^T lambda)_k = lambda_k d_k -
 * lambda_{k+1} d_{k+1} of mass k (problems/chain.c has the model), an entry is named by its row
 * (link, component 0/1) and its column (kind Q, V or LAM, link, component); the sink maps both
 * to indices.  In y (link by link, stride 5: x, y, vx, vy, F; ggl stride 6: and mu) every entry
 * lies within three links of the diagonal, so the pattern is banded. */
#ifndef MBDAE_CHAIN_LINKS_H
#define MBDAE_CHAIN_LINKS_H

#include <stddef.h>

#include "chain_config.h"

enum link_col { LINK_Q, LINK_V, LINK_LAM, LINK_NCOLS };
enum link_mode { LINK_DENSE, LINK_COUNT, LINK_RECORD, LINK_VALUES };

typedef struct link_sink {
  int mode;
  int row_stride, row_base; /* row index = link * row_stride + row_base + component */
  int row_fixed;            /* >= 0: every row goes there (a contraction), weighted per component */
  double row_weight[2];     /* each entry of component c is multiplied by row_weight[c] */
  int col_stride[LINK_NCOLS], col_base[LINK_NCOLS]; /* col_base < 0: that kind is not wanted */
  double *dense[LINK_NCOLS]; /* LINK_DENSE: the matrix of each kind (NULL: not wanted) */
  int ld;                    /* LINK_DENSE: rows of those matrices */
  int *count; /* LINK_COUNT: entries per column; LINK_RECORD: next free slot per column */
  int *rows;  /* LINK_RECORD: the row of each slot */
  const int *colptr, *rowind; /* LINK_VALUES: the pattern */
  double *values;             /* LINK_VALUES: added to at the entry's slot */
  int missed;                 /* LINK_VALUES: entries outside the pattern (a bug) */
} link_sink;

/* A sink with the identity weights and nothing wanted yet. */
link_sink chain_sink(int mode, int row_stride, int row_base);

/* d(W^T lambda)_k / dq (kind Q) and / dlambda (kind LAM) of mass k, rows (k, 0..1). */
void chain_reaction_entries(link_sink *s, int n, const double *q, const double *lam, int k);
/* factor d_k(vec) at mass k and -factor d_k(vec) at mass k-1, columns of kind, row (k, 0):
 * row k of G (vec = q, factor 2) and of the constraints' derivatives (mechanical.h). */
void chain_rod_entries(link_sink *s, const double *vec, double factor, int k, int kind);
/* d_k = p_k - p_{k-1} of a position-like vector (positions, velocities, accelerations). */
void chain_rod(const double *q, int k, double d[2]);
/* The acceleration of mass k the dynamics give, (m g e_y - (W^T lambda)_k) / m, into a. */
void chain_dynamic_acc(const chain_config *c, const double *q, const double *lam, int k,
                       double a[2]);

/* The chain's forms with a pattern, mech_form values: index3, index2, ggl, index1, baumgarte. */
typedef struct chain_form {
  int form;           /* mech_form */
  double alpha, beta; /* Baumgarte's */
} chain_form;

/* Every entry of dF/dy (into sy) and dF/dy' (into syp) of the form at y (link order, blocks
 * of q = (x, y), v, F, [mu]); either sink may be NULL. */
void chain_form_entries(const chain_config *c, const chain_form *f, const double *y,
                        const double *yp, link_sink *sy, link_sink *syp);
/* The pattern of dF/dy + c dF/dy' (neq = n * stride): colptr always, rowind when not NULL;
 * 0 or MBDAE_ERR_NOMEM. */
int chain_form_pattern(const chain_config *c, const chain_form *f, int *colptr, int *rowind);
/* Values in pattern order (either output may be NULL); 0, MBDAE_ERR_NOMEM, or MBDAE_ERR_INTERNAL
 * for an entry outside the pattern. */
int chain_form_values(const chain_config *c, const chain_form *f, const double *y, const double *yp,
                      double *dfdy, double *dfdyp);

#endif /* MBDAE_CHAIN_LINKS_H */
