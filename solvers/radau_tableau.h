/* The Radau IIA methods of s = 1, 3, 5, 7 stages (order 2s - 1) as the Radau IIA integrator
 * (solvers/radau.c) uses them (private): nodes, A^{-1}, its eigen-decomposition into one real
 * eigenvalue and (s - 1)/2 complex pairs, and the weights of the embedded error estimate, all
 * computed from the definition at the start of a run (see radau_tableau.c for the algorithm and
 * its sources). */
#ifndef MBDAE_RADAU_TABLEAU_H
#define MBDAE_RADAU_TABLEAU_H

enum { RADAU_MAX_STAGES = 7, RADAU_MAX_PAIRS = (RADAU_MAX_STAGES - 1) / 2 };

typedef struct radau_tableau {
  int s;                                                /* stages (odd, 1..RADAU_MAX_STAGES) */
  double c[RADAU_MAX_STAGES];                           /* nodes, c[s-1] = 1 */
  double ainv[RADAU_MAX_STAGES][RADAU_MAX_STAGES];      /* A^{-1} */
  double gamma;                                         /* the real eigenvalue of A^{-1} */
  double alpha[RADAU_MAX_PAIRS], beta[RADAU_MAX_PAIRS]; /* pairs alpha_k +- i beta_k */
  double t[RADAU_MAX_STAGES][RADAU_MAX_STAGES];         /* T: T^{-1} A^{-1} T block diagonal */
  double tinv[RADAU_MAX_STAGES][RADAU_MAX_STAGES];      /* T^{-1} */
  double d[RADAU_MAX_STAGES];                           /* error-estimate weights */
} radau_tableau;

/* The tableau of the s-stage method; 0, or MBDAE_ERR_INTERNAL when s is not 1, 3, 5 or 7 or a
 * step of the computation fails (it does not for these s). */
int radau_tableau_init(radau_tableau *tb, int s);

/* The 3-stage tableau with the constants radau5 has always run with (see radau_tableau.c). */
void radau_tableau_radau5(radau_tableau *tb);

#endif /* MBDAE_RADAU_TABLEAU_H */
