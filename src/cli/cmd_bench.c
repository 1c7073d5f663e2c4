/* mbdae bench: CPU time per problem, solver and table tolerance (median of --repeat runs, 11 by
 * default, after dropping min and max), with the counters beside it, the time per step, and the
 * estimated share of the time spent in residual evaluations, Jacobian evaluations and
 * factorizations.  Beside scd and mescd at t_end, the digits along the solution (issue 35): tscd,
 * tmescd (the least scd and mescd over the reference trajectory's output times) and rms (the
 * time-averaged error in digits), measured in the untimed pass of mbdae_record_run as `mbdae run`
 * measures them, so that the timed runs are not slowed; "-" where a run has none.
 *
 * The shares are estimates: the unit cost of one residual, one Jacobian and one factorization
 * (of the n x n iteration matrix as the solvers factor it) is measured by
 * mbdae_problem_unit_costs, then multiplied by the counters and divided by the run's CPU time.  One
 * factorization event costs what mbdae_solver_lu_cost says from the solver's capabilities: Radau
 * IIA factors a real and (s - 1)/2 complex matrices per event (radau5: one of each; radau at
 * least that, s = 3, 5 or 7), the others one real matrix.  Counts are reproducible; times are
 * not (shared machines).
 *
 * --against FILE prints, under each of our rows, the saved run of the Fortran peer the solver maps
 * to (--peer-map, default radau5=radau5,radau=radau,bdf=mebdfi,mebdf=mebdfi) at the same problem
 * and rtol: mescd and scd differences, and the ratios ours/peer of #f and CPU.  Counts and digits
 * compare across machines; a CPU ratio is only meaningful for a FILE measured on this machine, and
 * only as well as two measurements at different moments agree: interleaved runs of both programs
 * (as scripts/workprecision.py runs them) are the ones for speed claims. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "bench_scale.h"
#include "cli.h"
#include "peer_runs.h"

enum { MAX_BENCH_SOLVERS = 8, MAX_PEER_PAIRS = 8 };

/* Saved peer runs and which peer each of our solvers is compared with. */
typedef struct against {
  peer_run *runs; /* NULL: no --against */
  size_t nruns;
  int npairs;
  const char *ours[MAX_PEER_PAIRS], *peer[MAX_PEER_PAIRS];
} against;

static void print_against(const against *a, const mbdae_problem *p, const char *solver, double rtol,
                          const mbdae_record *rec)
{
  for (int k = 0; a->runs && k < a->npairs; k++) {
    if (strcmp(a->ours[k], solver) != 0) {
      continue;
    }
    const peer_run *pr = peer_runs_find(a->runs, a->nruns, mbdae_problem_name(p), a->peer[k], rtol);
    if (!pr) {
      printf("  vs %-7s no saved run at this rtol\n", a->peer[k]);
    } else if (!pr->ok) {
      printf("  vs %-7s the peer failed here\n", a->peer[k]);
    } else {
      printf("  vs %-7s mescd %+6.2f scd %+6.2f  #f x%.2f  CPU x%.2f (ours / peer)\n", a->peer[k],
             rec->mescd - pr->mescd, rec->scd - pr->scd,
             pr->nres > 0 ? (double)rec->stats.nres / (double)pr->nres : 0.0,
             pr->cpu_seconds > 0.0 ? rec->cpu_seconds / pr->cpu_seconds : 0.0);
    }
  }
}

/* tscd, tmescd and tscd_rms of rec as three columns of width 6, "-" where the run has none (no
 * reference trajectory, a solver without output times): mbdae_record_run measures them in its
 * untimed pass, as for `mbdae run`. */
static void trajectory_columns(char *buf, size_t len, const mbdae_record *rec)
{
  const double v[3] = {rec->tscd, rec->tmescd, rec->tscd_rms};
  size_t n = 0;
  for (int k = 0; k < 3 && n < len; k++) {
    n += (size_t)(isfinite(v[k]) ? snprintf(buf + n, len - n, " %6.2f", v[k])
                                 : snprintf(buf + n, len - n, " %6s", "-"));
  }
}

