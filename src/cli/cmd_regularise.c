/* mbdae regularise: Table 1 of Hafner & Poell, "Comparison of regularisation methods referring to
 * a multi-pendulum case study" (2015), reproduced with our solvers beside the paper's values.
 *
 * One row per method of the table, in its order, each a real run over [0, tend] (tend = 100 as
 * in the paper):
 *   dasc              form=index1: the constraint replaced by its second derivative (eq. (3));
 *   baumgarte_a_ne_b  form=baumgarte, alpha = 5, beta = 10 (eq. (4); the paper prints no values:
 *                     ours are an underdamped choice, and the critically damped one below);
 *   baumgarte_a_eq_b  form=baumgarte, alpha = beta = 10;
 *   pantelides        Table 1's P: form=dummy, Mattsson & Soederlind's dummy derivatives over
 *                     a state selection, switched where its pivot degenerates
 *                     (mbdae_solve_dummy; the number of switches is reported beside the row);
 *   opm               form=index1 and the orthogonal projection after every accepted step
 *                     (mbdae_projector: positions onto g = 0, velocities onto G v = 0);
 *   spm               form=index1 with the solver spm (Hairer's symmetric projection around the
 *                     2-stage Gauss method, solvers/spm.c), whatever --solver says;
 *   sst               form=ssf, the angles of eqs. (5), (7).
 * "max err" is the paper's "deviation from the circular paths": with the Cartesian positions of
 * the state after every accepted step (on_accept), e = | sqrt(x^2 + y^2) - 1 | for the pendulum,
 * and e1 = | sqrt(x1^2 + y1^2) - 1 |, e2 = | sqrt((x2 - x1)^2 + (y2 - y1)^2) - 1 | for the double
 * pendulum (unit lengths), the largest over the run; for sst the positions are mapped from the
 * angles as eqs. (5), (7) write them (x1 = cos phi1, x2 = x1 + cos phi2, ...), in double
 * precision, so that e measures what the paper measures.  The initial point is exact in every
 * form and is not sampled.  CPU: in-process, one run (mbdae_solve), beside the paper's MATLAB
 * seconds and their ratio.  scd at tend against the problem's reference where there is one for
 * that interval (pendulum: [0, 100]; the double pendulum's reference is at t = 10 only).
 * A problem whose interval is not [0, tend] is run as a user's problem over [0, tend] with the
 * same functions (the specs have no tend= key), without a reference; but spm needs the problem's
 * constraints, which a user's problem cannot state, so its double pendulum over [0, 100] is the
 * chain of two links (chain:n=2,tend=100: the same equations and start; over [0, 10]
 * spm gives the same numbers on both, bit for bit). */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "new_file.h"

enum { MAX_LINKS = 2, MAX_N = 16 };

/* Spec/004, Table 1 ("Maximal error and simulation time", MATLAB R2012b): max err e and t(s) for
 * the pendulum; max err e1, e2 and t(s) for the double pendulum. */
typedef struct paper_values {
  double err[MAX_LINKS]; /* pendulum: err[0] only */
  double seconds;
} paper_values;

typedef struct method {
  const char *id;        /* the method's name in --json rows */
  const char *label;     /* Table 1's row label */
  const char *form;      /* spec keys of the form; NULL: not implemented */
  int projected;         /* 1: orthogonal projection after every step */
  const char *solver;    /* the solver of the row; NULL: the command's --solver */
  paper_values paper[2]; /* [0] pendulum, [1] double pendulum */
} method;

static const method METHODS[] = {
    {"dasc", "DaS C", "form=index1", 0, NULL, {{{24.731, 0}, 1.1}, {{1.008, 9.495}, 4.9}}},
    {"baumgarte_a_ne_b",
     "alpha != beta",
     "form=baumgarte,alpha=5,beta=10",
     0,
     NULL,
     {{{1.909e-5, 0}, 1.7}, {{1.612e-4, 1.605e-4}, 11.7}}},
    {"baumgarte_a_eq_b",
     "alpha = beta",
     "form=baumgarte,alpha=10,beta=10",
     0,
     NULL,
     {{{2.464e-4, 0}, 0.7}, {{2.242e-5, 0.013}, 3.8}}},
    {"pantelides",
     "P",
     "form=dummy",
     0,
     NULL,
     {{{3.345e-4, 0}, 8.5}, {{1.550e-4, 2.677e-4}, 21.0}}},
    {"opm",
     "OPM",
     "form=index1",
     1,
     NULL,
     {{{5.551e-16, 0}, 76.2}, {{4.441e-16, 6.662e-16}, 166.6}}},
    {"spm", "SPM", "form=index1", 0, "spm", {{{2.701e-8, 0}, 71.7}, {{2.538e-7, 4.764e-7}, 129.6}}},
    {"sst", "SST", "form=ssf", 0, NULL, {{{2.221e-16, 0}, 0.6}, {{2.221e-16, 2.221e-16}, 3.7}}},
};
enum { NMETHODS = (int)(sizeof METHODS / sizeof METHODS[0]) };

