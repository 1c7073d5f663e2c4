/* Values over time as CSV (series_csv.h): the writer of `mbdae plot --data`. */
#include "series_csv.h"

#include <math.h>
#include <string.h>

static void csv_name(FILE *out, const char *s)
{
  int quote = strpbrk(s, ",\"") != NULL;
  for (const char *c = s; *c && !quote; c++) {
    quote = (unsigned char)*c < 0x20 || *c == 0x7f;
  }
  if (!quote) {
    fputs(s, out);
    return;
  }
  fputc('"', out);
  for (; *s; s++) {
    unsigned char c = (unsigned char)*s;
    if (c == '"') {
      fputc('"', out);
    }
    fputc(c < 0x20 || c == 0x7f ? ' ' : c, out);
  }
  fputc('"', out);
}

static void csv_number(FILE *out, double v)
{
  if (!isnan(v)) {
    fprintf(out, "%.17g", v);
  }
}

int series_csv_write(FILE *out, const char *const *names, int ncols, const double *t,
                     const double *values, int nrows)
{
  fputs("t", out);
  for (int c = 0; c < ncols; c++) {
    fputc(',', out);
    csv_name(out, names[c]);
  }
  fputc('\n', out);
  for (int r = 0; r < nrows; r++) {
    csv_number(out, t[r]);
    for (int c = 0; c < ncols; c++) {
      fputc(',', out);
      csv_number(out, values[(size_t)r * (size_t)ncols + (size_t)c]);
    }
    fputc('\n', out);
  }
  return ferror(out) ? -1 : 0;
}
