/* A record read back against the problem it is used with (mbdae_record_fits), and the reader's
 * per-row check (mbdae_record_read_csv_checked): a record fits its own problem, not one of another
 * size, not one whose component names differ, and one without vectors fits any; the checked reader
 * refuses the first row the check refuses with that row's line, and allocates nothing. */
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "support.h"

static void check_fits(void)
{
  mbdae_problem *car = create_problem("caraxis"), *pend = create_problem("pendulum");
  mbdae_options opt;
  mbdae_record rec = MBDAE_RECORD_INIT;
  char why[300] = "";
  test_options(car, 1e-4, &opt);
  CHECK(mbdae_record_init(&rec, car, mbdae_solver_find("radau5"), &opt) == 0, "init");
  CHECK(mbdae_record_fits(&rec, car, why, sizeof why) == 0, "its own problem: %s", why);
  CHECK(mbdae_record_fits(&rec, pend, why, sizeof why) != 0 && strstr(why, "10 entries") &&
            strstr(why, "has 5"),
        "the pendulum (5 components): '%s'", why);
  char *first = rec.names[0];
  rec.names[0] = "q1";
  CHECK(mbdae_record_fits(&rec, car, why, sizeof why) != 0 && strstr(why, "component 1") &&
            strstr(why, "q1") && strstr(why, "x_l"),
        "a renamed component: '%s'", why);
  rec.names[0] = first;
  mbdae_record bare = rec; /* a record without vectors fits any problem */
  bare.names = NULL;
  bare.y = bare.yref = NULL;
  bare.neq = 0;
  CHECK(mbdae_record_fits(&bare, pend, why, sizeof why) == 0, "no vectors: %s", why);
  mbdae_record_free(&rec);
  mbdae_problem_destroy(car);
  mbdae_problem_destroy(pend);
}

/* The check: refuse a row whose solver is bdf. */
static int no_bdf(void *ctx, const mbdae_record *rec, char *why, size_t len)
{
  ++*(int *)ctx;
  if (strcmp(rec->solver, "bdf") == 0) {
    snprintf(why, len, "bdf is not wanted");
    return -1;
  }
  return 0;
}

static void check_checked_reader(void)
{
  mbdae_problem *p = create_problem("pendulum");
  mbdae_options opt;
  mbdae_record rec = MBDAE_RECORD_INIT, *recs = NULL;
  size_t n = 0, len = 0;
  char *text = NULL, msg[300] = "";
  test_options(p, 1e-4, &opt);
  FILE *out = open_memstream(&text, &len);
  mbdae_record_write_csv_header(out, NULL);
  const char *solvers[] = {"radau5", "ida", "bdf", "radau"};
  for (int k = 0; k < 4; k++) {
    mbdae_record_init(&rec, p, mbdae_solver_find(solvers[k]), &opt);
    mbdae_record_write_csv_row(out, &rec);
    mbdae_record_free(&rec);
  }
  fclose(out);
  int calls = 0;
  FILE *in = fmemopen(text, len, "r");
  int rc =
      mbdae_record_read_csv_checked(in, "four.csv", no_bdf, &calls, &recs, &n, msg, sizeof msg);
  fclose(in);
  CHECK(rc == -1 && !recs && n == 0 && calls == 3 &&
            strcmp(msg, "four.csv:4: bdf is not wanted") == 0,
        "the third row refused on its line: %d, %d calls, '%s'", rc, calls, msg);
  in = fmemopen(text, len, "r");
  rc = mbdae_record_read_csv_checked(in, "four.csv", NULL, NULL, &recs, &n, msg, sizeof msg);
  fclose(in);
  CHECK(rc == 0 && n == 4, "without a check: %d, %zu rows, %s", rc, n, msg);
  mbdae_records_free(recs, n);
  free(text);
  mbdae_problem_destroy(p);
}

int main(void)
{
  check_fits();
  check_checked_reader();
  return check_summary("test_record_fits");
}
