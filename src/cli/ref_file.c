/* The reader of reference files for run, table and sweep --ref FILE (read_reference_file).
 *
 * The format (refsol/dpendulum.txt, refsol/chain_n3.txt, what `mbdae refsol SPEC --out FILE`
 * writes): '#' comment lines, of which "# spec: SPEC" names the configuration the values belong
 * to, then "[yref]" (a remark may follow it after a blank) and one line "i  value" per component,
 * i = 1..neq in order.  Other "[section]" blocks before [yref] are skipped (refsol/crank.txt holds
 * initial values too).  The spec line is required and must be the run's canonical spec: a file
 * without it would be taken for any configuration of the same size (a tend=1 reference for a
 * tend=2 run gave scd -0.91 with exit 0).
 *
 * The file must be a regular file (not /dev/zero, whose one endless line ate memory, nor a FIFO,
 * where the read waited forever) of at most REF_FILE_MAX_BYTES plus REF_LINE_BYTES per component;
 * it is opened without blocking, so that a FIFO is refused rather than waited on. */
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "bounded_read.h"
#include "cli.h"

enum {
  REF_FILE_MAX_BYTES = 1 << 20, /* the comments: 1 MiB (the committed files have 2 to 5 KiB) */
  REF_LINE_BYTES = 128,         /* per component: "i  value" with 22 digits is 35 bytes */
};

/* One line "i  value" of the [yref] block: 0, or -1 after a message. */
static int read_value(const char *name, int line_no, const char *line, int expect, double *value)
{
  char *end = NULL;
  errno = 0;
  long index = strtol(line, &end, 10);
  if (end == line || index != expect) {
    usage_error("%s:%d: expected component %d as \"%d  value\"", name, line_no, expect, expect);
    return -1;
  }
  const char *start = end;
  double v = strtod(start, &end);
  while (*end == ' ' || *end == '\t' || *end == '\r' || *end == '\n') {
    end++;
  }
  if (end == start || *end != '\0' || errno == ERANGE || !isfinite(v)) {
    usage_error("%s:%d: component %d is not a finite number", name, line_no, expect);
    return -1;
  }
  *value = v;
  return 0;
}

/* "# spec: S" must name p's configuration (its canonical spec). */
static int check_spec_line(const char *name, int line_no, const char *line, const mbdae_problem *p)
{
  const char *spec = line + strlen("# spec: ");
  size_t len = strcspn(spec, "\r\n");
  if (len != strlen(mbdae_problem_spec(p)) || strncmp(spec, mbdae_problem_spec(p), len) != 0) {
    usage_error("%s:%d: the reference is for %.*s, not for %s (make one with mbdae refsol %s "
                "--out FILE)",
                name, line_no, (int)(len > 300 ? 300 : len), spec, mbdae_problem_spec(p),
                mbdae_problem_spec(p));
    return -1;
  }
  return 0;
}

/* "[yref]" alone on its line, or followed by a blank and a remark. */
static int is_yref_tag(const char *line)
{
  return strncmp(line, "[yref]", 6) == 0 && strchr(" \t\r\n", line[6]) != NULL; /* NUL too */
}

/* What the line before [yref] is: a comment or a skipped section's line (0), the spec line
 * (checked), [yref] (1, *in_block set), or anything else (-1 after a message). */
static int header_line(const char *name, int line_no, const char *line, const mbdae_problem *p,
                       int *in_section, int *in_block, int *has_spec)
{
  if (strncmp(line, "# spec: ", 8) == 0) {
    *has_spec = 1;
    return check_spec_line(name, line_no, line, p);
  }
  if (is_yref_tag(line)) {
    *in_block = 1;
    return 0;
  }
  if (line[0] == '[') {
    *in_section = 1; /* another section (crank.txt's initial values): skipped */
    return 0;
  }
  if (line[0] == '#' || *in_section) {
    return 0;
  }
  usage_error("%s:%d: expected '#' comment lines, then [yref]", name, line_no);
  return -1;
}

