/* mbdae_write_runs: mbdae_write_runs(dir, rs), the records rs (a struct array or a cell array of
 * records from mbdae_solve, mbdae_record_outcome or mbdae_run_solver) added to dir/runs.csv, the
 * file `mbdae sweep` writes and `mbdae sweep --report dir` reads.
 *
 * Each record's row is read back from its csv field by the library's reader and written by its
 * writer (mbdae_record_write_csv_row_side: a final vector of more than 1000 components goes to a
 * side file).  An existing path is never opened for writing: the new runs.csv is a new file in
 * dir (mkstemp) holding the old file's bytes (or the header), then the rows; it is read back
 * whole by mbdae_record_read_csv, flushed, and renamed over runs.csv.  So runs.csv is either the
 * old file or the new one, never a half-written one. */
#include "mex_common.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

typedef struct target {
  char path[4096], tmp[4096];
  FILE *out;
} target;

static unsigned long side_files; /* side files written by this MEX file, for unique names */

/* The csv text of record k of rs (a struct array or a cell of structs). */
static const mxArray *record_csv(const mxArray *rs, size_t k)
{
  const mxArray *r = mxIsCell(rs) ? mxGetCell(rs, k) : rs;
  size_t i = mxIsCell(rs) ? 0 : k;
  const mxArray *csv = r && mxIsStruct(r) ? mxGetField(r, i, "csv") : NULL;
  if (!csv || !mxIsChar(csv)) {
    mx_fail("arg", "rs(%zu) is not a run record (mbdae_solve, mbdae_run_solver): no csv field",
            k + 1);
  }
  return csv;
}

/* Copy the existing file's bytes to out; 0, 1 when there is none, -1 on an error. */
static int copy_old(const char *path, FILE *out)
{
  FILE *in = fopen(path, "rb");
  if (!in) {
    return errno == ENOENT ? 1 : -1;
  }
  char buf[65536];
  size_t got;
  int rc = 0;
  while (rc == 0 && (got = fread(buf, 1, sizeof buf, in)) > 0) {
    rc = fwrite(buf, 1, got, out) == got ? 0 : -1;
  }
  rc = ferror(in) ? -1 : rc;
  fclose(in);
  return rc;
}

/* One record's row: read back from its text, written by the library. */
static int write_row(const char *text, const char *dir, FILE *out, char *why, size_t len)
{
  FILE *in = fmemopen((void *)text, strlen(text), "r");
  mbdae_record *recs = NULL;
  size_t n = 0;
  int rc = in ? mbdae_record_read_csv(in, "the record", &recs, &n, why, len) : -1;
  if (in) {
    fclose(in);
  }
  for (size_t k = 0; rc == 0 && k < n; k++) {
    char side[64];
    snprintf(side, sizeof side, "octave-%ld-%lu.vec", (long)getpid(), ++side_files);
    rc = mbdae_record_write_csv_row_side(out, &recs[k], dir, side);
  }
  if (recs) {
    mbdae_records_free(recs, n);
  }
  return rc;
}

/* Read the new file back whole: a row the reader refuses stops the rename. */
static int read_back(const char *tmp, char *why, size_t len)
{
  FILE *in = fopen(tmp, "r");
  mbdae_record *recs = NULL;
  size_t n = 0;
  int rc = in ? mbdae_record_read_csv(in, "the new runs.csv", &recs, &n, why, len) : -1;
  if (in) {
    fclose(in);
  }
  if (recs) {
    mbdae_records_free(recs, n);
  }
  return rc;
}

static int write_all(target *tg, const char *dir, const mxArray *rs, size_t nrec, char *why,
                     size_t len)
{
  int rc = copy_old(tg->path, tg->out);
  if (rc == 1) {
    rc = mbdae_record_write_csv_header(tg->out, NULL);
  }
  for (size_t k = 0; rc == 0 && k < nrec; k++) {
    char *text = mxArrayToString(record_csv(rs, k));
    rc = text ? write_row(text, dir, tg->out, why, len) : -1;
    mxFree(text);
  }
  rc = fflush(tg->out) != 0 || fsync(fileno(tg->out)) != 0 ? -1 : rc;
  rc = fclose(tg->out) != 0 ? -1 : rc;
  tg->out = NULL;
  return rc == 0 ? read_back(tg->tmp, why, len) : rc;
}

void mexFunction(int nlhs, mxArray *plhs[], int nrhs, const mxArray *prhs[])
{
  (void)plhs;
  mx_arity(nrhs, 2, 2, nlhs, 0, "mbdae_write_runs(dir, rs)");
  char *dir = mx_string(prhs[0], "dir");
  const mxArray *rs = prhs[1];
  size_t nrec = mxGetNumberOfElements(rs);
  for (size_t k = 0; k < nrec; k++) {
    record_csv(rs, k); /* every record checked before anything is written */
  }
  target tg;
  if (snprintf(tg.path, sizeof tg.path, "%s/runs.csv", dir) >= (int)sizeof tg.path) {
    mx_fail("arg", "dir: too long a path");
  }
  snprintf(tg.tmp, sizeof tg.tmp, "%s/.runs.csv.XXXXXX", dir);
  int fd = mkstemp(tg.tmp);
  mode_t mask = umask(0); /* mkstemp makes 0600: give the file the mode a new file gets */
  umask(mask);
  if (fd >= 0) {
    fchmod(fd, 0666 & ~mask);
  }
  tg.out = fd >= 0 ? fdopen(fd, "w") : NULL;
  if (!tg.out) {
    int err = errno;
    if (fd >= 0) {
      close(fd);
      unlink(tg.tmp);
    }
    mx_fail("io", "cannot create a file in %s: %s", dir, strerror(err));
  }
  char why[512] = "";
  int rc = write_all(&tg, dir, rs, nrec, why, sizeof why);
  if (rc == 0 && rename(tg.tmp, tg.path) != 0) {
    snprintf(why, sizeof why, "rename: %s", strerror(errno));
    rc = -1;
  }
  if (rc != 0) {
    unlink(tg.tmp);
    mx_fail("io", "%s not written: %s", tg.path, why[0] ? why : strerror(errno));
  }
}