/* The two case studies: their ids, links, and the component names of the positions (Cartesian
 * forms) and angles (form=ssf), link by link. */
typedef struct study {
  const char *id;
  int links;
  const char *pos[MAX_LINKS][2]; /* x, y of each mass */
  const char *angle[MAX_LINKS];
  const char *chain_pos[MAX_LINKS][2]; /* the same in the chain of as many links (spm's rows) */
} study;

static const study STUDIES[2] = {
    {"pendulum", 1, {{"x", "y"}}, {"phi"}, {{"x1", "y1"}}},
    {"dpendulum", 2, {{"x1", "y1"}, {"x2", "y2"}}, {"phi1", "phi2"}, {{"x1", "y1"}, {"x2", "y2"}}},
};

/* The command line. */
typedef struct reg_args {
  int which[2]; /* 1: run the study */
  const char *solver;
  double rtol, tend;
  int json;
  const char *out; /* Markdown file, or NULL */
} reg_args;

/* One row as run. */
typedef struct row {
  const study *st;
  const method *m;
  char spec[128];
  int ran;           /* 0: not implemented */
  int status;        /* MBDAE_OK or the run's code */
  char message[400]; /* why it failed */
  double err[MAX_LINKS], cpu, scd;
  long steps;
  int switches; /* form=dummy: selection switches (mbdae_solve_dummy) */
} row;

/* ---- the deviation from the circular paths, after every accepted step ---------------------- */

typedef struct path_watch {
  int links;
  int angles;            /* 1: y holds the angles (form=ssf), mapped as eqs. (5), (7) */
  int at[MAX_LINKS][2];  /* components: x, y of each mass; with angles at[k][0] the angle */
  double err[MAX_LINKS]; /* largest deviation of each link so far */
  long states;           /* accepted states seen */
} path_watch;

static void observe_paths(void *ctx, double t, const double *y, const double *yp)
{
  path_watch *w = ctx;
  (void)t, (void)yp;
  w->states++;
  double x0 = 0.0, y0 = 0.0; /* the link's inner end: the hinge, then the previous mass */
  for (int k = 0; k < w->links; k++) {
    double x, yk;
    if (w->angles) {
      x = x0 + cos(y[w->at[k][0]]);
      yk = y0 + sin(y[w->at[k][0]]);
    } else {
      x = y[w->at[k][0]];
      yk = y[w->at[k][1]];
    }
    double dx = x - x0, dy = yk - y0;
    w->err[k] = fmax(w->err[k], fabs(sqrt(dx * dx + dy * dy) - 1.0));
    x0 = x;
    y0 = yk;
  }
}

/* The index of the component named name, or -1. */
static int component_at(const mbdae_problem *p, const char *name)
{
  for (int i = 0; i < mbdae_problem_neq(p); i++) {
    if (strcmp(mbdae_problem_component(p, i), name) == 0) {
      return i;
    }
  }
  return -1;
}

/* The watch of study st on p (angles for form=ssf; the chain's names when p is the chain that
 * stands in for the study's problem); -1 when p lacks a component it needs. */
static int watch_setup(path_watch *w, const study *st, const mbdae_problem *p, int angles)
{
  memset(w, 0, sizeof *w);
  w->links = st->links;
  w->angles = angles;
  int chain = strcmp(mbdae_problem_name(p), "chain") == 0;
  const char *const(*pos)[2] = chain ? st->chain_pos : st->pos;
  int ok = 1;
  for (int k = 0; k < st->links; k++) {
    w->at[k][0] = component_at(p, angles ? st->angle[k] : pos[k][0]);
    w->at[k][1] = angles ? 0 : component_at(p, pos[k][1]);
    ok &= w->at[k][0] >= 0 && w->at[k][1] >= 0;
  }
  return ok ? 0 : -1;
}