/* The lines of in after the header: the values of [yref]; 0, or -1 after a message. */
static int read_lines(FILE *in, const char *name, const mbdae_problem *p, size_t max_bytes,
                      double *yref)
{
  char *line = NULL;
  size_t cap = 0, bytes = 0;
  int line_no = 0, neq = mbdae_problem_neq(p), count = 0, rc = 0;
  int in_section = 0, in_block = 0, has_spec = 0;
  for (ssize_t got; rc == 0 && (got = getline(&line, &cap, in)) > 0 && !ferror(in);) {
    line_no++;
    bytes += (size_t)got;
    if (bytes > max_bytes) {
      usage_error("%s: more than %zu bytes: not a reference file of %s", name, max_bytes,
                  mbdae_problem_spec(p));
      rc = -1;
    } else if (!in_block) {
      rc = header_line(name, line_no, line, p, &in_section, &in_block, &has_spec);
      if (rc == 0 && in_block && !has_spec) {
        usage_error("%s:%d: no '# spec: SPEC' line before [yref]: the file must name the "
                    "configuration of its values (%s here; mbdae refsol %s --out FILE writes it)",
                    name, line_no, mbdae_problem_spec(p), mbdae_problem_spec(p));
        rc = -1;
      }
    } else if (count == neq) {
      usage_error("%s:%d: more than the %d components of %s", name, line_no, neq,
                  mbdae_problem_spec(p));
      rc = -1;
    } else {
      rc = read_value(name, line_no, line, count + 1, &yref[count]);
      count++;
    }
  }
  free(line);
  if (rc == 0 && ferror(in)) { /* a bounded stream (bounded_read.h) stops at its budget */
    usage_error("%s: %s", name,
                errno == EFBIG ? "more bytes than a reference file has (a file in /proc?)"
                               : strerror(errno));
    rc = -1;
  }
  if (rc == 0 && (!in_block || count != neq)) {
    usage_error("%s: %d reference values, but %s has %d components", name, count,
                mbdae_problem_spec(p), neq);
    rc = -1;
  }
  return rc;
}

size_t reference_file_max_bytes(const mbdae_problem *p)
{
  return (size_t)REF_FILE_MAX_BYTES + (size_t)REF_LINE_BYTES * (size_t)mbdae_problem_neq(p);
}

int read_reference_stream(FILE *in, const char *name, const mbdae_problem *p, double *yref)
{
  return read_lines(in, name, p, reference_file_max_bytes(p), yref);
}

/* path opened for reading if it is a regular file of at most max_bytes; NULL after a message. */
static FILE *open_regular(const char *path, size_t max_bytes)
{
  int fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC); /* a FIFO: no wait for a writer */
  struct stat st;
  if (fd < 0 || fstat(fd, &st) != 0) {
    usage_error("--ref: cannot read '%s': %s", path, strerror(errno));
  } else if (!S_ISREG(st.st_mode)) {
    usage_error("--ref: '%s' is not a regular file (a device, FIFO or directory is refused)", path);
  } else if ((unsigned long long)st.st_size > max_bytes) {
    usage_error("--ref: '%s' has %lld bytes, more than a reference file's %zu", path,
                (long long)st.st_size, max_bytes);
  } else { /* bounded while read: a file in /proc says its size is 0 */
    FILE *in = bounded_fdopen(fd, max_bytes);
    if (in) {
      return in;
    }
    usage_error("--ref: cannot read '%s': %s", path, strerror(errno));
    return NULL;
  }
  if (fd >= 0) {
    close(fd);
  }
  return NULL;
}

int read_reference_file(const char *path, const mbdae_problem *p, double *yref)
{
  size_t max_bytes = reference_file_max_bytes(p);
  FILE *in = open_regular(path, max_bytes);
  if (!in) {
    return -1;
  }
  int rc = read_lines(in, path, p, max_bytes, yref);
  fclose(in);
  return rc;
}
