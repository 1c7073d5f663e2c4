/* mbdae plot: the behaviour of the solution over the integration interval, as the figures of the
 * Test Set for IVP Solvers (report 2.4) show it, and how well the hidden constraints hold.
 *
 * One run at the problem's default tolerance (mbdae list; --rtol overrides; atol = rtol,
 * h0 = h0_factor rtol) with continuous output at --points equidistant times (mbdae_options
 * tout/ntout/yout).  Default panels per problem, after the report's figures:
 *   caraxis    x_l, y_l, x_r, y_r over t            (Figure II.17.2)
 *   andrews    the seven angles modulo 2 pi over t  (Figure II.13.1)
 *   crank      y_i, i = 2..7, 22, 23, 24 over t     (Figure II.19.4: rod angle, block, the four
 *                                                    deformation modes, the multipliers)
 *   pendulum   the trajectory (x, y), x and y over t (Hafner & Poell, eq. (1); y points down)
 *   dpendulum  the trajectories (x1, y1), (x2, y2)   (eq. (6))
 * and a last panel with max_i |g_i| of the position constraints and of their derivative along the
 * solution (velocity level), from mbdae_problem_constraints.  Continuous output gives y only: these
 * levels need only y in every formulation here, so y' is passed as zeros (the acceleration level,
 * which needs y', is not drawn).  Between the steps the values come from the solver's
 * interpolant, so these residuals include its error, not only the drift of the steps.
 *
 * --components LIST: items i (y_i over t), a-b (a range of them), i:j (y_j against y_i); angles
 * are wrapped into (-pi, pi] with --wrap (Andrews' default).  The picture is drawn by gnuplot from
 * FILE's stem + ".gp", a script with the data inside that can be edited and rerun; every string
 * from outside in it (titles, names, the file name) goes through gnuplot_quote (gnuplot.c).
 * --data FILE.csv keeps the plotted numbers (series_csv.h): t, each component the panels use
 * (its name), its value modulo 2 pi where they wrap it (NAME_mod_2pi), and the constraint levels
 * (max_abs_g_position, max_abs_g_velocity), at the points the solver reached; --data alone
 * needs no gnuplot. */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "new_file.h"
#include "series_csv.h"
#include "sweep.h"

enum {
  MAX_PANELS = 32,
  DEFAULT_POINTS = 1000,
  PANEL_WIDTH = 440, /* pixels per panel */
  PANEL_HEIGHT = 320
};

/* What to draw by default, and the names of the components (1-based; NULL: y_i). */
/* What a plot of a problem shows by default, for its published configuration and for every form
 * that keeps its first component (first: mbdae_problem_component(p, 0) of that configuration;
 * the state-space form of the pendulums has angles there and gets the generic default). */
typedef struct plot_default {
  const char *problem;
  const char *first;
  const char *components;
  int wrap;   /* angles: modulo 2 pi */
  int y_down; /* the second coordinate of a trajectory points down (gravity along +y) */
} plot_default;

static const plot_default defaults[] = {
    /* report 2.4 section II.17.2: p = (x_l, y_l, x_r, y_r), q = p' */
    {.problem = "caraxis", .first = "x_l", .components = "1,2,3,4"},
    /* Hairer & Wanner VII.7: the angles beta ... epsilon */
    {.problem = "andrews", .first = "beta", .components = "1-7", .wrap = 1},
    /* report 2.4 section II.19.2.1: p = (phi_1, phi_2, x_3), q_1..q_4 and the multipliers */
    {.problem = "crank", .first = "phi1", .components = "2-7,22-24"},
    /* DESIGN: y = (x, y, vx, vy, F), y downwards */
    {.problem = "pendulum", .first = "x", .components = "1:2,1,2", .y_down = 1},
    /* DESIGN: y = (x1, y1, x2, y2, vx1, vy1, vx2, vy2, F1, F2) */
    {.problem = "dpendulum", .first = "x1", .components = "1:2,3:4", .y_down = 1},
};

typedef struct panel {
  int x; /* component on the horizontal axis (1-based), 0: t */
  int y; /* component on the vertical axis (1-based) */
} panel;