/* ---- a problem over another interval: the same functions as a user's problem -------------- */

typedef struct interval_wrap {
  mbdae_problem_type type;
  const mbdae_problem *inner;
  int in_scd[MAX_N];
  const char *names[MAX_N];
} interval_wrap;

static int wrap_init(void *ctx, double *y0, double *yp0)
{
  const interval_wrap *w = ctx;
  return mbdae_problem_init(w->inner, y0, yp0);
}

static int wrap_res(void *ctx, double t, const double *y, const double *yp, double *res)
{
  const interval_wrap *w = ctx;
  return mbdae_problem_res(w->inner, t, y, yp, res);
}

static int wrap_jac(void *ctx, double t, const double *y, const double *yp, double *dfdy,
                    double *dfdyp)
{
  const interval_wrap *w = ctx;
  return mbdae_problem_jac(w->inner, t, y, yp, dfdy, dfdyp);
}

/* p over [t0, tend] as a user's problem (no reference); NULL after a message on failure. */
static mbdae_problem *over_interval(interval_wrap *w, const mbdae_problem *p, double tend)
{
  int n = mbdae_problem_neq(p);
  if (n > MAX_N) {
    fprintf(stderr, "mbdae: %s: %d equations, at most %d here\n", mbdae_problem_spec(p), n, MAX_N);
    return NULL;
  }
  w->inner = p;
  for (int i = 0; i < n; i++) {
    w->in_scd[i] = mbdae_problem_in_scd(p, i);
    w->names[i] = mbdae_problem_component(p, i);
  }
  w->type = (mbdae_problem_type){.size = sizeof(mbdae_problem_type),
                                 .id = mbdae_problem_name(p),
                                 .title = mbdae_problem_title(p),
                                 .neq = n,
                                 .t0 = mbdae_problem_t0(p),
                                 .tend = tend,
                                 .index = mbdae_problem_index(p),
                                 .in_scd = w->in_scd,
                                 .init = wrap_init,
                                 .res = wrap_res,
                                 .jac = wrap_jac,
                                 .names = w->names};
  mbdae_problem *q = NULL;
  char msg[256];
  if (mbdae_problem_from_type(&w->type, w, &q, msg, sizeof msg) != 0) {
    fprintf(stderr, "mbdae: %s over [0, %g]: %s\n", mbdae_problem_spec(p), tend, msg);
    return NULL;
  }
  return q;
}

/* ---- one row --------------------------------------------------------------------------------- */

/* The row's solver run: on *q, or for form=dummy the switched run of p over [t0, a->tend] (*q
 * then p where that is p's own interval, else NULL: no scd). */
static int solve_row(row *rw, const reg_args *a, const mbdae_problem *p, const mbdae_problem **q,
                     const mbdae_options *opt, double *y, double *yp, mbdae_result *r)
{
  if (strcmp(rw->m->form, "form=dummy") != 0) {
    return cli_solve(*q, rw->m->solver ? rw->m->solver : a->solver, opt, 1, y, yp, r);
  }
  *q = mbdae_problem_tend(p) == a->tend ? p : NULL;
  int rc = mbdae_problem_init(p, y, yp);
  if (rc != 0) {
    snprintf(r->message, sizeof r->message, "initial values: %s", mbdae_strerror(rc));
    r->stats.steps = 0;
    return rc;
  }
  return mbdae_solve_dummy(p, cli_solver_find(a->solver), a->tend, opt, y, yp, r, &rw->switches);
}

