/* Every string mbdae writes into a gnuplot script is inert (the audit's injection through
 * `plot --out` and through a plug-in problem's title):
 *  - gnuplot_quote (src/cli/gnuplot.c, compiled in) makes one single-quoted token of hostile
 *    values (backquote, system(, newline, CR, quotes, $, \, @, ;), and gnuplot reads each back as
 *    the value itself, from a print, a title, an output name and a comment line, without running
 *    anything;
 *  - `mbdae plot --out` with hostile file names draws exactly that file and creates nothing else;
 *    a name with a control character is refused (exit 2) before anything is written;
 *  - a plug-in problem whose title attacks the script (tests/plugin/variants.c, PLUGIN_HOSTILE)
 *    through plot (titles, comment lines) and sweep (workprecision.gp: titles, names, legends,
 *    paths): exit 0, the pictures, no other file, and gnuplot.log without an error or warning.
 * An attack that got through would create a file PWNED... in the folder gnuplot runs in. */
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "check.h"
#include "support.h"

#include "gnuplot_support.h"

#include "gnuplot.c"

static char tmpdir[] = "/tmp/mbdae-test-gnuplot-XXXXXX";
static int have_gnuplot;

/* Hostile values: each would run `touch PWNED...` if gnuplot took it as text of the script.
 * The script that reads them defines m, so that an expanded @m runs a command too. */
static const char *const hostile[] = {
    "a`touch PWNED1`b",
    "system(\"touch PWNED2\")",
    "x\nsystem(\"touch PWNED3\")\nprint 1",
    "x\rsystem(\"touch PWNED4\")",
    "it's \"quoted\" '' ' \"",
    "$HOME ${HOME} $(touch PWNED5)",
    "@m",
    "a; system(\"touch PWNED6\"); b",
    "ends with a backslash \\",
    "\" . system(\"touch PWNED7\") . \"",
    "' . system(\"touch PWNED8\") . '",
    "'@m'`touch PWNED10`''@m",
    "tab\there, bell\a, del\x7f, utf-8 \xcf\x80",
    "",
};
enum { NHOSTILE = (int)(sizeof hostile / sizeof hostile[0]) };

/* What gnuplot should print for v: v with each control character as '?'. */
static void expected_text(const char *v, char *buf, size_t len)
{
  size_t n = 0;
  for (; *v && n + 1 < len; v++) {
    unsigned char c = (unsigned char)*v;
    buf[n++] = (c < 0x20 || c == 0x7f) ? '?' : *v;
  }
  buf[n] = '\0';
}

/* q is single-quoted text, a quote as '."\047".' between two pieces, whose text is
 * expected_text(v): outside the single quotes nothing but that double-quoted quote. */
static void check_token(const char *v, const char *q)
{
  static const char quote_piece[] = "'.\"\\047\".'";
  char want[256], got[256];
  size_t n = strlen(q), k = 0, i = 1;
  expected_text(v, want, sizeof want);
  CHECK(n >= 2 && q[0] == '\'' && q[n - 1] == '\'', "not single-quoted: [%s]", q);
  while (n >= 2 && i + 1 < n && k + 1 < sizeof got) {
    unsigned char c = (unsigned char)q[i];
    CHECK(c >= 0x20 && c != 0x7f, "control character 0x%02x in [%s]", c, q);
    if (c == '\'') {
      int piece = strncmp(q + i, quote_piece, strlen(quote_piece)) == 0;
      CHECK(piece && i + strlen(quote_piece) < n, "a quote that is not '.\"\\047\".' in [%s]", q);
      if (!piece) {
        break;
      }
      i += strlen(quote_piece) - 1;
    }
    got[k++] = (char)c;
    i++;
  }
  got[k] = '\0';
  CHECK(strcmp(got, want) == 0, "[%s] reads [%s], expected [%s]", q, got, want);
}

static void check_quote_function(void)
{
  char q[512];
  for (int i = 0; i < NHOSTILE; i++) {
    size_t n = gnuplot_quote(q, sizeof q, hostile[i]);
    CHECK(n == strlen(q), "value %d: length %zu, wrote %zu", i, n, strlen(q));
    check_token(hostile[i], q);
    char small[8];
    size_t need = gnuplot_quote(small, sizeof small, hostile[i]);
    CHECK(need == n && (need < sizeof small || small[0] == '\0'),
          "value %d cut to [%s] in 8 bytes (needs %zu)", i, small, need);
  }
}