typedef struct plot_args {
  const char *spec, *solver, *components, *out;
  const char *data; /* --data FILE.csv: the plotted numbers, or NULL */
  double rtol;
  int points, wrap;
} plot_args;

static const plot_default *default_for(const mbdae_problem *p)
{
  for (size_t i = 0; i < sizeof defaults / sizeof defaults[0]; i++) {
    if (strcmp(defaults[i].problem, mbdae_problem_name(p)) == 0 &&
        strcmp(defaults[i].first, mbdae_problem_component(p, 0)) == 0) {
      return &defaults[i];
    }
  }
  return NULL;
}

/* --out FILE.png|svg and --data FILE.csv: at least one; 0, or -1 (reported). */
static int check_files(const plot_args *a)
{
  if (!a->out && !a->data) {
    usage_error("--out FILE.png|svg or --data FILE.csv is required (or both)");
    return -1;
  }
  if (a->data && strlen(a->data) > 4000) {
    usage_error("--data: the file name is too long (%zu characters)", strlen(a->data));
    return -1;
  }
  if (!a->out) {
    return 0;
  }
  size_t len = strlen(a->out);
  const char *slash = strrchr(a->out, '/');
  if (len > 3900 || (slash ? strlen(slash + 1) : len) > 1000) { /* split_path's buffers */
    usage_error("--out: the file name is too long (%zu characters)", len);
    return -1;
  }
  if (len < 5 || (strcmp(a->out + len - 4, ".png") != 0 && strcmp(a->out + len - 4, ".svg") != 0)) {
    usage_error("--out FILE must end .png or .svg");
    return -1;
  }
  if (gnuplot_name_invalid(a->out)) { /* the name goes into the script and onto its lines */
    usage_error("--out: the file name holds a control character (a newline, a tab, ...)");
    return -1;
  }
  return 0;
}

static int parse_plot_args(int argc, char **argv, plot_args *a)
{
  memset(a, 0, sizeof *a);
  a->solver = "ida";
  a->points = DEFAULT_POINTS;
  for (int i = 1; i < argc; i++) {
    const char *arg = argv[i], *v = NULL;
    if (strcmp(arg, "--wrap") == 0) {
      a->wrap = 1;
    } else if (strcmp(arg, "--solver") == 0) {
      if (!(a->solver = option_value(argc, argv, &i))) {
        return -1;
      } /* checked below, once every --plugin is loaded */
    } else if (strcmp(arg, "--plugin") == 0) {
      if (!(v = option_value(argc, argv, &i)) || plugin_load(v) != 0) {
        return -1;
      }
    } else if (strcmp(arg, "--components") == 0) {
      if (!(a->components = option_value(argc, argv, &i))) {
        return -1;
      }
    } else if (strcmp(arg, "--rtol") == 0) {
      if (!(v = option_value(argc, argv, &i)) || parse_rtol(arg, v, &a->rtol) != 0) {
        return -1;
      }
    } else if (strcmp(arg, "--points") == 0) {
      if (!(v = option_value(argc, argv, &i)) || parse_int(arg, v, 2, 1000000, &a->points) != 0) {
        return -1;
      }
    } else if (strcmp(arg, "--out") == 0) {
      if (!(a->out = option_value(argc, argv, &i))) {
        return -1;
      }
    } else if (strcmp(arg, "--data") == 0) {
      if (!(a->data = option_value(argc, argv, &i))) {
        return -1;
      }
    } else if (arg[0] == '-' && arg[1] != '\0') {
      unknown_option("plot", arg);
      return -1;
    } else if (!a->spec) {
      a->spec = arg;
    } else {
      usage_error("unexpected argument '%s' (one problem spec expected)", arg);
      return -1;
    }
  }
  if (!a->spec) {
    usage_error("a problem spec is required, e.g. mbdae plot caraxis --out caraxis.png");
    return -1;
  }
  if (check_solver(a->solver) != 0) {
    return -1;
  }
  return check_files(a);
}

static int parse_index(const char *text, int neq, int *out)
{
  char opt[64];
  snprintf(opt, sizeof opt, "--components (y_1..y_%d)", neq);
  return parse_int(opt, text, 1, neq, out);
}