/* The row's run on p (over [t0, a->tend]; q: p itself, or p over that interval). */
static void run_method(row *rw, const reg_args *a, const mbdae_problem *p, const mbdae_problem *q)
{
  path_watch w;
  if (watch_setup(&w, rw->st, p, strcmp(rw->m->form, "form=ssf") == 0) != 0) {
    rw->status = MBDAE_ERR_UNSUPPORTED;
    snprintf(rw->message, sizeof rw->message, "%s lacks the components of the paths", rw->spec);
    return;
  }
  mbdae_options opt;
  test_set_options(p, a->rtol, 0.0, 0.0, 0, &opt);
  opt.on_accept = observe_paths;
  opt.on_accept_ctx = &w;
  mbdae_projector *pr = NULL;
  if (rw->m->projected) {
    rw->status = mbdae_projector_create(p, &pr, rw->message, sizeof rw->message);
    if (rw->status != 0) {
      return;
    }
    opt.project = mbdae_projector_apply;
    opt.project_ctx = pr;
  }
  double y[MAX_N], yp[MAX_N], yref[MAX_N];
  mbdae_result r;
  rw->status = solve_row(rw, a, p, &q, &opt, y, yp, &r);
  mbdae_projector_destroy(pr);
  snprintf(rw->message, sizeof rw->message, "%s", r.message);
  rw->cpu = rw->status == MBDAE_OK ? r.cpu_seconds : NAN; /* a failed run's time means little */
  rw->steps = r.stats.steps;
  for (int k = 0; k < w.links && w.states > 0; k++) {
    rw->err[k] = w.err[k]; /* a failed run's: over the states it accepted */
  }
  if (rw->status == MBDAE_OK && q == p && mbdae_problem_ref(p, yref) == 0) {
    rw->scd = mbdae_scd(p, y, yref);
  }
}

static void run_row(row *rw, const reg_args *a, const study *st, const method *m)
{
  memset(rw, 0, sizeof *rw);
  rw->st = st;
  rw->m = m;
  rw->scd = rw->cpu = NAN;
  for (int k = 0; k < MAX_LINKS; k++) {
    rw->err[k] = NAN;
  }
  if (!m->form) {
    return;
  }
  rw->ran = 1;
  snprintf(rw->spec, sizeof rw->spec, "%s:%s", st->id, m->form);
  mbdae_problem *p = NULL, *q = NULL;
  rw->status = mbdae_problem_create(rw->spec, &p, rw->message, sizeof rw->message);
  if (rw->status == 0 && m->solver && mbdae_problem_tend(p) != a->tend) {
    mbdae_problem_destroy(p); /* the chain of as many links: it has a tend= key */
    snprintf(rw->spec, sizeof rw->spec, "chain:n=%d,tend=%.17g,%s", st->links, a->tend, m->form);
    rw->status = mbdae_problem_create(rw->spec, &p, rw->message, sizeof rw->message);
  }
  if (rw->status != 0) {
    return;
  }
  interval_wrap wrap;
  q = mbdae_problem_tend(p) == a->tend ? p : over_interval(&wrap, p, a->tend);
  if (!q) {
    rw->status = MBDAE_ERR_ARG;
    snprintf(rw->message, sizeof rw->message, "cannot run over [0, %g]", a->tend);
  } else {
    run_method(rw, a, p, q);
  }
  if (q != p) {
    mbdae_problem_destroy(q);
  }
  mbdae_problem_destroy(p);
}

/* ---- output ---------------------------------------------------------------------------------- */

static const char *status_text(const row *rw)
{
  if (!rw->ran) {
    return "not implemented";
  }
  return rw->status == MBDAE_OK ? "ok" : mbdae_strcode(rw->status);
}

/* v in the printf format fmt into buf, or "-" when v is not a number. */
static const char *num(char *buf, size_t len, const char *fmt, double v)
{
  if (isfinite(v)) {
    snprintf(buf, len, fmt, v);
  } else {
    snprintf(buf, len, "-");
  }
  return buf;
}

static const paper_values *paper_of(const row *rw)
{
  return &rw->m->paper[rw->st == &STUDIES[0] ? 0 : 1];
}

/* One table row: the label, then per link ours and the paper's error, the seconds (ours, the
 * paper's, their ratio), scd and the status; sep is the column separator (text or Markdown). */
static void print_row(FILE *out, const row *rw, const char *sep, int markdown)
{
  const paper_values *pv = paper_of(rw);
  char b[6][32];
  fprintf(out, markdown ? "| %s" : "%-14s", rw->m->label);
  for (int k = 0; k < rw->st->links; k++) {
    fprintf(out, "%s%10s%s%10s", sep, num(b[0], 32, "%.3e", rw->err[k]), sep,
            num(b[1], 32, "%.3e", pv->err[k]));
  }
  fprintf(out, "%s%9s%s%6.1f%s%8s%s%6s%s%s%s\n", sep, num(b[2], 32, "%.4f", rw->cpu), sep,
          pv->seconds, sep, num(b[3], 32, "%.0f", pv->seconds / rw->cpu), sep,
          num(b[4], 32, "%.2f", rw->scd), sep, status_text(rw), markdown ? " |" : "");
}

