/* runs.csv with large final vectors: a record of more than MBDAE_RECORD_INLINE_MAX components
 * writes names, y and yref to a side file and "@FILE" into its row; the reader follows it and gets
 * the record back bit for bit; a small record stays inline; a missing, cut or corrupt side file
 * and a bad side file name are refused with FILE:line. */
#define _POSIX_C_SOURCE 200809L
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <dirent.h>
#include <sys/stat.h>
#include <unistd.h>

#include "check.h"
#include "mbdae/mbdae.h"

static char dir[64] = "/tmp/mbdae_side_XXXXXX";

/* A record of spec with y = sin(i) (NaN at one place), as a run leaves it. */
static void make_record(const char *spec, mbdae_record *rec)
{
  mbdae_problem *p = NULL;
  mbdae_options opt;
  mbdae_options_default(&opt);
  opt.h0 = 1e-6;
  CHECK(mbdae_problem_create(spec, &p, NULL, 0) == 0, "%s", spec);
  CHECK(mbdae_record_init(rec, p, mbdae_solver_find("radau5"), &opt) == 0, "init");
  rec->y = malloc(sizeof(double) * (size_t)rec->neq);
  for (int i = 0; i < rec->neq; i++) {
    rec->y[i] = i == 7 ? NAN : sin(i + 0.5) * 1e3;
  }
  rec->status = MBDAE_OK;
  mbdae_problem_destroy(p);
}

static void write_csv(const mbdae_record *rec, const char *side)
{
  char path[128];
  snprintf(path, sizeof path, "%s/runs.csv", dir);
  FILE *out = fopen(path, "w");
  mbdae_record_write_csv_header(out, NULL);
  CHECK(mbdae_record_write_csv_row_side(out, rec, dir, side) == 0, "write with side %s", side);
  fclose(out);
}

/* Read dir/runs.csv: 0 with one record in *got, or -1 with msg. */
static int read_csv(mbdae_record *got, char *msg, size_t len)
{
  char path[128];
  snprintf(path, sizeof path, "%s/runs.csv", dir);
  FILE *in = fopen(path, "r");
  mbdae_record *recs = NULL;
  size_t n = 0;
  int rc = mbdae_record_read_csv(in, path, &recs, &n, msg, len);
  fclose(in);
  if (rc == 0) {
    CHECK(n == 1, "one row: %zu", n);
    *got = recs[0];
    free(recs);
  }
  return rc;
}

static void test_round_trip(void)
{
  mbdae_record rec = MBDAE_RECORD_INIT, got = MBDAE_RECORD_INIT;
  char msg[600] = "", text[1 << 12];
  make_record("chain:n=250", &rec); /* neq 1250 */
  CHECK(rec.neq > MBDAE_RECORD_INLINE_MAX, "neq %d", rec.neq);
  write_csv(&rec, "runs-1.vec");
  char path[128];
  snprintf(path, sizeof path, "%s/runs.csv", dir);
  FILE *in = fopen(path, "r");
  size_t len = fread(text, 1, sizeof text - 1, in);
  fclose(in);
  text[len] = '\0';
  CHECK(len < sizeof text - 1 && strstr(text, ",@runs-1.vec,@runs-1.vec,"),
        "names and y point to the side file, the row stays short (%zu bytes)", len);
  CHECK(read_csv(&got, msg, sizeof msg) == 0, "%s", msg);
  int same = got.neq == rec.neq && got.y && !got.yref && got.names;
  for (int i = 0; same && i < rec.neq; i++) {
    same = (got.y[i] == rec.y[i] || (isnan(got.y[i]) && isnan(rec.y[i]))) &&
           strcmp(got.names[i], rec.names[i]) == 0;
  }
  CHECK(same, "read back bit for bit through the side file");
  mbdae_record_free(&got);
  mbdae_record_free(&rec);
}

static void test_small_inline(void)
{
  mbdae_record rec = MBDAE_RECORD_INIT, got = MBDAE_RECORD_INIT;
  char msg[600] = "";
  make_record("pendulum", &rec);
  write_csv(&rec, "runs-1.vec");
  snprintf(msg, sizeof msg, "%s/runs-1.vec", dir);
  remove(msg);
  CHECK(read_csv(&got, msg, sizeof msg) == 0 && got.neq == 5 && got.y[4] == rec.y[4],
        "a small record is inline: %s", msg);
  mbdae_record_free(&got);
  mbdae_record_free(&rec);
}

