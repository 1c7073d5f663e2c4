/* mbdae sweep --forms over every form of every problem (the forms as `mbdae list` gives them):
 * each sweep runs one row per form, writes one table per form and a workprecision.gp with one
 * curve per form, draws every form's curve (where gnuplot is installed), and exits 0; --report
 * redoes it from runs.csv.  The chain's forms differ only after the first comma of their specs,
 * crank's index forms are spelled index=N: both once ended in exit 2 after every run. */
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "check.h"
#include "support.h"

static char tmpdir[] = "/tmp/mbdae-test-sweep-forms-XXXXXX";
static char out[1 << 16], listing[1 << 16];

/* `mbdae ARGS` formatted as printf does, its output in out. */
#define cli(...) run_clif(out, sizeof out, __VA_ARGS__)

/* How often text occurs in dir/name. */
static int count_in(const char *dir, const char *name, const char *text)
{
  static char buf[1 << 21];
  char path[512];
  snprintf(path, sizeof path, "%s/%s", dir, name);
  FILE *f = fopen(path, "r");
  size_t got = f ? fread(buf, 1, sizeof buf - 1, f) : 0;
  if (f) {
    fclose(f);
  }
  buf[got] = '\0';
  int n = 0;
  for (const char *s = buf; (s = strstr(s, text)); s++) {
    n++;
  }
  return n;
}

/* The forms of problem id from `mbdae list` ("form=a|b|c" on its options line, as "a,b,c"). */
static int forms_of(const char *id, char *forms, size_t len)
{
  char head[64];
  snprintf(head, sizeof head, "\n%s ", id);
  const char *line = strstr(listing, head);
  const char *options = line ? strchr(line + 1, '\n') : NULL;
  const char *end = options ? strchr(options + 1, '\n') : NULL;
  const char *form = options ? strstr(options, " form=") : NULL;
  if (!form || (end && form > end)) {
    return 0;
  }
  size_t n = strspn(form + 6, "abcdefghijklmnopqrstuvwxyz0123456789|");
  snprintf(forms, len, "%.*s", (int)n, form + 6);
  int count = 1;
  for (char *c = forms; *c; c++) {
    count += *c == '|';
    *c = *c == '|' ? ',' : *c;
  }
  return count;
}

static void check_problem(const char *id, int have_gnuplot)
{
  char forms[256], dir[256], name[128];
  int nforms = forms_of(id, forms, sizeof forms);
  CHECK(nforms >= 2, "%s: mbdae list names %d forms", id, nforms);
  if (nforms < 2) {
    return;
  }
  snprintf(dir, sizeof dir, "%s/%s", tmpdir, id);
  int rc = cli("sweep %s --forms %s --solvers ida --m 0:0%s --out %s", id, forms,
               have_gnuplot ? "" : " --no-plots", dir);
  CHECK(rc == 0, "sweep %s --forms %s: exit %d, expected 0:\n%s", id, forms, rc, out);
  snprintf(name, sizeof name, "\n%s,", id); /* a row starts with its problem id */
  CHECK(count_in(dir, "runs.csv", name) == nforms, "%s: %d rows in runs.csv, expected %d", id,
        count_in(dir, "runs.csv", name), nforms);
  snprintf(name, sizeof name, "ncurves = %d\n", nforms);
  CHECK(count_in(dir, "workprecision.gp", name) == 1, "%s: workprecision.gp lacks '%s'", id, name);
  for (char *f = strtok(forms, ","); f; f = strtok(NULL, ",")) {
    snprintf(name, sizeof name, "%s-%s-table.md", id, f);
    CHECK(count_in(dir, name, "|") > 0, "%s: no %s", id, name);
    snprintf(name, sizeof name, ">%s</text>", f);
    if (have_gnuplot) {
      char svg[128];
      snprintf(svg, sizeof svg, "%s-drift-nres.svg", id);
      CHECK(count_in(dir, svg, name) >= 1, "%s: no curve of form %s in %s", id, f, svg);
    }
  }
  rc = cli("sweep --report %s --no-plots", dir);
  CHECK(rc == 0, "sweep --report %s: exit %d:\n%s", dir, rc, out);
}

int main(void)
{
  if (!mkdtemp(tmpdir)) {
    perror("mkdtemp");
    return 1;
  }
  int have_gnuplot = system("gnuplot --version >/dev/null 2>&1") == 0;
  CHECK(run_cli("list", listing, sizeof listing) == 0, "mbdae list failed:\n%s", listing);
  for (int i = 0; i < mbdae_problem_count(); i++) {
    char forms[256];
    if (forms_of(mbdae_problem_id(i), forms, sizeof forms) > 0) {
      check_problem(mbdae_problem_id(i), have_gnuplot);
    }
  }
  CHECK(forms_of("chain", out, sizeof out) >= 2 && forms_of("crank", out, sizeof out) >= 2,
        "mbdae list names the forms of chain and crank");
  char cmd[512];
  snprintf(cmd, sizeof cmd, "rm -rf '%s'", tmpdir);
  if (system(cmd) != 0) {
    fprintf(stderr, "test_sweep_forms: cannot remove %s\n", tmpdir);
  }
  return check_summary("test_sweep_forms");
}
