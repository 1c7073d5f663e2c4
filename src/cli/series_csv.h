/* Values over time as a CSV file that any reader takes without options (RFC 4180): one header
 * line "t,<name>,<name>,...", then one line per time; numbers in %.17g (they read back bit for
 * bit), a missing value (NaN) an empty field, no comment lines.  A name with a comma, a quote or
 * a control character is quoted (quotes doubled, control characters as spaces).  Used by
 * `mbdae plot --data`; fits any table of states over time (names from mbdae_problem_component). */
#ifndef MBDAE_SERIES_CSV_H
#define MBDAE_SERIES_CSV_H

#include <stdio.h>

/* Write the header and nrows rows: t[r], then values[r * ncols + c] for c = 0..ncols-1 under
 * names[c].  Returns 0, or -1 when a write failed (ferror). */
int series_csv_write(FILE *out, const char *const *names, int ncols, const double *t,
                     const double *values, int nrows);

#endif /* MBDAE_SERIES_CSV_H */
