/* mbdae run and mbdae table: integrate problems and print their run characteristics.
 *
 * Defaults follow the test set's runs: atol = rtol, h0 = h0_factor * rtol (1e-2 rtol for the
 * slider crank, rtol otherwise); without --rtol, run uses the problem's default tolerance and table
 * uses the tolerances of the published run-characteristics table.  --hmax bounds the step size
 * (not part of the test set's runs: its tables give rtol, atol and h0 only).  --ref FILE takes the
 * reference from a file of `mbdae refsol SPEC --out FILE` (read_reference_file) instead of the
 * problem's own: scd and mescd for a configuration without a committed reference.
 * --trajectory FILE writes the solution over time as CSV (trajectory.c): the initial values and
 * the state after every accepted step (mbdae_options.on_accept), ending with the state printed
 * as y(tend); with --samples N instead the continuous output at N equidistant times
 * (mbdae_options.tout/yout, as plot draws it). */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"

typedef struct run_args {
  const char *spec;
  const char *solver;
  double rtol, atol, h0; /* 0: not given */
  double hmax;           /* 0: no bound */
  int repeat;
  long max_steps; /* 0: the solver's default */
  int json;
  int history;
  const char *ref_file;   /* --ref FILE, or NULL */
  int linsys;             /* --linsys: an mbdae_jac_kind (mbdae_options.linsys) */
  const char *trajectory; /* --trajectory FILE, or NULL */
  int samples;            /* --samples N; 0: the accepted steps */
} run_args;

/* Parse the options common to run and table; allow_extra enables --json and --history. */
static int parse_run_args(int argc, char **argv, int allow_extra, run_args *a)
{
  memset(a, 0, sizeof *a);
  a->solver = "ida";
  a->repeat = 1;
  for (int i = 1; i < argc; i++) {
    const char *arg = argv[i], *v = NULL;
    if (strcmp(arg, "--solver") == 0) {
      if (!(v = option_value(argc, argv, &i))) {
        return -1;
      }
      a->solver = v; /* checked below, once every --plugin is loaded */
    } else if (strcmp(arg, "--plugin") == 0) {
      if (!(v = option_value(argc, argv, &i)) || plugin_load(v) != 0) {
        return -1;
      }
    } else if (strcmp(arg, "--rtol") == 0 || strcmp(arg, "--atol") == 0 ||
               strcmp(arg, "--h0") == 0 || strcmp(arg, "--hmax") == 0) {
      double *dst = arg[2] == 'r'   ? &a->rtol
                    : arg[2] == 'a' ? &a->atol
                    : arg[3] == '0' ? &a->h0
                                    : &a->hmax;
      if (!(v = option_value(argc, argv, &i)) ||
          (dst == &a->rtol ? parse_rtol(arg, v, dst) : parse_positive(arg, v, dst)) != 0) {
        return -1;
      }
    } else if (strcmp(arg, "--repeat") == 0) {
      if (!(v = option_value(argc, argv, &i)) || parse_int(arg, v, 1, 1000, &a->repeat) != 0) {
        return -1;
      }
    } else if (strcmp(arg, "--linsys") == 0) {
      if (!(v = option_value(argc, argv, &i)) || parse_linsys(arg, v, &a->linsys) != 0) {
        return -1;
      }
    } else if (strcmp(arg, "--ref") == 0) {
      if (!(a->ref_file = option_value(argc, argv, &i))) {
        return -1;
      }
    } else if (allow_extra && strcmp(arg, "--max-steps") == 0) {
      int steps = 0;
      if (!(v = option_value(argc, argv, &i)) || parse_int(arg, v, 1, 100000000, &steps) != 0) {
        return -1;
      }
      a->max_steps = steps;
    } else if (allow_extra && strcmp(arg, "--trajectory") == 0) {
      if (!(a->trajectory = option_value(argc, argv, &i))) {
        return -1;
      }
    } else if (allow_extra && strcmp(arg, "--samples") == 0) {
      if (!(v = option_value(argc, argv, &i)) || parse_int(arg, v, 2, 10000000, &a->samples) != 0) {
        return -1;
      }
    } else if (allow_extra && strcmp(arg, "--json") == 0) {
      a->json = 1;
    } else if (allow_extra && strcmp(arg, "--history") == 0) {
      a->history = 1;
    } else if (arg[0] == '-' && arg[1] != '\0') {
      unknown_option(argv[0], arg);
      return -1;
    } else if (!a->spec) {
      a->spec = arg;
    } else {
      usage_error("unexpected argument '%s' (one problem spec expected)", arg);
      return -1;
    }
  }
  if (!a->spec) {
    usage_error("a problem spec is required, e.g. caraxis or crank:index=3 (see mbdae list)");
    return -1;
  }
  if (a->samples && !a->trajectory) {
    usage_error("--samples N goes with --trajectory FILE");
    return -1;
  }
  if (a->trajectory && trajectory_check_path(a->trajectory) != 0) {
    return -1;
  }
  return check_solver(a->solver);
}

