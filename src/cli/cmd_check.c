/* mbdae check: is a problem what it claims?  The residual at the initial values against the
 * size of its terms; the hidden constraints at t0; at every check point of the library
 * (initial values, reference, random states: mbdae_problem_check_points) the analytic Jacobian
 * against central differences entry by entry and the constraints' velocity and acceleration
 * levels against the derivatives of the level below (mbdae_check_all, the routine the tests
 * use); and where the reference comes from.  Exit 1 when a check fails.  --plugin FILE loads a
 * plug-in, so that a user's own problem can be checked by its id. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"

static double max_abs(const double *v, int n)
{
  double m = 0.0;
  for (int i = 0; i < n; i++) {
    m = fmax(m, fabs(v[i]));
  }
  return m;
}

static const char *const MATRIX_NAME[2] = {"dF/dy", "dF/dy'"};

/* One line per point for the Jacobian (1-based rows and columns, as the test set numbers y),
 * and one for the place where the rounding allowance was used.  Returns 1 on a mismatch. */
static int print_jac(const mbdae_jac_check *c, int approximate)
{
  const char *verdict =
      c->ok ? "ok" : (approximate ? "approximate by design (jac=approx)" : "MISMATCH");
  printf("  Jacobian:    worst %s(%d,%d): J = %.6e, D = %.6e, err %.1e  %s\n",
         MATRIX_NAME[c->matrix], c->row + 1, c->col + 1, c->jac, c->fd, c->err, verdict);
  if (c->nrounding > 0) {
    printf("               rounding allowance used at %d entr%s, largest %.1e at %s(%d,%d)\n",
           c->nrounding, c->nrounding == 1 ? "y" : "ies", c->rounding,
           MATRIX_NAME[c->rounding_matrix], c->rounding_row + 1, c->rounding_col + 1);
  }
  if (c->noutside > 0) {
    printf("               %d row%s with a nonzero difference quotient outside the stated "
           "Jacobian pattern\n",
           c->noutside, c->noutside == 1 ? "" : "s");
  }
  return !c->ok && !approximate;
}

static int print_constraints(const mbdae_constraint_check *c)
{
  printf("  constraints: worst %s %d: %.6e, derivative of %s %.6e, err %.1e  %s\n",
         c->level == 1 ? "g'" : "g''", c->index + 1, c->value, c->level == 1 ? "g" : "g'", c->fd,
         c->err, c->ok ? "ok" : "MISMATCH");
  return !c->ok;
}

/* Both checks at every check point; returns 1 on a mismatch or a failure. */
static int check_points(const mbdae_problem *p)
{
  mbdae_check_points pts = MBDAE_CHECK_POINTS_INIT;
  mbdae_jac_check jac[MBDAE_CHECK_MAX_POINTS] = {MBDAE_JAC_CHECK_INIT};
  mbdae_constraint_check con[MBDAE_CHECK_MAX_POINTS] = {MBDAE_CONSTRAINT_CHECK_INIT};
  mbdae_functions f;
  int rc = mbdae_problem_functions(p, &f);
  if (rc == 0) {
    rc = mbdae_problem_check_points(p, &pts);
  }
  if (rc == 0) {
    rc = mbdae_check_all(&f, &pts, jac, con);
  }
  if (rc != 0) {
    printf("check points: %s  FAILED\n", mbdae_strerror(rc));
    mbdae_check_points_free(&pts);
    return 1;
  }
  printf("check points: steps eps^(1/3) times each variable's typical size (from y0 and the "
         "reference); tolerance %.0e\n",
         MBDAE_CHECK_TOL);
  if (f.pattern.colptr) {
    printf("Jacobian pattern: %s, ml %d, mu %d, %zu entries; columns differenced in groups that "
           "share no row, entries outside the pattern must difference to zero\n",
           mbdae_jac_kind_name(f.pattern.kind), f.pattern.ml, f.pattern.mu, f.pattern.nnz);
  }
  int bad = 0, approximate = mbdae_problem_jac_approximate(p);
  for (int k = 0; k < pts.npoints; k++) {
    printf("%s (t = %g):\n", pts.label[k], pts.t[k]);
    bad |= print_jac(&jac[k], approximate);
    if (f.nconstraints > 0) {
      bad |= print_constraints(&con[k]);
    }
  }
  mbdae_check_points_free(&pts);
  return bad;
}

/* The spec among check's arguments, every --plugin FILE loaded; NULL after a message. */
static const char *parse_check_args(int argc, char **argv)
{
  const char *spec = NULL;
  for (int i = 1; i < argc; i++) {
    const char *v = NULL;
    if (strcmp(argv[i], "--plugin") == 0) {
      if (!(v = option_value(argc, argv, &i)) || plugin_load(v) != 0) {
        return NULL;
      }
    } else if (argv[i][0] == '-' && argv[i][1] != '\0') {
      unknown_option("check", argv[i]);
      return NULL;
    } else if (spec) {
      usage_error("check takes one problem spec, got '%s' and '%s'", spec, argv[i]);
      return NULL;
    } else {
      spec = argv[i];
    }
  }
  if (!spec) {
    usage_error("check takes one problem spec, e.g. mbdae check crank:index=3");
  }
  return spec;
}

int cmd_check(int argc, char **argv)
{
  const char *spec = parse_check_args(argc, argv);
  if (!spec) {
    return EXIT_USAGE;
  }
  mbdae_problem *p = open_problem(spec);
  if (!p) {
    return EXIT_USAGE;
  }
  size_t n = (size_t)mbdae_problem_neq(p), nc = (size_t)mbdae_problem_nconstraints(p);
  double t0 = mbdae_problem_t0(p);
  double *y = calloc(2 * n + 3 * (nc + 1), sizeof(double));
  if (!y) {
    mbdae_problem_destroy(p);
    return usage_error("out of memory");
  }
  double *yp = y + n, *g = yp + n;
  int bad = 0;
  printf("%s (%s), n = %zu, t in [%g, %g]\n", mbdae_problem_title(p), mbdae_problem_spec(p), n, t0,
         mbdae_problem_tend(p));
  mbdae_problem_init(p, y, yp);

  double rabs = 0.0, rrel = 0.0;
  mbdae_problem_residual_size(p, t0, y, yp, &rabs, &rrel);
  bad |= !(rrel <= INITIAL_RESIDUAL_REL_TOL);
  printf("residual at t0:      max |F| = %.3e, max |F_i| / size of terms = %.3e  %s\n", rabs, rrel,
         rrel <= INITIAL_RESIDUAL_REL_TOL ? "ok" : "TOO LARGE");

  if (nc > 0) {
    mbdae_problem_constraints(p, t0, y, yp, g, g + nc, g + 2 * nc);
    printf("hidden constraints:  position %.3e, velocity %.3e, acceleration %.3e\n",
           max_abs(g, (int)nc), max_abs(g + nc, (int)nc), max_abs(g + 2 * nc, (int)nc));
  }
  bad |= check_points(p);

  int rc = mbdae_problem_ref(p, y);
  printf("reference at t = %g: %s\n", mbdae_problem_tend(p),
         rc == 0 ? mbdae_problem_ref_source(p) : mbdae_strerror(rc));
  free(y);
  mbdae_problem_destroy(p);
  return bad ? EXIT_FAILED_RUN : EXIT_OK;
}
