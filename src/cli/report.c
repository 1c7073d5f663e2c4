/* One run of the mbdae command and its report: the run-characteristics row in the layout of the
 * test set's tables (mescd, scd, steps, accept, #f, #Jac, #LU, CPU; then the largest position
 * drift max |g|, which the tables of the test set do not have), the drift figures and the final
 * vector against the reference.  The run itself is a library record (mbdae_record_run); its JSON
 * and CSV come from the library's writers. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"

const mbdae_solver_type *solver_type_of(const char *id) { return cli_solver_find(id); }

int execute_run(const mbdae_problem *p, const char *solver, const mbdae_options *opt, int repeats,
                mbdae_record *rec)
{
  const mbdae_solver_type *type = solver_type_of(solver);
  if (!type) {
    *rec = (mbdae_record)MBDAE_RECORD_INIT;
    rec->status = MBDAE_ERR_UNKNOWN_SOLVER;
    snprintf(rec->message, sizeof rec->message, "unknown solver '%.100s'", solver);
    return rec->status;
  }
  return mbdae_record_run(rec, p, type, opt, repeats);
}

void test_set_options(const mbdae_problem *p, double rtol, double atol, double h0, long max_steps,
                      mbdae_options *opt)
{
  mbdae_options_default(opt);
  if (mbdae_options_test_set(p, rtol, opt) != 0) {
    opt->rtol = NAN; /* the run refuses it, naming rtol */
  }
  opt->atol = atol > 0.0 ? atol : opt->atol;
  opt->h0 = h0 > 0.0 ? h0 : opt->h0;
  opt->max_steps = max_steps;
}

void print_table_header(FILE *out)
{
  fprintf(out, "%-8s %-7s %-7s %-7s %6s %6s %6s %7s %7s %8s %6s %6s %9s %9s\n", "solver", "rtol",
          "atol", "h0", "mescd", "scd", "tscd", "steps", "accept", "#f", "#Jac", "#LU", "CPU",
          "max|g|");
}

/* What scd and mescd mean (the Test Set for IVP Solvers, release 2.4, part I; computed by the
 * library's mbdae_scd and mbdae_mescd): under every printed table that has them, and in the help
 * of the commands that print them. */
void print_digits_legend(FILE *out)
{
  fputs("scd: correct significant digits at tend, -log10 max_i |y_i - yref_i| / |yref_i| (scd "
        "components);\n"
        "mescd: mixed absolute-relative, -log10 max_i |y_i - yref_i| / (atol/rtol + |yref_i|); see "
        "README.md\n"
        "tscd: the least scd along the solution, over the reference trajectory's output times "
        "(- for none)\n",
        out);
}

void print_table_row(FILE *out, const mbdae_record *rec)
{
  const mbdae_stats *st = &rec->stats;
  char digits[32];
  if (rec->status != 0) {
    snprintf(digits, sizeof digits, "%13s", "failed");
  } else if (!rec->yref) {
    snprintf(digits, sizeof digits, "%13s", "no ref");
  } else {
    snprintf(digits, sizeof digits, "%6.2f %6.2f", rec->mescd, rec->scd);
  }
  char tscd[16] = "-"; /* no trajectory digits */
  if (rec->status == 0 && isfinite(rec->tscd)) {
    snprintf(tscd, sizeof tscd, "%.2f", rec->tscd);
  }
  char drift[16] = "-"; /* no constraints (form=ssf) or no run */
  if (isfinite(rec->drift_pos_max)) {
    snprintf(drift, sizeof drift, "%.2e", rec->drift_pos_max);
  }
  fprintf(out, "%-8s %-7.0e %-7.0e %-7.0e %s %6s %7ld %7ld %8ld %6ld %6ld %9.4f %9s\n", rec->solver,
          rec->rtol, rec->atol, rec->h0, digits, tscd, st->steps, st->accepted,
          st->nres + st->nres_fd, st->njac, st->nlu,
          isfinite(rec->cpu_seconds) ? rec->cpu_seconds : 0.0, drift);
}

/* A NaN drift with states measured, or a non-finite y: the constraints were evaluated on a
 * non-finite state (not: the formulation has none). */