static void bench_problem(const mbdae_problem *p, const char *const *solvers, int nsolvers,
                          int repeat, int linsys, const against *a, int *nfail)
{
  mbdae_tolerance_plan plan = MBDAE_TOLERANCE_PLAN_INIT;
  mbdae_problem_tolerances(p, &plan);
  mbdae_unit_costs c = MBDAE_UNIT_COSTS_INIT;
  mbdae_problem_unit_costs(p, 2000, &c);
  printf("\n%s (%s), linsys %s: one residual %.2f us, one Jacobian %.2f us, one LU %.2f us "
         "(real) / %.2f us (complex)\n",
         mbdae_problem_title(p), mbdae_problem_spec(p), linsys_used(p, "radau5", linsys),
         1e6 * c.res, 1e6 * c.jac, 1e6 * c.lu_real, 1e6 * c.lu_complex);
  printf("%-7s %-7s %6s %6s %6s %6s %6s %7s %8s %6s %6s %10s %10s %10s %8s %6s %6s %6s\n", "solver",
         "rtol", "mescd", "scd", "tscd", "tmescd", "rms", "steps", "#f", "#Jac", "#LU", "CPU med",
         "CPU min", "CPU max", "us/step", "%res", "%jac", "%LU");
  for (int s = 0; s < nsolvers; s++) {
    for (int k = 0; k < plan.ntable; k++) {
      mbdae_options opt;
      test_set_options(p, plan.table_rtol[k], 0.0, 0.0, 0, &opt);
      opt.linsys = linsys;
      mbdae_record rec = MBDAE_RECORD_INIT;
      int rc = execute_run(p, solvers[s], &opt, repeat, &rec);
      const mbdae_stats *st = &rec.stats;
      double cpu = rec.cpu_seconds;
      double lu = mbdae_solver_lu_cost(solver_type_of(solvers[s]), &c);
      double share = cpu > 0.0 ? 100.0 / cpu : 0.0;
      if (rc != 0) {
        (*nfail)++;
        printf("%-7s %-7.0e failed: %s\n", solvers[s], opt.rtol, rec.message);
      } else {
        char traj[64];
        trajectory_columns(traj, sizeof traj, &rec);
        printf("%-7s %-7.0e %6.2f %6.2f%s %7ld %8ld %6ld %6ld %10.6f %10.6f %10.6f %8.2f %6.1f "
               "%6.1f %6.1f\n",
               solvers[s], opt.rtol, rec.mescd, rec.scd, traj, st->steps, st->nres, st->njac,
               st->nlu, cpu, rec.cpu_min, rec.cpu_max, st->steps ? 1e6 * cpu / st->steps : 0.0,
               share * c.res * st->nres, share * c.jac * st->njac, share * lu * st->nlu);
        print_against(a, p, solvers[s], opt.rtol, &rec);
      }
      fflush(stdout);
      mbdae_record_free(&rec);
    }
  }
  print_digits_legend(stdout);
  puts("tmescd: the least mescd along the solution; rms: -log10 of the root mean square over those "
       "times of scd's relative error (SciML's time-averaged error, in digits)");
}

/* --solvers a,b: known solvers, each once. */
static int parse_solvers(const char *text, char *buf, size_t len, const char **solvers)
{
  int n = split_items("--solvers", text, buf, len, solvers, MAX_BENCH_SOLVERS);
  for (int i = 0; i < n; i++) {
    if (check_solver(solvers[i]) != 0) {
      return -1;
    }
    for (int j = 0; j < i; j++) {
      if (strcmp(solvers[j], solvers[i]) == 0) {
        usage_error("--solvers names %s twice", solvers[i]);
        return -1;
      }
    }
  }
  return n;
}