double *load_reference(const char *path, const mbdae_problem *p)
{
  double *yref = malloc(sizeof(double) * (size_t)mbdae_problem_neq(p));
  if (!yref) {
    usage_error("--ref: out of memory");
  } else if (read_reference_file(path, p, yref) != 0) {
    free(yref);
    yref = NULL;
  }
  return yref;
}

int use_reference(mbdae_record *rec, const mbdae_problem *p, const double *yref,
                  const mbdae_options *opt)
{
  size_t bytes = sizeof(double) * (size_t)rec->neq;
  if (!rec->yref && !(rec->yref = malloc(bytes))) {
    return MBDAE_ERR_NOMEM;
  }
  memcpy(rec->yref, yref, bytes);
  if (rec->status == 0 && rec->y) {
    rec->scd = mbdae_scd(p, rec->y, rec->yref);
    rec->mescd = mbdae_mescd(p, rec->y, rec->yref, opt->rtol, opt->atol);
  }
  return 0;
}

/* What to add to the library's refusal of a too small h0 when --h0 was not given: where the h0
 * came from and how to set it; else "". */
static const char *h0_hint(int rc, const char *message, int h0_given)
{
  if (rc != MBDAE_ERR_ARG || h0_given || strncmp(message, "h0 ", 3) != 0) {
    return "";
  }
  return "; h0 defaults to h0_factor rtol (rtol; slider crank 1e-2 rtol, mbdae list): give a "
         "larger --rtol or set the initial step with --h0";
}

static void print_step(void *ctx, double t, double h, int order)
{
  fprintf((FILE *)ctx, "step t = %.16e h = %.6e order = %d\n", t, h, order);
}

/* The record as one JSON object (mbdae_record_write_json) with "linsys" first: the storage of the
 * iteration matrix the run used, which the record does not hold. */
static void write_json_with_linsys(const mbdae_record *rec, const char *linsys)
{
  char *text = NULL;
  size_t len = 0;
  FILE *mem = open_memstream(&text, &len);
  if (mem) {
    mbdae_record_write_json(mem, rec);
  }
  if (!mem || fclose(mem) != 0 || len < 2 || text[0] != '{') {
    fprintf(stderr, "mbdae: out of memory writing the JSON record\n");
  } else {
    printf("{\"linsys\": \"%s\", %s\n", linsys, text + 1);
  }
  free(text);
}

/* Set opt up to collect the trajectory of --trajectory into tr: output times (--samples) or the
 * initial values and an on_accept.  0, or -1 after a message. */
static int start_trajectory(const mbdae_problem *p, const run_args *a, mbdae_options *opt,
                            trajectory *tr)
{
  size_t neq = (size_t)mbdae_problem_neq(p), rows = a->samples ? (size_t)a->samples : 1;
  trajectory_init(tr, (int)neq);
  tr->t = malloc(sizeof(double) * rows);
  tr->y = malloc(sizeof(double) * (rows + 1) * neq); /* + y' of the initial values */
  if (!tr->t || !tr->y) {
    usage_error("--trajectory: out of memory");
    return -1;
  }
  tr->cap = rows;
  if (a->samples) {
    equidistant_times(mbdae_problem_t0(p), mbdae_problem_tend(p), a->samples, tr->t);
    for (size_t i = 0; i < rows * neq; i++) {
      tr->y[i] = NAN; /* what the run does not reach stays NaN and is left out */
    }
    tr->nrows = rows;
    opt->tout = tr->t;
    opt->ntout = a->samples;
    opt->yout = tr->y;
    return 0;
  }
  if (mbdae_problem_init(p, tr->y, tr->y + neq) != 0) {
    usage_error("--trajectory: the initial values of %s cannot be computed", mbdae_problem_spec(p));
    return -1;
  }
  tr->t[0] = mbdae_problem_t0(p);
  tr->nrows = 1;
  opt->on_accept = trajectory_on_accept;
  opt->on_accept_ctx = tr;
  return 0;
}

