/* mbdae refsol: recompute the references mbdae computes itself (refsol/<id>_ref.c) and print the
 * data file exactly as committed in refsol/; for a chain, the reference of any configuration.
 * And the reader of such a file for run/table --ref FILE.
 *
 * The file format (refsol/dpendulum.txt, refsol/chain_n3.txt): '#' comment lines, of which
 * "# spec: SPEC" names the configuration, then "[yref]" and one line "i  value" per component,
 * i = 1..neq in order. */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"
#include "refsol.h"

/* The progress line of refsol on a terminal (stderr), rewritten in place. */
static void show_progress(void *ctx, double share)
{
  (void)ctx;
  fprintf(stderr, "\rmbdae refsol: integrating, %3.0f%%", 100.0 * share);
  fflush(stderr);
}

/* The chain generator on the instance of spec: its canonical spec and component names.  On a
 * terminal (isatty(stderr)) a line shows how far it is; never in a pipe or a file. */
static int write_chain(FILE *out, const char *spec)
{
  mbdae_problem *p = open_problem(spec);
  if (!p) {
    return EXIT_USAGE;
  }
  int neq = mbdae_problem_neq(p);
  const char **names = malloc(sizeof(char *) * (size_t)neq);
  char msg[256] = "out of memory";
  int rc = names ? 0 : -1;
  for (int i = 0; names && i < neq; i++) {
    names[i] = mbdae_problem_component(p, i);
  }
  int tty = isatty(fileno(stderr));
  rc = rc == 0 ? refsol_chain_write_progress(out, mbdae_problem_spec(p), neq, names, msg,
                                             sizeof msg, tty ? show_progress : NULL, NULL)
               : rc;
  if (tty) {
    fputs("\r\033[K", stderr); /* the line cleared */
  }
  if (rc != 0) {
    fprintf(stderr, "mbdae: refsol %s: %s\n", mbdae_problem_spec(p), msg);
  }
  free(names);
  mbdae_problem_destroy(p);
  return rc == 0 ? EXIT_OK : (rc == -2 ? EXIT_USAGE : EXIT_FAILED_RUN);
}

static int write_reference(FILE *out, const char *spec)
{
  if (strcmp(spec, "pendulum") == 0) {
    return refsol_pendulum_write(out) == 0 ? EXIT_OK : EXIT_FAILED_RUN;
  }
  if (strcmp(spec, "dpendulum") == 0) {
    return refsol_dpendulum_write(out) == 0 ? EXIT_OK : EXIT_FAILED_RUN;
  }
  if (strcmp(spec, "chain") == 0 || strncmp(spec, "chain:", 6) == 0 ||
      strncmp(spec, "dpendulum:", 10) == 0) { /* dpendulum with keys: the chain of two links */
    return write_chain(out, spec);
  }
  return usage_error("no reference generator for '%s'; valid: pendulum, dpendulum[:keys], "
                     "chain[:keys] "
                     "(caraxis, andrews and crank references are published data, see refsol/)",
                     spec);
}

/* Write into out_path through a temporary file renamed at the end: no half-written file. */
static int write_to_file(const char *spec, const char *out_path)
{
  size_t len = strlen(out_path) + 8;
  char *tmp = malloc(len);
  FILE *out = NULL;
  if (tmp) {
    snprintf(tmp, len, "%s.tmp", out_path);
    out = fopen(tmp, "w");
  }
  if (!out) {
    usage_error("refsol: cannot write '%s': %s", out_path, tmp ? strerror(errno) : "no memory");
    free(tmp);
    return EXIT_USAGE;
  }
  int rc = write_reference(out, spec);
  if (fclose(out) != 0 && rc == EXIT_OK) {
    rc = usage_error("refsol: write error on '%s'", out_path);
  }
  if (rc == EXIT_OK && rename(tmp, out_path) != 0) {
    rc = usage_error("refsol: cannot write '%s': %s", out_path, strerror(errno));
  }
  if (rc != EXIT_OK) {
    remove(tmp);
  }
  free(tmp);
  return rc;
}

