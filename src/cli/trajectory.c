/* The solution over time as CSV (run --trajectory FILE): a header "t,<component names>", then
 * one row per state, every number in %.17g (it reads back to the same double), so that any CSV
 * reader takes it.  The states are either collected from a run's accepted steps
 * (mbdae_options.on_accept, after the initial values) or sampled at equidistant times from the
 * solver's continuous output (mbdae_options.tout/yout).  The file is written as a new file
 * renamed into place (new_file.h), so it is whole or absent and never written through a link; a
 * folder of that name is refused. */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "cli.h"
#include "new_file.h"

void trajectory_init(trajectory *tr, int neq)
{
  memset(tr, 0, sizeof *tr);
  tr->neq = (size_t)neq;
}

void trajectory_free(trajectory *tr)
{
  free(tr->t);
  free(tr->y);
  memset(tr, 0, sizeof *tr);
}

int trajectory_append(trajectory *tr, double t, const double *y)
{
  if (tr->nrows == tr->cap) {
    size_t cap = tr->cap ? 2 * tr->cap : 256;
    double *nt = realloc(tr->t, sizeof(double) * cap);
    tr->t = nt ? nt : tr->t;
    double *ny = nt ? realloc(tr->y, sizeof(double) * cap * tr->neq) : NULL;
    tr->y = ny ? ny : tr->y;
    if (!ny) {
      tr->nomem = 1;
      return MBDAE_ERR_NOMEM;
    }
    tr->cap = cap;
  }
  tr->t[tr->nrows] = t;
  memcpy(tr->y + tr->nrows * tr->neq, y, sizeof(double) * tr->neq);
  tr->nrows++;
  return 0;
}

void trajectory_on_accept(void *ctx, double t, const double *y, const double *yp)
{
  (void)yp;
  trajectory *tr = ctx;
  if (tr->nrows > 1 && !(t > tr->t[tr->nrows - 1])) {
    tr->nrows = 1; /* time went back: another of --repeat's runs; keep the initial values */
  }
  trajectory_append(tr, t, y);
}

void equidistant_times(double t0, double tend, int n, double *tout)
{
  for (int j = 0; j < n; j++) {
    tout[j] = j + 1 < n ? t0 + (tend - t0) * j / (n - 1) : tend;
  }
}

/* A header field: the name as it is, or in double quotes (doubled inside) when it holds a
 * comma, a quote or a line break. */
static void write_name(FILE *out, const char *name)
{
  if (strpbrk(name, ",\"\r\n") == NULL) {
    fputs(name, out);
    return;
  }
  fputc('"', out);
  for (const char *c = name; *c; c++) {
    fputs(*c == '"' ? "\"\"" : (char[2]){*c, 0}, out);
  }
  fputc('"', out);
}

static void write_rows(FILE *out, const char *const *names, const double *t, const double *y,
                       size_t nrows, size_t neq)
{
  fputc('t', out);
  for (size_t i = 0; i < neq; i++) {
    fputc(',', out);
    write_name(out, names[i]);
  }
  fputc('\n', out);
  for (size_t k = 0; k < nrows; k++) {
    const double *row = y + k * neq;
    if (neq > 0 && isnan(row[0])) {
      continue; /* an output time the run did not reach */
    }
    fprintf(out, "%.17g", t[k]);
    for (size_t i = 0; i < neq; i++) {
      fprintf(out, ",%.17g", row[i]);
    }
    fputc('\n', out);
  }
}

/* A new file for path (new_file.h) in nf, or NULL after a message. */
static FILE *open_new(const char *path, new_file *nf)
{
  struct stat st;
  if (stat(path, &st) == 0 && S_ISDIR(st.st_mode)) {
    usage_error("cannot write %s: it is a folder; give a file name", path);
    return NULL;
  }
  FILE *out = new_file_open(nf, path);
  if (!out) {
    usage_error("cannot write %s: %s", path, strerror(errno));
  }
  return out;
}

int trajectory_check_path(const char *path)
{
  new_file nf;
  FILE *out = open_new(path, &nf);
  if (out) {
    new_file_discard(&nf);
  }
  return out ? 0 : -1;
}

int trajectory_write_csv(const char *path, const char *const *names, const double *t,
                         const double *y, size_t nrows, size_t neq)
{
  new_file nf;
  FILE *out = open_new(path, &nf);
  if (!out) {
    return EXIT_USAGE;
  }
  write_rows(out, names, t, y, nrows, neq);
  if (new_file_commit(&nf) != 0) {
    return usage_error("cannot write %s: %s", path, strerror(errno));
  }
  return EXIT_OK;
}