/* Items i, a-b, i:j separated by commas; returns the number of panels or -1 (reported). */
static int parse_components(const char *text, int neq, panel *panels, int max)
{
  char buf[512];
  int n = 0;
  if (strlen(text) >= sizeof buf) {
    usage_error("--components: the value is too long (%zu characters, at most %zu)", strlen(text),
                sizeof buf - 1);
    return -1;
  }
  memcpy(buf, text, strlen(text) + 1);
  for (char *item = strtok(buf, ","); item; item = strtok(NULL, ",")) {
    char *colon = strchr(item, ':'), *dash = strchr(item, '-');
    int a = 0, b = 0;
    if (colon) {
      *colon = '\0';
      if (parse_index(item, neq, &a) != 0 || parse_index(colon + 1, neq, &b) != 0) {
        return -1;
      }
      if (n == max) {
        break;
      }
      panels[n++] = (panel){a, b};
      continue;
    }
    if (dash) {
      *dash = '\0';
    }
    if (parse_index(item, neq, &a) != 0 || parse_index(dash ? dash + 1 : item, neq, &b) != 0) {
      return -1;
    }
    for (int i = a; i <= b && n < max; i++) {
      panels[n++] = (panel){0, i};
    }
  }
  if (n == 0) {
    usage_error("--components expects items i, a-b or i:j separated by commas, got '%s'", text);
    return -1;
  }
  if (n == max) {
    fprintf(stderr, "mbdae: warning: at most %d panels; the rest of --components is left out\n",
            max);
  }
  return n;
}

/* Whether panels over t show angles modulo 2 pi: --wrap, or the default panels of a problem
 * that wraps (Andrews). */
static int wraps(const plot_args *a, const plot_default *d)
{
  return a->wrap || (!a->components && d && d->wrap);
}

/* The name of component i (1-based), as the problem states it. */
static const char *name_of(const mbdae_problem *p, int i)
{
  return mbdae_problem_component(p, i - 1);
}

/* "y_{4} = q_1" (gnuplot enhanced text), or "y_{4}" for a component without a name. */
static void component_label(char *buf, size_t len, const mbdae_problem *p, int i, int wrap)
{
  const char *name = name_of(p, i);
  snprintf(buf, len, "y_{%d}%s%s%s", i, name ? " = " : "", name ? name : "", wrap ? " mod 2π" : "");
}

/* An axis of a trajectory: the name, else y_{i}. */
static void axis_label(char *buf, size_t len, const mbdae_problem *p, int i)
{
  const char *name = name_of(p, i);
  if (name) {
    snprintf(buf, len, "%s", name);
  } else {
    snprintf(buf, len, "y_{%d}", i);
  }
}

static const double PI = 3.14159265358979323846; /* M_PI is not C11 */

static double wrapped(double v) { return remainder(v, 2.0 * PI); }

/* The data of panel k: t or y_x against y_y, for the points the solver reached (yout not NaN).
 * Wrapped angles get a break (blank line) where they jump by 2 pi. */
static void write_panel_data(FILE *out, int k, const panel *pn, const double *tout,
                             const double *yout, int npts, int neq, int wrap)
{
  fprintf(out, "$panel%d << EOD\n", k + 1);
  double last = NAN;
  for (int j = 0; j < npts; j++) {
    const double *y = yout + (size_t)j * (size_t)neq;
    double xv = pn->x ? y[pn->x - 1] : tout[j], yv = y[pn->y - 1];
    if (isnan(yv) || isnan(xv)) {
      continue;
    }
    if (wrap && !pn->x) {
      yv = wrapped(yv);
      if (fabs(yv - last) > PI) {
        fputc('\n', out);
      }
      last = yv;
    }
    fprintf(out, "%.10g %.10g\n", xv, yv);
  }
  fputs("EOD\n", out);
}

/* What the run gave at the output points: tout, yout (npts x neq, NaN where the solver did not
 * reach) and, for a problem with constraints, levels[2 j], levels[2 j + 1]: max_i |g_i| at
 * position and velocity level at point j (NaN where not evaluated); levels NULL otherwise. */
