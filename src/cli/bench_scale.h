/* mbdae bench --sizes: the cost of one problem at several sizes (bench_scale.c). */
#ifndef MBDAE_CLI_BENCH_SCALE_H
#define MBDAE_CLI_BENCH_SCALE_H

/* What one scaling bench runs: spec without its size key, sizes as n=..., and optionally an end
 * time as tend=... (the problem must have both keys), each solver at rtol = atol. */
typedef struct bench_scale_plan {
  const char *spec;
  const char *const *sizes; /* decimal sizes, validated by bench_scale */
  int nsizes;
  const char *tend; /* NULL: the problem's */
  double rtol;
  const char *const *solvers;
  int nsolvers;
  int repeat;
  int linsys; /* mbdae_options.linsys of every run (--linsys) */
} bench_scale_plan;

/* Run the plan, print one row per size and solver and each solver's fitted exponent; returns
 * an exit code (EXIT_USAGE for a bad spec or size, EXIT_FAILED_RUN when a run failed). */
int bench_scale(const bench_scale_plan *plan);

#endif /* MBDAE_CLI_BENCH_SCALE_H */