/* Replace line `line` (1-based) of the side file with text, or cut the file after line - 1. */
static void damage_side(int line, const char *text)
{
  char path[128], tmp[140], *buf = NULL;
  size_t cap = 0;
  snprintf(path, sizeof path, "%s/runs-1.vec", dir);
  snprintf(tmp, sizeof tmp, "%s.new", path);
  FILE *in = fopen(path, "r"), *out = fopen(tmp, "w");
  for (int k = 1; getline(&buf, &cap, in) > 0; k++) {
    if (k == line && !text) {
      break;
    }
    fputs(k == line ? text : buf, out);
  }
  free(buf);
  fclose(in);
  fclose(out);
  rename(tmp, path);
}

static void expect_refused(const char *what, const char *where)
{
  mbdae_record got = MBDAE_RECORD_INIT;
  char msg[600] = "";
  CHECK(read_csv(&got, msg, sizeof msg) != 0 && strstr(msg, where) && strstr(msg, "runs.csv:2:"),
        "%s: refused naming %s: %s", what, where, msg);
}

static void test_refused(void)
{
  mbdae_record rec = MBDAE_RECORD_INIT;
  make_record("chain:n=250", &rec);
  char side[128];
  snprintf(side, sizeof side, "%s/runs-1.vec", dir);
  write_csv(&rec, "runs-1.vec");
  remove(side);
  expect_refused("missing side file", "runs-1.vec: No such file");
  write_csv(&rec, "runs-1.vec");
  damage_side(5, "5 vy1 1.5 -\n");
  expect_refused("a component out of order", "runs-1.vec:5:");
  write_csv(&rec, "runs-1.vec");
  damage_side(9, "8 x2 12abc -\n");
  expect_refused("a bad number", "runs-1.vec:9:");
  write_csv(&rec, "runs-1.vec");
  damage_side(100, NULL);
  expect_refused("a cut file", "runs-1.vec:100: fewer lines");
  write_csv(&rec, "runs-1.vec");
  damage_side(1, "# mbdae record vectors: neq 12\n");
  expect_refused("a wrong count", "runs-1.vec:14: more lines");
  write_csv(&rec, "runs-1.vec"); /* a count no file of this size holds: refused, not allocated */
  damage_side(1, "# mbdae record vectors: neq 666666663\n");
  expect_refused("a count beyond the file", "runs-1.vec:1: neq larger than the file");
  FILE *out = fopen("/dev/null", "w");
  CHECK(mbdae_record_write_csv_row_side(out, &rec, dir, "../escape") != 0 &&
            mbdae_record_write_csv_row_side(out, &rec, dir, ".hidden") != 0,
        "side file names stay in the directory");
  fclose(out);
  remove(side);
  mbdae_record_free(&rec);
}

/* A link planted at the side file's name is replaced by the new file, never written through: its
 * target keeps its bytes (the writer once opened the path with fopen "w" and wrote into the
 * target), and no temporary file is left beside it. */
static void test_link_not_followed(void)
{
  mbdae_record rec = MBDAE_RECORD_INIT;
  make_record("chain:n=250", &rec);
  char target[128], side[128];
  snprintf(target, sizeof target, "%s/target", dir);
  snprintf(side, sizeof side, "%s/runs-2.vec", dir);
  FILE *t = fopen(target, "w");
  fputs("precious\n", t);
  fclose(t);
  CHECK(symlink(target, side) == 0, "symlink");
  write_csv(&rec, "runs-2.vec");
  char got[32] = "";
  t = fopen(target, "r");
  CHECK(t && fgets(got, sizeof got, t) && strcmp(got, "precious\n") == 0,
        "the link's target is untouched (%s)", got);
  if (t) {
    fclose(t);
  }
  struct stat st;
  CHECK(lstat(side, &st) == 0 && S_ISREG(st.st_mode), "the side file replaced the link");
  mbdae_record back = MBDAE_RECORD_INIT;
  char msg[256];
  CHECK(read_csv(&back, msg, sizeof msg) == 0 && back.neq == rec.neq, "read back: %s", msg);
  mbdae_record_free(&back);
  DIR *d = opendir(dir);
  int files = 0;
  for (struct dirent *e = d ? readdir(d) : NULL; e; e = readdir(d)) {
    files += e->d_name[0] != '.';
  }
  if (d) {
    closedir(d);
  }
  CHECK(files == 3, "runs.csv, the side file and the target only: %d files", files);
  remove(target);
  remove(side);
  mbdae_record_free(&rec);
}

int main(void)
{
  if (!mkdtemp(dir)) {
    perror("mkdtemp");
    return 1;
  }
  test_round_trip();
  test_small_inline();
  test_refused();
  test_link_not_followed();
  char path[128];
  snprintf(path, sizeof path, "%s/runs.csv", dir);
  remove(path);
  snprintf(path, sizeof path, "%s/runs-1.vec", dir);
  remove(path);
  rmdir(dir);
  return check_summary("test_records_side");
}