typedef struct plot_data {
  const double *tout, *yout;
  double *levels;
  int npts;
} plot_data;

/* The constraint levels of data (data->levels allocated here, or left NULL). */
static void compute_levels(const mbdae_problem *p, plot_data *data)
{
  int neq = mbdae_problem_neq(p), nc = mbdae_problem_nconstraints(p);
  double *work = nc > 0 ? calloc((size_t)neq + 2 * (size_t)nc, sizeof(double)) : NULL;
  double *levels = work ? malloc(sizeof(double) * 2 * (size_t)data->npts) : NULL;
  if (!levels) {
    free(work);
    return;
  }
  double *yp = work, *gpos = yp + neq, *gvel = gpos + nc; /* y' = 0: see the file comment */
  for (int j = 0; j < data->npts; j++) {
    const double *y = data->yout + (size_t)j * (size_t)neq;
    levels[2 * j] = levels[2 * j + 1] = NAN;
    if (isnan(y[0]) || mbdae_problem_constraints(p, data->tout[j], y, yp, gpos, gvel, NULL) != 0) {
      continue;
    }
    levels[2 * j] = levels[2 * j + 1] = 0.0;
    for (int i = 0; i < nc; i++) {
      levels[2 * j] = fmax(levels[2 * j], fabs(gpos[i]));
      levels[2 * j + 1] = fmax(levels[2 * j + 1], fabs(gvel[i]));
    }
  }
  free(work);
  data->levels = levels;
}

/* The constraint levels as a data block; 1 when written. */
static int write_constraint_data(FILE *out, const plot_data *data)
{
  if (!data->levels) {
    return 0;
  }
  fputs("$constraints << EOD\n", out);
  for (int j = 0; j < data->npts; j++) {
    double mp = data->levels[2 * j], mv = data->levels[2 * j + 1];
    if (!isnan(mp)) { /* an exact zero has no place on a log axis: NaN leaves the point out */
      fprintf(out, "%.10g %.6e %.6e\n", data->tout[j], mp > 0.0 ? mp : NAN, mv > 0.0 ? mv : NAN);
    }
  }
  fputs("EOD\n", out);
  return 1;
}