static void print_header(FILE *out, const study *st, const reg_args *a, int markdown)
{
  const char *sep = markdown ? " | " : "  ";
  fprintf(out,
          "%s%s over [0, %g] with %s (SPM: the spm solver), rtol = atol = %g (Hafner & Poell 2015, "
          "Table 1: "
          "paper = MATLAB R2012b; ratio = the paper's t(s) / ours)\n%s",
          markdown ? "### " : "", st->id, a->tend, a->solver, a->rtol, markdown ? "\n" : "");
  fprintf(out, markdown ? "| method" : "%-14s", markdown ? "" : "method");
  for (int k = 0; k < st->links; k++) {
    char e[8];
    snprintf(e, sizeof e, st->links > 1 ? "e%d" : "e", k + 1);
    fprintf(out, "%s%7s ours%s%6s paper", sep, e, sep, e);
  }
  fprintf(out, "%s%9s%s%6s%s%8s%s%6s%sstatus%s\n", sep, "t(s) ours", sep, "paper", sep, "ratio",
          sep, "scd", sep, markdown ? " |" : "");
  if (markdown) {
    fprintf(out, "|---");
    for (int c = 0; c < 2 * st->links + 5; c++) {
      fprintf(out, "|---:");
    }
    fprintf(out, "|\n");
  }
}

static void print_table(FILE *out, const row *rows, int nrows, const reg_args *a, int markdown)
{
  for (int s = 0; s < 2; s++) {
    if (!a->which[s]) {
      continue;
    }
    print_header(out, &STUDIES[s], a, markdown);
    for (int i = 0; i < nrows; i++) {
      if (rows[i].st == &STUDIES[s]) {
        print_row(out, &rows[i], markdown ? " | " : "  ", markdown);
      }
    }
    fprintf(out, "\n");
  }
  for (int i = 0; i < nrows; i++) {
    if (rows[i].ran && rows[i].status == MBDAE_OK && strcmp(rows[i].m->form, "form=dummy") == 0) {
      fprintf(out, "%s%s %s: %d switches of the state selection\n", markdown ? "- " : "",
              rows[i].st->id, rows[i].m->id, rows[i].switches);
    }
  }
  for (int i = 0; i < nrows; i++) {
    if (rows[i].ran && rows[i].status != MBDAE_OK) {
      fprintf(out, "%s%s %s: %s\n", markdown ? "- " : "", rows[i].st->id, rows[i].m->id,
              rows[i].message);
    }
  }
}

static void json_errors(FILE *out, const double *err, int links)
{
  fputc('[', out);
  for (int k = 0; k < links; k++) {
    fputs(k ? ", " : "", out);
    mbdae_json_write_number(out, err[k]);
  }
  fputc(']', out);
}

/* The rows as doc/command.md ("regularise") lists them, plus spec, solver, rtol, tend, steps and
 * message. */
static void print_json(FILE *out, const row *rows, int nrows, const reg_args *a)
{
  fputs("[", out);
  for (int i = 0; i < nrows; i++) {
    const row *rw = &rows[i];
    fprintf(out, "%s\n  {\"problem\": \"%s\", \"method\": \"%s\", \"max_err\": ", i ? "," : "",
            rw->st->id, rw->m->id);
    json_errors(out, rw->err, rw->st->links);
    fputs(", \"cpu_seconds\": ", out);
    mbdae_json_write_number(out, rw->cpu);
    fputs(", \"scd\": ", out);
    mbdae_json_write_number(out, rw->scd);
    fprintf(out, ", \"status\": \"%s\", \"paper_max_err\": ", status_text(rw));
    json_errors(out, paper_of(rw)->err, rw->st->links);
    fprintf(out, ", \"paper_seconds\": %.17g, \"spec\": ", paper_of(rw)->seconds);
    mbdae_json_write_string(out, rw->spec);
    fputs(", \"solver\": ", out);
    mbdae_json_write_string(out, rw->m->solver ? rw->m->solver : a->solver);
    fprintf(out,
            ", \"rtol\": %.17g, \"tend\": %.17g, \"steps\": %ld, \"switches\": %d, \"message\": ",
            a->rtol, a->tend, rw->steps, rw->switches);
    mbdae_json_write_string(out, rw->message);
    fputs("}", out);
  }
  fputs("\n]\n", out);
}