/* Write the trajectory of a run that ended at rec->t with rec->y: from the accepted steps, that
 * end state is the last row (added when the solver's last accepted step is not it). */
static int finish_trajectory(const run_args *a, trajectory *tr, const mbdae_record *rec)
{
  if (!a->samples && tr->nrows == 1 && rec->stats.accepted > 0) {
    fprintf(stderr,
            "mbdae: note: %s reports no accepted states (mbdae_options.on_accept): %s holds the "
            "initial values and the end only; --samples N gives N points\n",
            rec->solver, a->trajectory);
  }
  if (!a->samples && rec->y && tr->nrows > 0 && !(tr->t[tr->nrows - 1] == rec->t)) {
    trajectory_append(tr, rec->t, rec->y);
  } else if (!a->samples && rec->y && tr->nrows > 0) {
    memcpy(tr->y + (tr->nrows - 1) * tr->neq, rec->y, sizeof(double) * tr->neq);
  }
  if (tr->nomem) {
    return usage_error("--trajectory: out of memory for %zu states", tr->nrows);
  }
  return trajectory_write_csv(a->trajectory, (const char *const *)rec->names, tr->t, tr->y,
                              tr->nrows, tr->neq);
}

/* What run prints of a run: one JSON object, or the table row, the drift and y(tend). */
static void print_run(const run_args *a, const mbdae_problem *p, const mbdae_options *opt,
                      const mbdae_record *rec)
{
  if (a->json) {
    write_json_with_linsys(rec, linsys_used(p, a->solver, opt->linsys));
    return;
  }
  printf("%s (%s), solver %s, linsys %s\n", mbdae_problem_title(p), mbdae_problem_spec(p),
         a->solver, linsys_used(p, a->solver, opt->linsys));
  print_table_header(stdout);
  print_table_row(stdout, rec);
  print_digits_legend(stdout);
  print_drift(stdout, rec);
  print_trajectory_digits(stdout, rec);
  if (rec->status == 0) {
    print_final_vector(stdout, p, rec);
  }
  if (a->ref_file) {
    printf("reference values: %s (--ref)\n", a->ref_file);
  }
}

int cmd_run(int argc, char **argv)
{
  run_args a;
  if (parse_run_args(argc, argv, 1, &a) != 0) {
    return EXIT_USAGE;
  }
  mbdae_problem *p = open_problem(a.spec);
  if (!p) {
    return EXIT_USAGE;
  }
  double *yref = a.ref_file ? load_reference(a.ref_file, p) : NULL;
  if (a.ref_file && !yref) {
    mbdae_problem_destroy(p);
    return EXIT_USAGE;
  }
  warn_inconsistent_start(p);
  mbdae_options opt;
  test_set_options(p, a.rtol, a.atol, a.h0, a.max_steps, &opt); /* rtol 0: the run tolerance */
  opt.hmax = a.hmax;
  opt.linsys = a.linsys;
  if (a.history) {
    opt.on_step = print_step;
    opt.on_step_ctx = a.json ? stderr : stdout;
  }
  trajectory tr = {0};
  if (a.trajectory && start_trajectory(p, &a, &opt, &tr) != 0) {
    trajectory_free(&tr);
    free(yref);
    mbdae_problem_destroy(p);
    return EXIT_USAGE;
  }
  mbdae_record rec = MBDAE_RECORD_INIT;
  int rc = execute_run(p, a.solver, &opt, a.repeat, &rec);
  if (yref && rc != MBDAE_ERR_NOMEM && rc != MBDAE_ERR_ARG && rc != MBDAE_ERR_UNKNOWN_SOLVER) {
    rc = use_reference(&rec, p, yref, &opt) == 0 ? rc : MBDAE_ERR_NOMEM;
  }
  free(yref);
  if (rc == MBDAE_ERR_NOMEM || rc == MBDAE_ERR_ARG || rc == MBDAE_ERR_UNKNOWN_SOLVER) {
    fprintf(stderr, "mbdae: %s%s\n", rec.message[0] ? rec.message : mbdae_strerror(rc),
            h0_hint(rc, rec.message, a.h0 > 0.0));
    mbdae_record_free(&rec);
    trajectory_free(&tr);
    mbdae_problem_destroy(p);
    return EXIT_USAGE;
  }
  int written = a.trajectory ? finish_trajectory(&a, &tr, &rec) : EXIT_OK;
  trajectory_free(&tr);
  print_run(&a, p, &opt, &rec);
  if (rc != 0) { /* the message ends with the reason; strerror(rc) only when there is none */
    fprintf(stderr, "mbdae: %s failed on %s: %s\n", a.solver, mbdae_problem_spec(p),
            rec.message[0] ? rec.message : mbdae_strerror(rc));
  }
  mbdae_record_free(&rec);
  mbdae_problem_destroy(p);
  return written != EXIT_OK ? written : rc == 0 ? EXIT_OK : EXIT_FAILED_RUN;
}