/* The script: data blocks, then one multiplot. */
static int write_script(const char *path, const char *picture, const mbdae_problem *p,
                        const plot_args *a, const mbdae_options *opt, const mbdae_result *r,
                        const panel *panels, int npanels, const plot_default *d,
                        const plot_data *data)
{
  const double *tout = data->tout, *yout = data->yout;
  int npts = data->npts;
  new_file nf;
  FILE *out = new_file_open(&nf, path);
  if (!out) {
    return -1;
  }
  int neq = mbdae_problem_neq(p);
  int wrap = wraps(a, d);
  /* the values on comment lines are quoted too: a raw newline, or a backslash at the end of a
   * comment line (which continues it), would put text on a command line */
  fputs("# The solution of ", out);
  gnuplot_string(out, mbdae_problem_title(p));
  fputs(" ", out);
  gnuplot_string(out, mbdae_problem_spec(p));
  fputs("\n# with ", out);
  gnuplot_string(out, a->solver);
  fprintf(out,
          ", rtol = atol = %g, h0 = %g, from continuous output at %d points.\n"
          "# Written by `mbdae plot`; edit and rerun in this folder with gnuplot and this file:\n"
          "#   gnuplot ",
          opt->rtol, opt->h0, npts);
  gnuplot_string(out, strrchr(path, '/') ? strrchr(path, '/') + 1 : path);
  fputs("\n\n", out);
  for (int k = 0; k < npanels; k++) {
    write_panel_data(out, k, &panels[k], tout, yout, npts, neq, wrap);
  }
  int has_constraints = write_constraint_data(out, data);
  int total = npanels + has_constraints;
  int cols = (int)ceil(sqrt((double)total)), rows = (total + cols - 1) / cols;
  const char *ext = picture + strlen(picture) - 3;
  fputs("\nset encoding utf8\n", out);
  if (strcmp(ext, "svg") == 0) {
    fprintf(out,
            "set terminal svg size %d,%d enhanced font \"Helvetica,12\" background \"white\"\n",
            cols * PANEL_WIDTH, rows * PANEL_HEIGHT + 40);
  } else {
    fprintf(out, "set terminal pngcairo size %d,%d enhanced font \"Helvetica,10\"\n",
            cols * PANEL_WIDTH, rows * PANEL_HEIGHT + 40);
  }
  fputs("set output ", out);
  gnuplot_string(out, picture);
  char title[512];
  snprintf(title, sizeof title, "%s (%s): %s, rtol = %g%s", mbdae_problem_title(p),
           mbdae_problem_spec(p), a->solver, opt->rtol,
           r->status == 0 ? "" : " (the run failed before t_end)");
  fprintf(out, "\nset multiplot layout %d,%d title ", rows, cols);
  gnuplot_string(out, title);
  fputs(" noenhanced", out); /* the spec and the solver as written (an id's _ is no subscript) */
  fputs("\nset grid\nunset key\nset style line 1 lc rgb \"#0072b2\" lw 1.2\n", out);
  char title_text[160], xlabel[64], ylabel[64];
  for (int k = 0; k < npanels; k++) {
    const panel *pn = &panels[k];
    if (pn->x) { /* a path in the plane: equal scales */
      axis_label(xlabel, sizeof xlabel, p, pn->x);
      axis_label(ylabel, sizeof ylabel, p, pn->y);
      snprintf(title_text, sizeof title_text, "trajectory (%s, %s)%s", xlabel, ylabel,
               d && d->y_down ? ", gravity downwards" : "");
      fputs("set size ratio -1\n", out);
      fprintf(out, "set yrange [*:*] %s\n", d && d->y_down ? "reverse" : "noreverse");
    } else {
      component_label(title_text, sizeof title_text, p, pn->y, wrap);
      snprintf(xlabel, sizeof xlabel, "t");
      ylabel[0] = '\0';
      fputs("set size noratio\nset yrange [*:*] noreverse\n", out);
    }
    fputs("set xlabel ", out);
    gnuplot_string(out, xlabel);
    fputs("\nset ylabel ", out);
    gnuplot_string(out, ylabel);
    fputs("\nset title ", out);
    gnuplot_string(out, title_text);
    fprintf(out, "\nplot $panel%d using 1:2 with lines ls 1\n", k + 1);
  }
  if (has_constraints) {
    fputs(
        "set size noratio\nset yrange [*:*] noreverse\nset logscale y\nset format y \"10^{%L}\"\n"
        "set key below horizontal\nset xlabel \"t\"\nset ylabel \"\"\n"
        "set title \"hidden constraints: max_i |g_i|\"\n"
        "plot $constraints using 1:2 with lines lw 1.2 lc rgb \"#0072b2\" title \"position\", \\\n"
        "     $constraints using 1:3 with lines lw 1.2 lc rgb \"#d55e00\" title \"velocity\"\n",
        out);
  }
  fputs("unset multiplot\nunset output\n", out);
  return new_file_commit(&nf);
}

/* Split FILE into its folder ("." when none) and name; the script is the name's stem + ".gp". */
static void split_path(const char *file, char *dir, size_t dirlen, char *name, size_t namelen,
                       char *script, size_t scriptlen)
{
  const char *slash = strrchr(file, '/');
  if (slash) {
    snprintf(dir, dirlen, "%.*s", (int)(slash - file) > 0 ? (int)(slash - file) : 1, file);
    snprintf(name, namelen, "%s", slash + 1);
  } else {
    snprintf(dir, dirlen, ".");
    snprintf(name, namelen, "%s", file);
  }
  snprintf(script, scriptlen, "%.*s.gp", (int)strlen(name) - 4, name);
}

enum { MAX_DATA_COLUMNS = 4 * MAX_PANELS + 2 };

/* The columns of --data: each component the panels use, once, and its value modulo 2 pi where a
 * panel over t wraps it; a column is component * 2 + wrapped.  Returns the number of them. */