/* ---- the command ------------------------------------------------------------------------------
 */

static int parse_which(const char *arg, reg_args *a)
{
  int all = strcmp(arg, "all") == 0;
  for (int s = 0; s < 2; s++) {
    a->which[s] |= all || strcmp(arg, STUDIES[s].id) == 0;
  }
  if (!a->which[0] && !a->which[1]) {
    return usage_error("regularise: unknown case study '%s'; valid: pendulum, dpendulum, all", arg);
  }
  return 0;
}

static int parse_args(int argc, char **argv, reg_args *a)
{
  *a = (reg_args){{0, 0}, "radau5", 1e-6, 100.0, 0, NULL};
  int have_study = 0;
  for (int i = 1; i < argc; i++) {
    const char *arg = argv[i], *v = NULL;
    if (strcmp(arg, "--json") == 0) {
      a->json = 1;
    } else if (strcmp(arg, "--solver") == 0 || strcmp(arg, "--rtol") == 0 ||
               strcmp(arg, "--tend") == 0 || strcmp(arg, "--out") == 0 ||
               strcmp(arg, "--plugin") == 0) {
      if (!(v = option_value(argc, argv, &i))) {
        return EXIT_USAGE;
      }
      int bad = strcmp(arg, "--rtol") == 0     ? parse_rtol(arg, v, &a->rtol)
                : strcmp(arg, "--tend") == 0   ? parse_positive(arg, v, &a->tend)
                : strcmp(arg, "--plugin") == 0 ? plugin_load(v)
                                               : 0;
      if (bad) {
        return EXIT_USAGE;
      }
      a->solver = strcmp(arg, "--solver") == 0 ? v : a->solver;
      a->out = strcmp(arg, "--out") == 0 ? v : a->out;
    } else if (arg[0] != '-' && !have_study) {
      have_study = 1;
      if (parse_which(arg, a) != 0) {
        return EXIT_USAGE;
      }
    } else if (arg[0] == '-') {
      return unknown_option("regularise", arg);
    } else {
      return usage_error("regularise: unexpected argument '%s' (one case study: pendulum, "
                         "dpendulum or all)",
                         arg);
    }
  }
  if (!have_study) {
    return usage_error("regularise: which case study? pendulum, dpendulum or all");
  }
  return check_solver(a->solver) != 0 ? EXIT_USAGE : 0;
}

static int write_markdown(const char *path, const row *rows, int nrows, const reg_args *a)
{
  new_file nf;
  FILE *f = new_file_open(&nf, path);
  if (!f) {
    return usage_error("--out %s: cannot open a new file there: %s", path, strerror(errno));
  }
  print_table(f, rows, nrows, a, 1);
  return new_file_commit(&nf) != 0 ? usage_error("--out %s: write error: %s", path, strerror(errno))
                                   : 0;
}

int cmd_regularise(int argc, char **argv)
{
  reg_args a;
  int rc = parse_args(argc, argv, &a);
  if (rc != 0) {
    return rc;
  }
  row rows[2 * NMETHODS];
  int nrows = 0, failed = 0;
  for (int s = 0; s < 2; s++) {
    for (int i = 0; i < NMETHODS && a.which[s]; i++) {
      run_row(&rows[nrows], &a, &STUDIES[s], &METHODS[i]);
      failed |= rows[nrows].ran && rows[nrows].status != MBDAE_OK;
      nrows++;
    }
  }
  if (a.json) {
    print_json(stdout, rows, nrows, &a);
  } else {
    print_table(stdout, rows, nrows, &a, 0);
    print_digits_legend(stdout);
  }
  if (a.out && write_markdown(a.out, rows, nrows, &a) != 0) {
    return EXIT_USAGE;
  }
  return failed ? EXIT_FAILED_RUN : EXIT_OK;
}