/* --peer-map ours=peer,...: each pair two plain ids. */
static int parse_peer_map(const char *text, char *buf, size_t len, against *a)
{
  const char *items[MAX_PEER_PAIRS];
  int n = split_items("--peer-map", text, buf, len, items, MAX_PEER_PAIRS);
  for (int k = 0; k < n; k++) {
    char *eq = strchr(items[k], '=');
    if (!eq) {
      usage_error("--peer-map expects ours=peer pairs, e.g. radau5=radau5,bdf=mebdfi; got '%s'",
                  items[k]);
      return -1;
    }
    *eq = '\0';
    if (!mbdae_record_id_ok(items[k]) || !mbdae_record_id_ok(eq + 1)) {
      usage_error("--peer-map: '%s=%s' is not a pair of plain ids", items[k], eq + 1);
      return -1;
    }
    a->ours[k] = items[k], a->peer[k] = eq + 1;
  }
  a->npairs = n < 0 ? 0 : n;
  return n < 0 ? -1 : 0;
}

/* The saved peer runs of --against, validated before anything runs; the default pairs. */
static int load_against(const char *path, const char *map, char *buf, size_t len, against *a)
{
  char msg[512];
  if (peer_runs_read(path, &a->runs, &a->nruns, msg, sizeof msg) != 0) {
    usage_error("--against: %s", msg);
    return -1;
  }
  return parse_peer_map(map ? map : "radau5=radau5,radau=radau,bdf=mebdfi,mebdf=mebdfi", buf, len,
                        a);
}

/* --sizes, --tend, --rtol: the options of the scaling bench (bench_scale.c). */
typedef struct scale_options {
  const char *sizes, *tend;
  double rtol;
} scale_options;

/* 1 when argv[*i] is an option of the scaling bench (taken, or -1 on a bad value), else 0. */
static int scale_option(int argc, char **argv, int *i, scale_options *so)
{
  const char *v = NULL;
  if (strcmp(argv[*i], "--sizes") == 0 || strcmp(argv[*i], "--tend") == 0) {
    const char **to = argv[*i][2] == 's' ? &so->sizes : &so->tend;
    double tend;
    if (!(v = option_value(argc, argv, i)) ||
        (to == &so->tend && parse_positive("--tend", v, &tend) != 0)) {
      return -1;
    }
    *to = v;
    return 1;
  }
  if (strcmp(argv[*i], "--rtol") == 0) {
    return (v = option_value(argc, argv, i)) && parse_rtol("--rtol", v, &so->rtol) == 0 ? 1 : -1;
  }
  return 0;
}

static int run_scale(const char *spec, const scale_options *so, const char *const *solvers,
                     int nsolvers, int repeat, int linsys)
{
  char buf[256];
  const char *sizes[16];
  int nsizes = split_items("--sizes", so->sizes, buf, sizeof buf, sizes, 16);
  if (nsizes < 0) {
    return EXIT_USAGE;
  }
  if (!spec || strcmp(spec, "all") == 0) {
    return usage_error("--sizes needs one problem spec with a size key n, e.g. chain");
  }
  bench_scale_plan plan = {.spec = spec,
                           .sizes = sizes,
                           .nsizes = nsizes,
                           .tend = so->tend,
                           .rtol = so->rtol,
                           .solvers = solvers,
                           .nsolvers = nsolvers,
                           .repeat = repeat,
                           .linsys = linsys};
  return bench_scale(&plan);
}