static int data_columns(const panel *panels, int npanels, int wrap, int *cols)
{
  int n = 0;
  for (int k = 0; k < 2 * npanels; k++) {
    const panel *pn = &panels[k / 2];
    int comp = k % 2 ? pn->y : pn->x, code = comp * 2;
    for (int w = 0; comp && w <= (wrap && !pn->x && k % 2); w++, code++) {
      int seen = 0;
      for (int c = 0; c < n; c++) {
        seen = seen || cols[c] == code;
      }
      if (!seen) {
        cols[n++] = code;
      }
    }
  }
  return n;
}

/* --data FILE: t, the columns above, the constraint levels, at the points the solver reached
 * (series_csv.h); 0, or -1 with errno set. */
static int write_data_csv(const char *file, const mbdae_problem *p, const panel *panels,
                          int npanels, int wrap, const plot_data *data)
{
  int cols[MAX_DATA_COLUMNS], neq = mbdae_problem_neq(p);
  int ncomp = data_columns(panels, npanels, wrap, cols), ncols = ncomp + (data->levels ? 2 : 0);
  char names[MAX_DATA_COLUMNS][96];
  const char *name_ptr[MAX_DATA_COLUMNS];
  for (int c = 0; c < ncols; c++) {
    const char *name = c < ncomp ? name_of(p, cols[c] / 2) : NULL;
    if (c >= ncomp) {
      snprintf(names[c], sizeof names[c], c == ncomp ? "max_abs_g_position" : "max_abs_g_velocity");
    } else {
      snprintf(names[c], sizeof names[c], "%s%.0d%s", name ? name : "y", name ? 0 : cols[c] / 2,
               cols[c] % 2 ? "_mod_2pi" : "");
    }
    name_ptr[c] = names[c];
  }
  double *t = malloc(sizeof(double) * (size_t)data->npts * ((size_t)ncols + 1));
  if (!t) {
    errno = ENOMEM;
    return -1;
  }
  double *values = t + data->npts;
  int nrows = 0;
  for (int j = 0; j < data->npts; j++) {
    const double *y = data->yout + (size_t)j * (size_t)neq;
    if (isnan(y[0])) {
      continue; /* the solver did not get there */
    }
    double *row = values + (size_t)nrows * (size_t)ncols;
    for (int c = 0; c < ncols; c++) {
      double v = c < ncomp ? y[cols[c] / 2 - 1] : data->levels[2 * j + (c - ncomp)];
      row[c] = c < ncomp && cols[c] % 2 ? wrapped(v) : v;
    }
    t[nrows++] = data->tout[j];
  }
  new_file nf;
  FILE *out = new_file_open(&nf, file);
  int rc = out ? 0 : -1;
  if (out) {
    series_csv_write(out, name_ptr, ncols, t, values, nrows);
    rc = new_file_commit(&nf);
  }
  free(t);
  return rc;
}

/* The folder of file (mkdir -p); 0 or -1 with errno set. */
static int make_parent(const char *file)
{
  char dir[4096];
  const char *slash = strrchr(file, '/');
  if (!slash || slash == file) {
    return 0;
  }
  snprintf(dir, sizeof dir, "%.*s", (int)(slash - file), file);
  return make_dirs(dir);
}

/* gnuplot on the script in dir, in a scratch folder; the picture renamed into place when whole.
 * An exit status (reported). */