/* gnuplot reads each token back: print, title, output name, a comment line, an array. */
static void check_gnuplot_reads_back(void)
{
  char dir[256], path[300], log[1 << 14], want[1 << 14], names[4096];
  snprintf(dir, sizeof dir, "%s/readback", tmpdir);
  mkdir(dir, 0777);
  snprintf(path, sizeof path, "%s/q.gp", dir);
  FILE *f = fopen(path, "w");
  if (!f) {
    CHECK(0, "cannot write %s", path);
    return;
  }
  fputs("m = \"system('touch PWNED_MACRO')\"\nset terminal svg\n", f);
  want[0] = '\0';
  for (int i = 0; i < NHOSTILE; i++) {
    char text[256];
    fputs("# a comment line with ", f);
    gnuplot_string(f, hostile[i]);
    fputs("\nprint ", f);
    gnuplot_string(f, hostile[i]);
    fputs("\nset title ", f);
    gnuplot_string(f, hostile[i]);
    fputs("\narray a[1] = [", f);
    gnuplot_string(f, hostile[i]);
    fputs("]\nprint a[1]\n", f);
    expected_text(hostile[i], text, sizeof text);
    snprintf(want + strlen(want), sizeof want - strlen(want), "%s\n%s\n", text, text);
  }
  fputs("set output ", f);
  gnuplot_string(f, "out`touch PWNED9`$x'@m\\;.svg");
  fputs("\nplot x\nunset output\n", f);
  fclose(f);
  if (!have_gnuplot) {
    return;
  }
  CHECK(gnuplot_run(dir, "q.gp", NULL, "q.log") == GNUPLOT_OK, "gnuplot failed on q.gp");
  snprintf(path, sizeof path, "%s/q.log", dir);
  slurp(path, log, sizeof log);
  CHECK(strcmp(log, want) == 0, "gnuplot printed:\n%s\nexpected:\n%s", log, want);
  int n = folder_names(dir, names, sizeof names);
  CHECK(n == 3 && strstr(names, "out`touch PWNED9`$x'@m\\;.svg/"),
        "the folder holds %d names, expected q.gp, q.log and the picture: %s", n, names);
}

/* plot --out NAME in a folder of its own: exactly NAME and its script, nothing run. */
static void check_plot_name(int k, const char *name)
{
  char dir[256], file[512], log[300], out[1 << 14], names[4096], script[512];
  snprintf(dir, sizeof dir, "%s/plot%d", tmpdir, k);
  snprintf(file, sizeof file, "%s/%s", dir, name);
  snprintf(log, sizeof log, "%s/plot%d.out", tmpdir, k);
  const char *argv[] = {"plot", "caraxis", "--points", "30", "--rtol", "1e-4", "--out", file, NULL};
  int rc = run_cli_argv(argv, log, out, sizeof out);
  int n = folder_names(dir, names, sizeof names);
  snprintf(script, sizeof script, "%.*s.gp/", (int)strlen(name) - 4, name);
  if (!have_gnuplot) {
    CHECK(rc == 1 && n == 1 && strstr(names, script),
          "plot --out [%s] without gnuplot: exit %d, %s", name, rc, names);
    return;
  }
  CHECK(rc == 0, "plot --out [%s]: exit %d:\n%s", name, rc, out);
  CHECK(n == 2 && strstr(names, script) && strstr(names, name),
        "plot --out [%s]: the folder holds %s, expected the picture and its script", name, names);
}

static void check_plot_names(void)
{
  static const char *const names[] = {
      "a`touch PWNED1`b.png", "s$(touch PWNED2)system(\"touch PWNED3\").svg", "q'\"'' \\ @m; x.png",
      "-x.png", "' . system(\"touch PWNED4\") . '.png"};
  for (int k = 0; k < (int)(sizeof names / sizeof names[0]); k++) {
    check_plot_name(k, names[k]);
  }
  static const char *const refused[] = {"a\nsystem(\"touch PWNED5\")\nb.png", "c\rd.png",
                                        "e\tf.svg"};
  for (int k = 0; k < (int)(sizeof refused / sizeof refused[0]); k++) {
    char dir[256], file[512], log[300], out[1 << 14], names[256];
    snprintf(dir, sizeof dir, "%s/refused%d", tmpdir, k);
    snprintf(file, sizeof file, "%s/%s", dir, refused[k]);
    snprintf(log, sizeof log, "%s/refused%d.out", tmpdir, k);
    const char *argv[] = {"plot", "caraxis", "--out", file, NULL};
    int rc = run_cli_argv(argv, log, out, sizeof out);
    CHECK(rc == 2 && strstr(out, "control character"), "plot --out [%s]: exit %d:\n%s", file, rc,
          out);
    CHECK(folder_names(dir, names, sizeof names) < 0, "refused, yet %s was made: %s", dir, names);
  }
}

