/* libFuzzer target for the side files of runs.csv ("@FILE" fields, src/harness/record_side.c): the
 * input is the side file f.vec that a fixed runs.csv row names for its names and y; any
 * bytes must give the record or a "FILE:line: why" message, never a crash, a leak or undefined
 * behaviour.  An accepted record keeps what the reader promises (names and y of one length,
 * component names of [A-Za-z0-9_] under 64 characters) and is written back with its own side file,
 * which must read again to the same values.
 *
 * The files live in a folder made once under /tmp (libFuzzer runs the target in one process).
 * Build and run as the other fuzzers (tests/fuzz/CMakeLists.txt); seeds in corpus/side/. */
#define _GNU_SOURCE /* mkdtemp */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "mbdae/mbdae.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static char dir[] = "/tmp/mbdae-fuzz-side-XXXXXX";
static char csv[1 << 14]; /* the header and a row whose lists are "@f.vec" */

/* The header and the row of a chain of 1005 components, whose names and y are "@f.vec" (yref
 * empty: no reference), written once by the library's writer. */
/* The folder and its two files, at exit (libFuzzer ends with exit()). */
static void remove_dir(void)
{
  char path[64];
  snprintf(path, sizeof path, "%s/f.vec", dir);
  remove(path);
  snprintf(path, sizeof path, "%s/g.vec", dir);
  remove(path);
  rmdir(dir);
}

static int prepare(void)
{
  if (!mkdtemp(dir)) {
    return -1;
  }
  atexit(remove_dir);
  FILE *out = fmemopen(csv, sizeof csv - 1, "w");
  mbdae_problem *p = NULL;
  mbdae_record rec = MBDAE_RECORD_INIT;
  mbdae_options opt;
  mbdae_options_default(&opt);
  opt.h0 = 1e-6; /* the reader takes a positive h0 only */
  if (!out || mbdae_problem_create("chain:n=201", &p, NULL, 0) != 0 ||
      mbdae_record_init(&rec, p, mbdae_solver_find("radau5"), &opt) != 0 ||
      rec.neq <= MBDAE_RECORD_INLINE_MAX || !(rec.y = calloc((size_t)rec.neq, sizeof(double)))) {
    abort();
  }
  mbdae_record_write_csv_header(out, NULL);
  if (mbdae_record_write_csv_row_side(out, &rec, dir, "f.vec") != 0) {
    abort();
  }
  fclose(out);
  mbdae_record_free(&rec);
  mbdae_problem_destroy(p);
  if (!strstr(csv, ",@f.vec,@f.vec,")) {
    abort();
  }
  return 0;
}

static int read_runs(const char *text, mbdae_record **recs, size_t *n, char *msg, size_t len);

/* The row reads with the side file the writer wrote: the harness reaches the side-file reader. */
static void check_harness(void)
{
  mbdae_record *recs = NULL;
  size_t n = 0;
  char msg[600];
  if (read_runs(csv, &recs, &n, msg, sizeof msg) != 0 || n != 1) {
    fprintf(stderr, "fuzz_side: the fixed row does not read: %s\n", msg);
    abort();
  }
  mbdae_records_free(recs, n);
}

/* Read csv (named dir/runs.csv, so that "@f.vec" is dir/f.vec); 0 with the records, or -1. */
static int read_runs(const char *text, mbdae_record **recs, size_t *n, char *msg, size_t len)
{
  char name[64];
  snprintf(name, sizeof name, "%s/runs.csv", dir);
  FILE *in = fmemopen((void *)text, strlen(text), "r");
  if (!in) {
    abort();
  }
  int rc = mbdae_record_read_csv(in, name, recs, n, msg, len);
  fclose(in);
  return rc;
}

static void check_record(const mbdae_record *r)
{
  if (r->neq <= 0 || !r->names || !r->y) {
    abort(); /* names and y come from the side file */
  }
  for (int i = 0; i < r->neq; i++) {
    size_t len = strlen(r->names[i]);
    if (len == 0 || len >= MBDAE_RECORD_ID_LEN ||
        strspn(r->names[i], "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_") !=
            len) {
      abort(); /* a name that would break runs.csv or its names field */
    }
  }
}

/* Write r back with its own side file g.vec and read it again: the same values. */
static void round_trip(const mbdae_record *r)
{
  char *text = NULL, msg[600];
  size_t len = 0, n = 0;
  FILE *out = open_memstream(&text, &len);
  mbdae_record *back = NULL;
  if (!out) {
    abort();
  }
  mbdae_record_write_csv_header(out, NULL);
  int rc = r->neq > MBDAE_RECORD_INLINE_MAX ? mbdae_record_write_csv_row_side(out, r, dir, "g.vec")
                                            : mbdae_record_write_csv_row(out, r);
  fclose(out);
  if (rc != 0 || read_runs(text, &back, &n, msg, sizeof msg) != 0 || n != 1 ||
      back[0].neq != r->neq) {
    abort(); /* what the writer wrote, the reader must read */
  }
  for (int i = 0; i < r->neq; i++) {
    if (strcmp(back[0].names[i], r->names[i]) != 0 ||
        (memcmp(&back[0].y[i], &r->y[i], sizeof(double)) != 0 && !isnan(r->y[i]))) {
      abort();
    }
  }
  mbdae_records_free(back, n);
  free(text);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
  static int prepared;
  if (!prepared) {
    if (prepare() != 0) {
      return 0;
    }
    check_harness();
    prepared = 1;
  }
  char path[64], msg[600] = "";
  snprintf(path, sizeof path, "%s/f.vec", dir);
  FILE *side = fopen(path, "wb");
  if (!side || fwrite(data, 1, size, side) != size || fclose(side) != 0) {
    abort();
  }
  mbdae_record *recs = NULL;
  size_t n = 0;
  if (read_runs(csv, &recs, &n, msg, sizeof msg) != 0) {
    if (recs || n || !strstr(msg, "runs.csv:2: ")) {
      abort(); /* refused: nothing allocated, the row named */
    }
    return 0;
  }
  if (n != 1) {
    abort();
  }
  check_record(&recs[0]);
  round_trip(&recs[0]);
  mbdae_records_free(recs, n);
  return 0;
}
