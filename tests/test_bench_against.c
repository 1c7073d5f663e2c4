/* `mbdae bench --against FILE`: the saved peer runs (refsol/peer/testset.jsonl) are read,
 * validated line by line before anything runs, and printed under our rows; a bad file is refused
 * with file:line and exit 2. */
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