/* The hostile plug-in problem through plot and sweep. */
static void check_hostile_plugin(void)
{
  char dir[256], file[512], log[300], out[1 << 15], names[4096], path[600], text[1 << 16];
  snprintf(dir, sizeof dir, "%s/plugin-plot", tmpdir);
  snprintf(file, sizeof file, "%s/decay.svg", dir);
  snprintf(log, sizeof log, "%s/plugin-plot.out", tmpdir);
  const char *plot[] = {"plot",  "decay", "--plugin", PLUGIN_FILE_HOSTILE, "--points", "20",
                        "--out", file,    NULL};
  int rc = run_cli_argv(plot, log, out, sizeof out);
  int n = folder_names(dir, names, sizeof names);
  CHECK(rc == (have_gnuplot ? 0 : 1), "plot of the hostile problem: exit %d:\n%s", rc, out);
  CHECK(n == (have_gnuplot ? 2 : 1) && !strstr(names, "PWNED"),
        "plot of the hostile problem: the folder holds %s", names);
  snprintf(path, sizeof path, "%s/decay.gp", dir);
  slurp(path, text, sizeof text);
  static const char quoted_title[] =
      "'decay `touch PWNED1` \"q\" '.\"\\047\".'q'.\"\\047\".' system(\"touch PWNED2\")?sys";
  CHECK(strstr(text, quoted_title) != NULL, "decay.gp: the title is not quoted:\n%.600s", text);
  if (have_gnuplot) {
    slurp(file, text, sizeof text);
    CHECK(strstr(text, "touch PWNED1") != NULL, "decay.svg: the title is not drawn as text");
  }
  snprintf(dir, sizeof dir, "%s/plugin-sweep", tmpdir);
  snprintf(log, sizeof log, "%s/plugin-sweep.out", tmpdir);
  const char *sweep[] = {"sweep",     "decay",  "--plugin", PLUGIN_FILE_HOSTILE,
                         "--solvers", "radau5", "--rtol",   "1e-3,1e-5",
                         "--out",     dir,      NULL};
  rc = run_cli_argv(sweep, log, out, sizeof out);
  CHECK(rc == 0, "sweep of the hostile problem: exit %d:\n%s", rc, out);
  folder_names(dir, names, sizeof names);
  CHECK(!strstr(names, "PWNED"), "sweep of the hostile problem: %s", names);
  snprintf(path, sizeof path, "%s/gnuplot.log", dir);
  slurp(path, text, sizeof text);
  CHECK(!have_gnuplot || text[0] == '\0', "gnuplot.log of the hostile sweep:\n%s", text);
  if (have_gnuplot) {
    snprintf(path, sizeof path, "%s/decay-scd.svg", dir);
    slurp(path, text, sizeof text);
    CHECK(strstr(text, "touch PWNED1") && strstr(text, ">radau5<"),
          "decay-scd.svg: no hostile title drawn as text, or no legend entry");
  }
}

int main(void)
{
  if (!mkdtemp(tmpdir)) {
    perror("mkdtemp");
    return 1;
  }
  have_gnuplot = system("gnuplot --version >/dev/null 2>&1") == 0;
  if (!have_gnuplot) {
    printf("test_gnuplot_strings: gnuplot not found, what gnuplot reads back is not checked\n");
  }
  check_quote_function();
  check_gnuplot_reads_back();
  check_plot_names();
  check_hostile_plugin();
  char names[1 << 14];
  CHECK(folder_names(".", names, sizeof names) >= 0 && !strstr(names, "PWNED"),
        "a PWNED file in the working folder: %s", names);
  char cmd[300];
  snprintf(cmd, sizeof cmd, "rm -rf '%s'", tmpdir);
  if (check_failed == 0 && system(cmd) != 0) {
    fprintf(stderr, "cannot remove %s\n", tmpdir);
  }
  return check_summary("test_gnuplot_strings");
}
