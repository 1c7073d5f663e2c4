/* One run of the mbdae command and its report: the run-characteristics row in the layout of the
 * test set's tables (mescd, scd, steps, accept, #f, #Jac, #LU, CPU), the final vector against the
 * reference, and the JSON object of `mbdae run --json`. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"

int execute_run(const mbdae_problem *p, const char *solver, const mbdae_options *opt, int repeats,
                run_record *rec)
{
  int n = mbdae_problem_neq(p);
  memset(rec, 0, sizeof *rec);
  rec->problem = p;
  rec->solver = solver;
  rec->opt = *opt;
  rec->y = calloc((size_t)(2 * n), sizeof(double));
  if (!rec->y) {
    return MBDAE_ERR_NOMEM;
  }
  rec->yref = rec->y + n;
  if (mbdae_problem_ref(p, rec->yref) != 0) {
    rec->yref = NULL;
  }
  cli_solve(p, solver, opt, repeats, rec->y, NULL, &rec->result);
  rec->scd = rec->mescd = NAN;
  if (rec->result.status == 0 && rec->yref) {
    rec->scd = mbdae_scd(p, rec->y, rec->yref);
    rec->mescd = mbdae_mescd(p, rec->y, rec->yref, opt->rtol, opt->atol);
  }
  return rec->result.status;
}

void test_set_options(const mbdae_problem *p, double rtol, double atol, double h0, long max_steps,
                      mbdae_options *opt)
{
  mbdae_tolerance_plan plan;
  mbdae_problem_tolerances(p, &plan);
  mbdae_options_default(opt);
  opt->rtol = rtol;
  opt->atol = atol > 0.0 ? atol : rtol;
  opt->h0 = h0 > 0.0 ? h0 : plan.h0_factor * rtol;
  opt->max_steps = max_steps;
}

void free_run(run_record *rec)
{
  free(rec->y);
  rec->y = rec->yref = NULL;
}

void print_table_header(FILE *out)
{
  fprintf(out, "%-8s %-7s %-7s %-7s %6s %6s %7s %7s %8s %6s %6s %9s\n", "solver", "rtol", "atol",
          "h0", "mescd", "scd", "steps", "accept", "#f", "#Jac", "#LU", "CPU");
}

void print_table_row(FILE *out, const run_record *rec)
{
  const mbdae_result *r = &rec->result;
  char digits[32];
  if (r->status != 0) {
    snprintf(digits, sizeof digits, "%13s", "failed");
  } else if (!rec->yref) {
    snprintf(digits, sizeof digits, "%13s", "no ref");
  } else {
    snprintf(digits, sizeof digits, "%6.2f %6.2f", rec->mescd, rec->scd);
  }
  fprintf(out, "%-8s %-7.0e %-7.0e %-7.0e %s %7ld %7ld %8ld %6ld %6ld %9.4f\n", rec->solver,
          rec->opt.rtol, rec->opt.atol, rec->opt.h0, digits, r->stats.steps, r->stats.accepted,
          r->stats.nres + r->stats.nres_fd, r->stats.njac, r->stats.nlu, r->cpu_seconds);
}

void print_final_vector(FILE *out, const run_record *rec)
{
  int n = mbdae_problem_neq(rec->problem);
  fprintf(out, "%4s %24s %24s %10s %5s\n", "i", "y(tend)", "reference", "rel.err", "scd");
  for (int i = 0; i < n; i++) {
    if (rec->yref) {
      double ref = rec->yref[i], e = fabs(rec->y[i] - ref);
      fprintf(out, "%4d %24.16e %24.16e %10.2e %5s\n", i + 1, rec->y[i], ref,
              ref != 0.0 ? e / fabs(ref) : e, mbdae_problem_in_scd(rec->problem, i) ? "*" : "");
    } else {
      fprintf(out, "%4d %24.16e %24s\n", i + 1, rec->y[i], "-");
    }
  }
  fprintf(out, "reference: %s\n", mbdae_problem_ref_source(rec->problem));
}

void json_string(FILE *out, const char *s)
{
  fputc('"', out);
  for (; *s; s++) {
    unsigned char c = (unsigned char)*s;
    if (c == '"' || c == '\\') {
      fprintf(out, "\\%c", c);
    } else if (c < 0x20) {
      fprintf(out, "\\u%04x", c);
    } else {
      fputc(c, out);
    }
  }
  fputc('"', out);
}

/* JSON has no NaN: a missing measure is null. */
void json_number(FILE *out, double v)
{
  if (isfinite(v)) {
    fprintf(out, "%.17g", v);
  } else {
    fputs("null", out);
  }
}

/* ", \"key\": value": a field after the first of an object. */
void json_field_string(FILE *out, const char *key, const char *s)
{
  fprintf(out, ", \"%s\": ", key);
  json_string(out, s);
}

void json_field_number(FILE *out, const char *key, double v)
{
  fprintf(out, ", \"%s\": ", key);
  json_number(out, v);
}

static void json_vector(FILE *out, const double *v, int n)
{
  fputc('[', out);
  for (int i = 0; i < n; i++) {
    if (i) {
      fputs(", ", out);
    }
    json_number(out, v[i]);
  }
  fputc(']', out);
}

void print_run_json(FILE *out, const run_record *rec)
{
  const mbdae_result *r = &rec->result;
  const mbdae_problem *p = rec->problem;
  fputs("{\"problem\": ", out);
  json_string(out, mbdae_problem_name(p));
  json_field_string(out, "spec", mbdae_problem_spec(p));
  json_field_string(out, "solver", rec->solver);
  json_field_number(out, "rtol", rec->opt.rtol);
  json_field_number(out, "atol", rec->opt.atol);
  json_field_number(out, "h0", rec->opt.h0);
  json_field_number(out, "hmax", rec->opt.hmax);
  fprintf(out, ", \"status\": \"%s\", \"message\": ", r->status == 0 ? "ok" : "fail");
  json_string(out, r->status == 0 ? "" : r->message);
  json_field_number(out, "t", r->t);
  json_field_number(out, "scd", rec->scd);
  json_field_number(out, "mescd", rec->mescd);
  fprintf(out,
          ", \"steps\": %ld, \"accepted\": %ld, \"nres\": %ld, \"nres_fd\": %ld, \"njac\": %ld, "
          "\"nlu\": %ld, \"nerrfail\": %ld, \"nconvfail\": %ld",
          r->stats.steps, r->stats.accepted, r->stats.nres, r->stats.nres_fd, r->stats.njac,
          r->stats.nlu, r->stats.nerrfail, r->stats.nconvfail);
  json_field_number(out, "cpu_seconds", r->cpu_seconds);
  json_field_number(out, "cpu_min", r->cpu_min);
  json_field_number(out, "cpu_max", r->cpu_max);
  fprintf(out, ", \"repeats\": %d, \"y\": ", r->repeats);
  json_vector(out, rec->y, mbdae_problem_neq(p));
  fputs(", \"yref\": ", out);
  if (rec->yref) {
    json_vector(out, rec->yref, mbdae_problem_neq(p));
  } else {
    fputs("null", out);
  }
  fputs("}\n", out);
}