static int run_gnuplot(const char *dir, const char *script, const char *name)
{
  char scratch[4200], run[1100], log[1100], shown[5400], why[5400];
  if (gnuplot_scratch_make(dir, 0, scratch, sizeof scratch) != 0) {
    return usage_error("cannot make a scratch folder in %s: %s", dir, strerror(errno));
  }
  snprintf(run, sizeof run, "../%s", script);
  snprintf(log, sizeof log, "%.*s.log", (int)strlen(script) - 3, script);
  snprintf(shown, sizeof shown, "%s/%s", dir, log);
  int g = gnuplot_run(scratch, run, NULL, log), rc = EXIT_FAILED_RUN;
  if (g == GNUPLOT_MISSING) {
    fprintf(stderr,
            "mbdae: gnuplot not found: wrote %s/%s; where gnuplot is installed "
            "(Debian: gnuplot-nox), run `cd ",
            dir, script);
    shell_word(stderr, dir);
    fputs(" && gnuplot ", stderr);
    shell_word(stderr, script);
    fputs("`\n", stderr);
  } else if (g != GNUPLOT_OK) {
    fprintf(stderr, "mbdae: gnuplot failed on %s/%s; see %s\n", dir, script, shown);
  } else if (!gnuplot_scratch_keep(scratch, dir, name, why, sizeof why)) {
    fprintf(stderr, "mbdae: gnuplot reported success, but %s; see %s\n", why, shown);
  } else {
    rc = EXIT_OK;
  }
  if (rc != EXIT_OK) { /* no stale picture passes for a new one */
    snprintf(shown, sizeof shown, "%s/%s", dir, name);
    unlink(shown);
  }
  gnuplot_scratch_done(scratch, dir, log, rc != EXIT_OK && g != GNUPLOT_MISSING);
  return rc;
}

/* --out: the script next to the picture, then gnuplot; an exit status (reported). */
static int draw_picture(const plot_args *a, const mbdae_problem *p, const mbdae_options *opt,
                        const mbdae_result *r, const panel *panels, int npanels,
                        const plot_default *d, const plot_data *data)
{
  char dir[4096], name[1024], script[1024], path[5200];
  split_path(a->out, dir, sizeof dir, name, sizeof name, script, sizeof script);
  if (make_dirs(dir) != 0) {
    return usage_error("cannot create the folder %s: %s", dir, strerror(errno));
  }
  snprintf(path, sizeof path, "%s/%s", dir, script);
  if (write_script(path, name, p, a, opt, r, panels, npanels, d, data) != 0) {
    return usage_error("cannot write %s: %s", path, strerror(errno));
  }
  int rc = run_gnuplot(dir, script, name);
  if (rc == EXIT_OK) {
    printf("%s (script %s/%s)\n", a->out, dir, script);
  }
  return rc;
}

/* The components of a problem without a default drawing (a plug-in's, a user's): every one, up
 * to MAX_PANELS, as "1-N"; the ones left out are named on stderr. */
static const char *every_component(const mbdae_problem *p, char *buf, size_t len)
{
  int neq = mbdae_problem_neq(p), shown = neq < MAX_PANELS ? neq : MAX_PANELS;
  snprintf(buf, len, shown > 1 ? "1-%d" : "1", shown);
  if (shown < neq) {
    fprintf(stderr,
            "mbdae: plot: %s has %d components; drawing y_1..y_%d (at most %d panels), not "
            "y_%d..y_%d: --components picks others\n",
            mbdae_problem_spec(p), neq, shown, MAX_PANELS, shown + 1, neq);
  }
  return buf;
}

/* What solve_points returns when there is nothing to draw (reported): the solver fills no output
 * time (no continuous output), or it failed before the first. */
enum { NO_OUTPUT = 1, NO_POINTS = 2 };

/* One run with continuous output at the equidistant points of data (tout, yout allocated here);
 * 0, the solver's code (reported), or NO_OUTPUT / NO_POINTS. */