int cmd_refsol(int argc, char **argv)
{
  const char *spec = NULL, *out_path = NULL;
  for (int i = 1; i < argc; i++) {
    if (strcmp(argv[i], "--out") == 0) {
      if (!(out_path = option_value(argc, argv, &i))) {
        return EXIT_USAGE;
      }
    } else if (argv[i][0] == '-' && argv[i][1] != '\0') {
      return unknown_option("refsol", argv[i]);
    } else if (spec) {
      return usage_error("refsol takes one spec, got '%s' and '%s'", spec, argv[i]);
    } else {
      spec = argv[i];
    }
  }
  if (!spec) {
    return usage_error("refsol takes one of: pendulum, dpendulum, chain[:keys] [--out FILE]");
  }
  return out_path ? write_to_file(spec, out_path) : write_reference(stdout, spec);
}

/* ---- reading a reference file (--ref FILE) -------------------------------------------------- */

/* One line "i  value" of the [yref] block: 0, or -1 after a message. */
static int read_value(const char *path, int line_no, const char *line, int expect, double *value)
{
  char *end = NULL;
  errno = 0;
  long index = strtol(line, &end, 10);
  if (end == line || index != expect) {
    usage_error("%s:%d: expected component %d as \"%d  value\"", path, line_no, expect, expect);
    return -1;
  }
  const char *start = end;
  double v = strtod(start, &end);
  while (*end == ' ' || *end == '\t' || *end == '\r' || *end == '\n') {
    end++;
  }
  if (end == start || *end != '\0' || errno == ERANGE || !isfinite(v)) {
    usage_error("%s:%d: component %d is not a finite number", path, line_no, expect);
    return -1;
  }
  *value = v;
  return 0;
}

/* "# spec: S" must name p's configuration (its canonical spec). */
static int check_spec_line(const char *path, int line_no, const char *line, const mbdae_problem *p)
{
  const char *spec = line + strlen("# spec: ");
  size_t len = strcspn(spec, "\r\n");
  if (len != strlen(mbdae_problem_spec(p)) || strncmp(spec, mbdae_problem_spec(p), len) != 0) {
    usage_error("%s:%d: the reference is for %.*s, not for %s (make one with mbdae refsol %s "
                "--out FILE)",
                path, line_no, (int)len, spec, mbdae_problem_spec(p), mbdae_problem_spec(p));
    return -1;
  }
  return 0;
}

/* "[yref]" alone on its line. */
static int is_block_tag(const char *line)
{
  return strncmp(line, "[yref]", 6) == 0 && strspn(line + 6, "\r\n") == strlen(line + 6);
}

int read_reference_file(const char *path, const mbdae_problem *p, double *yref)
{
  FILE *in = fopen(path, "r");
  if (!in) {
    usage_error("--ref: cannot read '%s': %s", path, strerror(errno));
    return -1;
  }
  char *line = NULL;
  size_t cap = 0;
  int line_no = 0, neq = mbdae_problem_neq(p), count = 0, in_block = 0, rc = 0;
  while (rc == 0 && getline(&line, &cap, in) > 0) {
    line_no++;
    if (!in_block && strncmp(line, "# spec: ", 8) == 0) {
      rc = check_spec_line(path, line_no, line, p);
    } else if (!in_block && line[0] == '#') {
      continue;
    } else if (!in_block && is_block_tag(line)) {
      in_block = 1;
    } else if (!in_block) {
      usage_error("%s:%d: expected '#' comment lines, then [yref]", path, line_no);
      rc = -1;
    } else if (count == neq) {
      usage_error("%s:%d: more than the %d components of %s", path, line_no, neq,
                  mbdae_problem_spec(p));
      rc = -1;
    } else {
      rc = read_value(path, line_no, line, count + 1, &yref[count]);
      count++;
    }
  }
  free(line);
  fclose(in);
  if (rc == 0 && (!in_block || count != neq)) {
    usage_error("%s: %d reference values, but %s has %d components", path, count,
                mbdae_problem_spec(p), neq);
    rc = -1;
  }
  return rc;
}
