/* Helpers shared by the linear-algebra tests and bench (test_smalldense, test_condense, bench_lu):
 * a deterministic generator and Radau IIA's shifts. */
#ifndef MBDAE_TESTS_LINALG_SUPPORT_H
#define MBDAE_TESTS_LINALG_SUPPORT_H

#include <math.h>
#include <stdint.h>

/* Uniform in [-1, 1) from the state (splitmix64: Steele, Lea & Flood 2014). */
static inline double splitmix_uniform(uint64_t *state)
{
  uint64_t z = (*state += 0x9e3779b97f4a7c15u);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9u;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebu;
  z ^= z >> 31;
  return (double)(z >> 11) * 0x1.0p-52 - 1.0;
}

/* Radau IIA (3 stages): the real eigenvalue gamma and the complex pair alpha +- i beta of the
 * inverse of its coefficient matrix (Hairer & Wanner IV.8), the shifts of E1 and E2 times h. */
static inline void radau_shifts(double *gamma, double *alpha, double *beta)
{
  double c81 = cbrt(81.0), c9 = cbrt(9.0);
  double u1 = (6.0 + c81 - c9) / 30.0, al = (12.0 - c81 + c9) / 60.0;
  double be = (c81 + c9) * sqrt(3.0) / 60.0, cno = al * al + be * be;
  *gamma = 1.0 / u1;
  *alpha = al / cno;
  *beta = be / cno;
}

#endif /* MBDAE_TESTS_LINALG_SUPPORT_H */
