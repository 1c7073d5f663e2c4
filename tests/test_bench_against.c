/* `mbdae bench --against FILE`: the saved peer runs (refsol/peer/testset.jsonl) are read,
 * validated line by line before anything runs, and printed under our rows; a bad file is refused
 * with file:line and exit 2.  The committed file covers Fekete and the wheelset too: every table
 * row of theirs finds its saved peer run; mebdf's rows find MEBDFI's. */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "support.h"

static char dir[] = "/tmp/mbdae-against-XXXXXX";

/* A file in dir holding text; its path in path. */
static void write_file(const char *name, const char *text, char *path, size_t len)
{
  snprintf(path, len, "%s/%s", dir, name);
  FILE *f = fopen(path, "w");
  if (f) {
    fputs(text, f);
    fclose(f);
  }
}

static const char good[] =
    "{\"problem\": \"caraxis\", \"solver\": \"radau5\", \"rtol\": 0.0001, \"status\": \"ok\", "
    "\"scd\": 0.19, \"mescd\": 1.34, \"steps\": 98, \"nres\": 850, \"cpu_seconds\": 0.00037, "
    "\"y\": [0.04, 0.49], \"repeat_mismatch\": false}\n";

/* Occurrences of needle in hay. */
static int count_of(const char *hay, const char *needle)
{
  int n = 0;
  for (const char *s = strstr(hay, needle); s; s = strstr(s + 1, needle)) {
    n++;
  }
  return n;
}

/* `bench SPEC --solvers OURS --against refsol/peer/testset.jsonl` prints the saved PEER run under
 * each of the problem's three table rows (rtol 1e-4, 1e-7, 1e-10). */
static void saved_rows(const char *spec, const char *ours, const char *peer)
{
  static char out[1 << 16];
  int rc =
      run_clif(out, sizeof out, "bench %s --solvers %s --repeat 1 --against %s/peer/testset.jsonl",
               spec, ours, MBDAE_REFSOL_DIR);
  char line[64];
  snprintf(line, sizeof line, "vs %-7s mescd", peer);
  CHECK(rc == 0 && count_of(out, line) == 3 && !strstr(out, "no saved run"),
        "bench %s --solvers %s: exit %d, want 3 rows '%s' (saved %s runs):\n%s", spec, ours, rc,
        line, peer, out);
}

static void refused(const char *name, const char *line, const char *why)
{
  char path[256], args[512];
  write_file(name, line, path, sizeof path);
  snprintf(args, sizeof args, "bench caraxis --solvers radau5 --repeat 1 --against %s", path);
  char mention[300];
  snprintf(mention, sizeof mention, "%s:%s", name, why);
  expect(args, 2, mention);
}

int main(void)
{
  if (!mkdtemp(dir)) {
    return 1;
  }
  char args[512], path[256];
  snprintf(args, sizeof args,
           "bench caraxis --solvers radau5,bdf --repeat 1 --against %s/peer/testset.jsonl",
           MBDAE_REFSOL_DIR);
  expect(args, 0, "vs radau5  mescd");
  expect(args, 0, "vs mebdfi  mescd");
  saved_rows("fekete", "bdf", "mebdfi");
  saved_rows("wheelset", "radau5", "radau5");
  saved_rows("crank", "mebdf", "mebdfi"); /* mebdf's peer is MEBDFI (solvers/mebdf.h) */
  write_file("one.jsonl", good, path, sizeof path);
  snprintf(args, sizeof args, "bench caraxis --solvers radau5 --repeat 1 --against %s", path);
  expect(args, 0, "vs radau5  mescd");
  expect(args, 0, "vs radau5  no saved run at this rtol"); /* 1e-7 and 1e-10 are not in one.jsonl */
  refused("trunc.jsonl", "{\"problem\": \"caraxis\", \"solver\"", "1: ");
  refused("neg.jsonl", "{\"problem\": \"caraxis\", \"solver\": \"radau5\", \"rtol\": -1}",
          "1: rtol");
  refused("quote.jsonl", "\n{\"problem\": \"cara\\\"xis\"}", "2: unterminated string");
  refused("missing.jsonl", "{\"problem\": \"caraxis\", \"solver\": \"radau5\", \"rtol\": 1e-4}",
          "1: a member is missing");
  refused("count.jsonl",
          "{\"problem\": \"caraxis\", \"solver\": \"radau5\", \"rtol\": 1e-4, \"steps\": 1.5}",
          "1: a counter");
  refused("empty.jsonl", "\n\n", " no peer runs");
  expect("bench caraxis --against /nonexistent/peer.jsonl", 2, "/nonexistent/peer.jsonl");
  expect("bench caraxis --peer-map radau5=radau5", 2, "--peer-map goes with --against");
  snprintf(args, sizeof args, "bench caraxis --against %s --peer-map radau5", path);
  expect(args, 2, "ours=peer pairs");
  return check_summary("test_bench_against");
}