static int solve_points(const mbdae_problem *p, const plot_args *a, mbdae_options *opt,
                        mbdae_result *r, plot_data *data, double **buf)
{
  int neq = mbdae_problem_neq(p);
  double *tout = malloc(sizeof(double) * ((size_t)a->points * ((size_t)neq + 1) + (size_t)neq));
  *buf = tout;
  if (!tout) {
    usage_error("out of memory for %d output points", a->points);
    return -1;
  }
  double *yout = tout + a->points, *y = yout + (size_t)a->points * (size_t)neq;
  double t0 = mbdae_problem_t0(p), tend = mbdae_problem_tend(p);
  for (int j = 0; j < a->points; j++) {
    tout[j] = j + 1 < a->points ? t0 + (tend - t0) * j / (a->points - 1) : tend;
  }
  for (size_t i = 0; i < (size_t)a->points * (size_t)neq; i++) {
    yout[i] = NAN; /* what the solver does not reach stays NaN and is left out */
  }
  opt->tout = tout;
  opt->ntout = a->points;
  opt->yout = yout;
  *data = (plot_data){.tout = tout, .yout = yout, .npts = a->points};
  int rc = cli_solve(p, a->solver, opt, 1, y, NULL, r);
  int filled = 0;
  for (int j = 0; j < a->points; j++) {
    filled += !isnan(yout[(size_t)j * (size_t)neq]);
  }
  if (filled == 0 && (rc == 0 || rc == MBDAE_ERR_UNSUPPORTED)) {
    usage_error("%s gives no continuous output (none of the %d output times was filled): nothing "
                "to draw, no picture written; `mbdae run %s --solver %s --trajectory FILE` "
                "writes the states it accepts",
                a->solver, a->points, mbdae_problem_spec(p), a->solver);
    return NO_OUTPUT;
  }
  if (rc != 0) {
    fprintf(stderr, "mbdae: %s failed on %s: %s; %s\n", a->solver, mbdae_problem_spec(p),
            r->message[0] ? r->message : mbdae_strerror(rc),
            filled ? "keeping the part it computed" : "nothing to draw, no picture written");
  }
  return filled ? rc : NO_POINTS;
}

int cmd_plot(int argc, char **argv)
{
  plot_args a;
  if (parse_plot_args(argc, argv, &a) != 0) {
    return EXIT_USAGE;
  }
  mbdae_problem *p = open_problem(a.spec);
  if (!p) {
    return EXIT_USAGE;
  }
  if (strstr(mbdae_problem_spec(p), "form=dummy")) { /* output times: mbdae_solve_dummy has none */
    usage_error("plot cannot draw form=dummy: one state selection degenerates where its pivot "
                "does (pendulum, radau5: t = 0.59), and the switching driver gives no output "
                "times; run, table and sweep switch the selection (mbdae run %s)",
                mbdae_problem_spec(p));
    mbdae_problem_destroy(p);
    return EXIT_USAGE;
  }
  const plot_default *d = default_for(p);
  char every[32];
  const char *components = a.components ? a.components
                           : d          ? d->components
                                        : every_component(p, every, sizeof every);
  panel panels[MAX_PANELS];
  int npanels = parse_components(components, mbdae_problem_neq(p), panels, MAX_PANELS);
  if (npanels < 0 || (a.data && make_parent(a.data) != 0)) {
    int rc = npanels < 0
                 ? EXIT_USAGE
                 : usage_error("cannot create the folder of %s: %s", a.data, strerror(errno));
    mbdae_problem_destroy(p);
    return rc;
  }
  mbdae_tolerance_plan plan = MBDAE_TOLERANCE_PLAN_INIT;
  mbdae_problem_tolerances(p, &plan);
  mbdae_options opt;
  test_set_options(p, a.rtol > 0.0 ? a.rtol : plan.default_rtol, 0.0, 0.0, 0, &opt);
  mbdae_result r;
  plot_data data;
  double *buf = NULL;
  int rc = solve_points(p, &a, &opt, &r, &data, &buf);
  if (!buf) {
    mbdae_problem_destroy(p);
    return EXIT_USAGE;
  }
  if (rc == NO_OUTPUT || rc == NO_POINTS) {
    free(buf);
    mbdae_problem_destroy(p);
    return rc == NO_OUTPUT ? EXIT_USAGE : EXIT_FAILED_RUN;
  }
  int status = rc != 0 ? EXIT_FAILED_RUN : EXIT_OK;
  compute_levels(p, &data);
  if (a.data && write_data_csv(a.data, p, panels, npanels, wraps(&a, d), &data) != 0) {
    status = usage_error("cannot write %s: %s", a.data, strerror(errno));
  } else if (a.data) {
    printf("%s (the plotted numbers)\n", a.data);
  }
  if (a.out && status != EXIT_USAGE) {
    int drawn = draw_picture(&a, p, &opt, &r, panels, npanels, d, &data);
    status = drawn != EXIT_OK ? drawn : status;
  }
  free(data.levels);
  free(buf);
  mbdae_problem_destroy(p);
  return status;
}
