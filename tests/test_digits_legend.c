/* scd and mescd explained where people look: `mbdae --help`, the help of every command whose
 * output has them (run, table, sweep, bench, regularise; not list, check, plot), two lines right
 * under every table run, table and bench print, under regularise's table, and under the
 * Markdown run-characteristics table of the library (mbdae_record_write_table: a sweep's
 * <problem>-table.md, Python's mbdae.table).  The definitions are those of the Test Set for IVP
 * Solvers, release 2.4, part I (src/harness/metrics.c). */
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "support.h"

static const char SCD_LINE[] = "scd: correct significant digits at tend, -log10 max_i |y_i - "
                               "yref_i| / |yref_i| (scd components);\n";
static const char MESCD_LINE[] = "mescd: mixed absolute-relative, -log10 max_i |y_i - yref_i| / "
                                 "(atol/rtol + |yref_i|); see README.md\n";

static int occurrences(const char *text, const char *needle)
{
  int n = 0;
  for (const char *at = strstr(text, needle); at; at = strstr(at + 1, needle)) {
    n++;
  }
  return n;
}

/* Every legend in out is the two lines, the scd line directly under a table row of solver (a
 * line starting with "solver "); returns how many there are, -1 if one is not. */
static int legends_under_rows(const char *out, const char *solver)
{
  int n = 0;
  for (const char *at = strstr(out, SCD_LINE); at; at = strstr(at + 1, SCD_LINE), n++) {
    const char *line = at - 1; /* the previous line's newline */
    while (line > out && line[-1] != '\n') {
      line--;
    }
    size_t len = strlen(solver);
    if (at == out || strncmp(line, solver, len) != 0 || line[len] != ' ' ||
        strncmp(at + strlen(SCD_LINE), MESCD_LINE, strlen(MESCD_LINE)) != 0) {
      return -1;
    }
  }
  return n;
}

static void test_help(void)
{
  static char out[1 << 16];
  int rc = run_cli("--help", out, sizeof out);
  CHECK(rc == 0 && strstr(out, SCD_LINE) && strstr(out, MESCD_LINE),
        "mbdae --help defines scd and mescd (exit %d):\n%s", rc, out);
  static const char *const with[] = {"run", "table", "sweep", "bench", "regularise"};
  for (size_t k = 0; k < sizeof with / sizeof with[0]; k++) {
    rc = run_clif(out, sizeof out, "help %s", with[k]);
    CHECK(rc == 0 && occurrences(out, SCD_LINE) == 1 && occurrences(out, MESCD_LINE) == 1,
          "mbdae help %s defines scd and mescd once (exit %d):\n%s", with[k], rc, out);
  }
  static const char *const without[] = {"list", "check", "plot"};
  for (size_t k = 0; k < sizeof without / sizeof without[0]; k++) {
    rc = run_clif(out, sizeof out, "help %s", without[k]);
    CHECK(rc == 0 && !strstr(out, SCD_LINE), "mbdae help %s prints no scd (exit %d):\n%s",
          without[k], rc, out);
  }
}

static void test_tables(void)
{
  static char out[1 << 17];
  int rc = run_cli("run caraxis --rtol 1e-3", out, sizeof out);
  CHECK(rc == 0 && legends_under_rows(out, "ida") == 1, "run: the legend under its row:\n%s", out);
  rc = run_cli("run caraxis --rtol 1e-3 --json", out, sizeof out);
  CHECK(rc == 0 && !strstr(out, SCD_LINE), "run --json: one JSON object, no legend:\n%s", out);
  rc = run_cli("table pendulum --solver radau5", out, sizeof out);
  CHECK(rc == 0 && legends_under_rows(out, "radau5") == 1, "table: the legend under it:\n%s", out);
  rc = run_cli("table all --solver radau5 --rtol 1e-3", out, sizeof out);
  int tables = occurrences(out, "\nsolver   rtol");
  CHECK(rc == 0 && tables == mbdae_problem_count() && legends_under_rows(out, "radau5") == tables,
        "table all: a legend under each of its %d tables (exit %d):\n%s", tables, rc, out);
  rc = run_cli("bench caraxis --solvers radau5 --repeat 1", out, sizeof out);
  CHECK(rc == 0 && legends_under_rows(out, "radau5") == 1, "bench: the legend under it:\n%s", out);
  rc = run_cli("regularise pendulum", out, sizeof out);
  CHECK(rc == 0 && occurrences(out, SCD_LINE) == 1 && occurrences(out, MESCD_LINE) == 1,
        "regularise: the legend under its table (exit %d):\n%s", rc, out);
}

/* The Markdown table: the definitions in a paragraph of their own under the rows. */
static void test_markdown(void)
{
  mbdae_problem *p = create_problem("caraxis");
  mbdae_options opt;
  mbdae_record rec = MBDAE_RECORD_INIT;
  test_options(p, 1e-4, &opt);
  CHECK(mbdae_record_run(&rec, p, mbdae_solver_find("radau5"), &opt, 1) == 0, "radau5 at 1e-4");
  char *text = NULL;
  size_t len = 0;
  FILE *f = open_memstream(&text, &len);
  CHECK(f && mbdae_record_write_table(f, p, &rec, 1) == 0, "the Markdown table");
  fclose(f);
  const char *legend = strstr(text, "|\n\nscd: correct significant digits at t_end, `-log10 max_i "
                                    "|y_i - yref_i| / |yref_i|` over the problem's scd components; "
                                    "mescd: the mixed absolute-relative version, `-log10 max_i "
                                    "|y_i - yref_i| / (atol/rtol + |yref_i|)` over all components");
  const char *row = strstr(text, "| radau5 | 1e-4 |");
  CHECK(row && legend && legend > row && occurrences(text, "scd: correct") == 1,
        "the Markdown table: the legend under its rows, once:\n%s", text);
  free(text);
  mbdae_record_free(&rec);
  mbdae_problem_destroy(p);
}

int main(void)
{
  test_help();
  test_tables();
  test_markdown();
  return check_summary("test_digits_legend");
}