/* The table of one problem (yref: --ref, or NULL); returns the number of failed runs, and counts
 * those refused for their options (MBDAE_ERR_ARG: bad input, as run reports it) in *refused. */
static int table_for(const mbdae_problem *p, const run_args *a, const double *yref, int *refused)
{
  mbdae_tolerance_plan plan = MBDAE_TOLERANCE_PLAN_INIT;
  mbdae_problem_tolerances(p, &plan);
  int nfail = 0;
  warn_inconsistent_start(p);
  printf("\n%s (%s), linsys %s\n", mbdae_problem_title(p), mbdae_problem_spec(p),
         linsys_used(p, a->solver, a->linsys));
  print_table_header(stdout);
  int nrows = a->rtol > 0.0 ? 1 : plan.ntable;
  for (int k = 0; k < nrows; k++) {
    mbdae_options opt;
    test_set_options(p, a->rtol > 0.0 ? a->rtol : plan.table_rtol[k], a->atol, a->h0, 0, &opt);
    opt.hmax = a->hmax;
    opt.linsys = a->linsys;
    mbdae_record rec = MBDAE_RECORD_INIT;
    int rc = execute_run(p, a->solver, &opt, a->repeat, &rec);
    if (yref && rec.neq > 0 && use_reference(&rec, p, yref, &opt) != 0) {
      rc = MBDAE_ERR_NOMEM;
      snprintf(rec.message, sizeof rec.message, "%s", mbdae_strerror(rc));
    }
    if (rc != 0) {
      nfail++;
      *refused += rc == MBDAE_ERR_ARG;
      fprintf(stderr, "mbdae: %s failed on %s at rtol %g: %s%s\n", a->solver, mbdae_problem_spec(p),
              opt.rtol, rec.message[0] ? rec.message : mbdae_strerror(rc),
              h0_hint(rc, rec.message, a->h0 > 0.0));
    }
    print_table_row(stdout, &rec);
    fflush(stdout);
    mbdae_record_free(&rec);
  }
  print_digits_legend(stdout);
  return nfail;
}

int cmd_table(int argc, char **argv)
{
  run_args a;
  if (parse_run_args(argc, argv, 0, &a) != 0) {
    return EXIT_USAGE;
  }
  int all = strcmp(a.spec, "all") == 0, nfail = 0, refused = 0;
  int count = all ? mbdae_problem_count() : 1;
  if (all && a.ref_file) {
    return usage_error("--ref FILE is the reference of one configuration, not of table all");
  }
  for (int i = 0; i < count; i++) {
    mbdae_problem *p = open_problem(all ? mbdae_problem_id(i) : a.spec);
    double *yref = p && a.ref_file ? load_reference(a.ref_file, p) : NULL;
    if (!p || (a.ref_file && !yref)) {
      mbdae_problem_destroy(p);
      return EXIT_USAGE;
    }
    nfail += table_for(p, &a, yref, &refused);
    free(yref);
    mbdae_problem_destroy(p);
  }
  return refused ? EXIT_USAGE : nfail ? EXIT_FAILED_RUN : EXIT_OK;
}