static int drift_of_nonfinite_state(const mbdae_record *rec)
{
  int bad = rec->drift_steps > 0;
  for (int i = 0; !bad && rec->y && i < rec->neq; i++) {
    bad = !isfinite(rec->y[i]);
  }
  return bad;
}

void print_drift(FILE *out, const mbdae_record *rec)
{
  if (strstr(rec->spec, "form=dummy")) { /* run through mbdae_solve_dummy (mbdae_record_run) */
    fprintf(out, "state selection: %ld switches where the selected pivot degenerated\n",
            rec->switches);
  }
  if (!isfinite(rec->drift_pos_max)) {
    fprintf(out, "drift: %s\n",
            drift_of_nonfinite_state(rec) ? "not finite (measured on a non-finite state)"
            : rec->y                      ? "none measured (the formulation has no constraints)"
                                          : "none measured (nothing ran)");
    return;
  }
  fprintf(out,
          "drift: max |g| = %.3e, at t = %.6g: %.3e; max |G v + g_t| = %.3e, at t = %.6g: %.3e",
          rec->drift_pos_max, rec->t, rec->drift_pos_end, rec->drift_vel_max, rec->t,
          rec->drift_vel_end);
  if (rec->drift_steps > 0) {
    fprintf(out, " (over %ld accepted states)\n", rec->drift_steps);
  } else {
    fprintf(out, " (at the end only: the solver reports no accepted states)\n");
  }
}

/* A large final vector is shown in part: the first and last VECTOR_ENDS components and the one
 * with the largest error against the reference (all of them are in --json and runs.csv). */
enum { VECTOR_SHOWN_MAX = 40, VECTOR_ENDS = 10 };

static int worst_component(const mbdae_record *rec)
{
  int worst = -1;
  double worst_err = -1.0;
  for (int i = 0; rec->yref && i < rec->neq; i++) {
    double ref = rec->yref[i], e = fabs(rec->y[i] - ref);
    e = ref != 0.0 ? e / fabs(ref) : e;
    if (e > worst_err || (isnan(e) && !isnan(worst_err))) {
      worst = i, worst_err = e;
    }
  }
  return worst;
}

static void print_component(FILE *out, const mbdae_problem *p, const mbdae_record *rec, int i)
{
  const char *name = rec->names ? rec->names[i] : "";
  if (rec->yref) {
    double ref = rec->yref[i], e = fabs(rec->y[i] - ref);
    fprintf(out, "%4d %-8s %24.16e %24.16e %10.2e %5s\n", i + 1, name, rec->y[i], ref,
            ref != 0.0 ? e / fabs(ref) : e, mbdae_problem_in_scd(p, i) ? "*" : "");
  } else {
    fprintf(out, "%4d %-8s %24.16e %24s\n", i + 1, name, rec->y[i], "-");
  }
}

void print_final_vector(FILE *out, const mbdae_problem *p, const mbdae_record *rec)
{
  fprintf(out, "%4s %-8s %24s %24s %10s %5s\n", "i", "name", "y(tend)", "reference", "rel.err",
          "scd");
  int n = rec->y ? rec->neq : 0, all = n <= VECTOR_SHOWN_MAX, worst = worst_component(rec);
  int skipped = 0;
  for (int i = 0; i < n; i++) {
    if (all || i < VECTOR_ENDS || i >= n - VECTOR_ENDS || i == worst) {
      if (skipped > 0) {
        fprintf(out, "%4s (%d components not shown)\n", "...", skipped);
        skipped = 0;
      }
      print_component(out, p, rec, i);
    } else {
      skipped++;
    }
  }
  if (!all) {
    fprintf(out, "%d components: shown the first and last %d%s; all of them in --json\n", n,
            VECTOR_ENDS, worst >= 0 ? " and the largest error" : "");
  }
  fprintf(out, "reference: %s\n", mbdae_problem_ref_source(p));
}

void print_trajectory_digits(FILE *out, const mbdae_record *rec)
{
  if (rec->status != 0) {
    return;
  }
  if (isnan(rec->tscd)) {
    fputs("along the solution: no trajectory digits (no reference trajectory, or the solver gives "
          "no output times)\n",
          out);
    return;
  }
  fprintf(out,
          "along the solution (the reference trajectory's output times): tscd %.2f, tmescd %.2f, "
          "rms %.2f digits\n",
          rec->tscd, rec->tmescd, rec->tscd_rms);
}