int cmd_bench(int argc, char **argv)
{
  const char *spec = NULL, *solver_list = NULL, *against_path = NULL, *peer_map = NULL;
  scale_options so = {.rtol = 1e-6};
  int taken = 0, repeat_given = 0;
  const char *solvers[MAX_BENCH_SOLVERS];
  int nsolvers = 0, repeat = 11, linsys = MBDAE_JAC_AUTO;
  char list[256];
  for (int i = 1; i < argc; i++) {
    const char *v = NULL;
    if ((taken = scale_option(argc, argv, &i, &so)) != 0) {
      if (taken < 0) {
        return EXIT_USAGE;
      }
    } else if (strcmp(argv[i], "--repeat") == 0) {
      if (!(v = option_value(argc, argv, &i)) || parse_int("--repeat", v, 1, 1000, &repeat) != 0) {
        return EXIT_USAGE;
      }
      repeat_given = 1;
    } else if (strcmp(argv[i], "--linsys") == 0) {
      if (!(v = option_value(argc, argv, &i)) || parse_linsys("--linsys", v, &linsys) != 0) {
        return EXIT_USAGE;
      }
    } else if (strcmp(argv[i], "--solvers") == 0 || strcmp(argv[i], "--solver") == 0) {
      if (!(solver_list = option_value(argc, argv, &i))) { /* checked once the plug-ins are in */
        return EXIT_USAGE;
      }
    } else if (strcmp(argv[i], "--against") == 0 || strcmp(argv[i], "--peer-map") == 0) {
      const char **to = argv[i][2] == 'a' ? &against_path : &peer_map;
      if (!(*to = option_value(argc, argv, &i))) {
        return EXIT_USAGE;
      }
    } else if (strcmp(argv[i], "--plugin") == 0) {
      if (!(v = option_value(argc, argv, &i)) || plugin_load(v) != 0) {
        return EXIT_USAGE;
      }
    } else if (argv[i][0] == '-') {
      return unknown_option("bench", argv[i]);
    } else if (spec) {
      return usage_error("unexpected argument '%s' (one problem spec, or all, expected)", argv[i]);
    } else {
      spec = argv[i];
    }
  }
  spec = spec ? spec : "all";
  if (solver_list && (nsolvers = parse_solvers(solver_list, list, sizeof list, solvers)) < 0) {
    return EXIT_USAGE;
  }
  if (nsolvers == 0) { /* every general built-in solver, then the plug-ins' */
    for (int s = 0; s < mbdae_solver_count() && nsolvers < MAX_BENCH_SOLVERS; s++) {
      if (!mbdae_solver_get(s)->runs_on) {
        solvers[nsolvers++] = mbdae_solver_id(s);
      }
    }
    for (int s = 0; s < plugin_solver_count() && nsolvers < MAX_BENCH_SOLVERS; s++) {
      if (!plugin_solver(s)->runs_on) {
        solvers[nsolvers++] = plugin_solver(s)->id;
      }
    }
  }
  if (so.sizes) {
    if (against_path || peer_map) {
      return usage_error("--against and --peer-map do not go with --sizes");
    }
    return run_scale(spec, &so, solvers, nsolvers, repeat_given ? repeat : 1, linsys);
  }
  if (so.tend || so.rtol != 1e-6) {
    return usage_error("--tend and --rtol go with --sizes");
  }
  against a = {0};
  char map[256];
  if (peer_map && !against_path) {
    return usage_error("--peer-map goes with --against FILE");
  }
  if (against_path && load_against(against_path, peer_map, map, sizeof map, &a) != 0) {
    free(a.runs);
    return EXIT_USAGE;
  }
  int all = strcmp(spec, "all") == 0, nfail = 0;
  printf(
      "mbdae bench: CPU seconds are the median of %d runs without min and max; %%res, %%jac, %%LU "
      "are estimated shares (unit cost x count / CPU)\n",
      repeat);
  for (int i = 0; i < (all ? mbdae_problem_count() : 1); i++) {
    mbdae_problem *p = open_problem(all ? mbdae_problem_id(i) : spec);
    if (!p) {
      free(a.runs);
      return EXIT_USAGE;
    }
    bench_problem(p, solvers, nsolvers, repeat, linsys, &a, &nfail);
    mbdae_problem_destroy(p);
  }
  free(a.runs);
  return nfail ? EXIT_FAILED_RUN : EXIT_OK;
}
