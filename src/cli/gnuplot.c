/* gnuplot for mbdae sweep and mbdae plot: the one quoting of the strings written into a script,
 * and starting `gnuplot SCRIPT` inside the folder that holds the script, its data and its
 * pictures, so that the user can rerun the same command there.
 *
 * Quoting: every string the command writes into a gnuplot script (titles, labels, legends, file
 * names, the values on comment lines) is written as single-quoted gnuplot strings, every control
 * character (bytes 0x00-0x1f and 0x7f: newline, CR, tab, ...) replaced by '?', and a quote ' as
 * the string expression '."\047".' (close, concatenate a double-quoted quote in octal, reopen):
 * it's -> 'it'."\047".'s'.  gnuplot expands backquotes (`cmd`) and backslash escapes inside
 * double-quoted strings, but nothing inside single-quoted ones: no backquote, no @macro, no
 * backslash (gnuplot 5.4 manual, "Quote marks" and "Substitution"); the double-quoted piece holds
 * a backslash escape only.  Neither '' (the documented quote inside single quotes: gnuplot 5.4's
 * parser misreads two of them in a row) nor "'" (the scan for @macros and backquotes, which runs
 * over the raw line, takes that quote for the start of a single-quoted string and then expands
 * what follows the next one) would do.  The script's lines are its commands, so a newline is the
 * one other way out, and it never gets in.  A file name with a control character is refused
 * rather than changed (gnuplot_name_invalid).
 *
 * Whether gnuplot is installed is learnt from exec itself: the child reports a failed exec through
 * a close-on-exec pipe (which an exec that succeeds closes unread), so a missing program is told
 * apart from a script that fails.  gnuplot appends to its log (the caller removes an old one), ends
 * with the command (Linux: PR_SET_PDEATHSIG), and gets a value for the script as ARG1 of
 * `gnuplot -c SCRIPT VALUE`, which gnuplot never parses as commands.
 *
 * gnuplot exits 0 when it cannot write a picture (a full disk), so the pictures are checked after
 * it: not empty, a PNG ending with its IEND chunk (PNG specification, section 5.6), an SVG ending
 * with </svg>.
 *
 * gnuplot opens its pictures and its log itself, following whatever link is planted at their
 * names: the command runs it in a scratch folder made for the purpose (mkdtemp, inside the
 * destination's folder), where every name is new, and renames each complete picture into place
 * (the rule of new_file.h). */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>
#ifdef __linux__
#include <sys/prctl.h>
#endif
#include <sys/wait.h>
#include <unistd.h>

#include "sweep.h"

/* A quote inside a value: the single-quoted string ends, a double-quoted quote written in octal
 * follows (concatenated with '.'), and a single-quoted string starts again. */
#define QUOTE_PIECE "'.\"\\047\".'"

static int is_control(unsigned char c) { return c < 0x20 || c == 0x7f; }

static void put(char *buf, size_t len, size_t *n, char c)
{
  if (*n + 1 < len) {
    buf[*n] = c;
  }
  (*n)++;
}

size_t gnuplot_quote(char *buf, size_t len, const char *s)
{
  size_t n = 0;
  put(buf, len, &n, '\'');
  for (; *s; s++) {
    unsigned char c = (unsigned char)*s;
    if (c == '\'') {
      for (const char *piece = QUOTE_PIECE; *piece; piece++) {
        put(buf, len, &n, *piece);
      }
    } else {
      put(buf, len, &n, is_control(c) ? '?' : *s);
    }
  }
  put(buf, len, &n, '\'');
  if (len > 0) {
    buf[n < len ? n : 0] = '\0'; /* cut short: an empty buffer, never half a token */
  }
  return n;
}

void gnuplot_string(FILE *out, const char *s)
{
  size_t n = gnuplot_quote(NULL, 0, s);
  char small[256], *buf = n < sizeof small ? small : malloc(n + 1);
  if (!buf) {
    fputs("''", out); /* out of memory: an empty string, still one token */
    return;
  }
  gnuplot_quote(buf, n + 1, s);
  fputs(buf, out);
  if (buf != small) {
    free(buf);
  }
}

int gnuplot_name_invalid(const char *s)
{
  for (; *s; s++) {
    if (is_control((unsigned char)*s)) {
      return 1;
    }
  }
  return 0;
}

/* The child: into dir, messages appended to log, no input, then exec gnuplot; on failure the
 * reason goes to the parent through report (a negative errno: not a missing program). */
static void exec_gnuplot(const char *exe, const char *dir, const char *script, const char *arg,
                         const char *log, pid_t parent, int report)
{
  int err = 0;
#ifdef __linux__
  /* gnuplot ends with the command, however the command ends (SIGTERM to a sweep) */
  if (prctl(PR_SET_PDEATHSIG, SIGTERM) != 0 || getppid() != parent) {
    _exit(127);
  }
#else
  (void)parent;
#endif
  char path[1100]; /* "./script": a script named -x.gp is not an option */
  if (snprintf(path, sizeof path, "./%s", script) >= (int)sizeof path) {
    err = -ENAMETOOLONG;
  } else if (chdir(dir) != 0) {
    err = -errno;
  } else {
    int fd = open(log, O_WRONLY | O_CREAT | O_APPEND | O_NOFOLLOW, 0644); /* in a scratch folder */
    int in = open("/dev/null", O_RDONLY);
    if (fd >= 0) {
      dup2(fd, STDOUT_FILENO);
      dup2(fd, STDERR_FILENO);
      close(fd);
    }
    if (in >= 0) {
      dup2(in, STDIN_FILENO);
      close(in);
    }
    if (arg) { /* ARG1 inside the script: a value, never parsed as gnuplot */
      execlp(exe, exe, "-c", path, arg, (char *)NULL);
    } else {
      execlp(exe, exe, path, (char *)NULL);
    }
    err = errno;
  }
  ssize_t ignored = write(report, &err, sizeof err);
  (void)ignored;
  _exit(127);
}

int gnuplot_run(const char *dir, const char *script, const char *arg, const char *log)
{
  const char *exe = getenv("MBDAE_GNUPLOT");
  if (!exe || !exe[0]) {
    exe = "gnuplot";
  }
  int report[2];
  if (pipe(report) != 0) {
    return GNUPLOT_FAILED;
  }
  if (fcntl(report[1], F_SETFD, FD_CLOEXEC) != 0) {
    close(report[0]);
    close(report[1]);
    return GNUPLOT_FAILED;
  }
  fflush(NULL);
  pid_t parent = getpid(), pid = fork();
  if (pid < 0) {
    close(report[0]);
    close(report[1]);
    return GNUPLOT_FAILED;
  }
  if (pid == 0) {
    close(report[0]);
    exec_gnuplot(exe, dir, script, arg, log, parent, report[1]);
  }
  close(report[1]);
  int err = 0;
  ssize_t got;
  do {
    got = read(report[0], &err, sizeof err);
  } while (got < 0 && errno == EINTR);
  close(report[0]);
  int status = 0;
  while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {
  }
  if (got == (ssize_t)sizeof err) {
    return (err == ENOENT || err == EACCES) ? GNUPLOT_MISSING : GNUPLOT_FAILED;
  }
  return (WIFEXITED(status) && WEXITSTATUS(status) == 0) ? GNUPLOT_OK : GNUPLOT_FAILED;
}

/* NULL when the picture at path (.png or .svg) is complete, else what is wrong with it. */
static const char *picture_fault(const char *path)
{
  static const unsigned char iend[12] = {0, 0, 0, 0, 'I', 'E', 'N', 'D', 0xae, 0x42, 0x60, 0x82};
  unsigned char tail[64];
  size_t n = strlen(path), got = 0;
  int png = n > 4 && strcmp(path + n - 4, ".png") == 0;
  int fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
  FILE *f = fd >= 0 ? fdopen(fd, "rb") : NULL;
  if (!f) {
    if (fd >= 0) {
      close(fd);
    }
    return "was not written";
  }
  if (fseek(f, 0, SEEK_END) == 0) {
    long size = ftell(f);
    long from = size > (long)sizeof tail ? size - (long)sizeof tail : 0;
    if (size > 0 && fseek(f, from, SEEK_SET) == 0) {
      got = fread(tail, 1, sizeof tail, f);
    }
  }
  fclose(f);
  while (!png && got > 0 && strchr(" \t\r\n", tail[got - 1])) {
    got--;
  }
  int ok = png ? got >= sizeof iend && memcmp(tail + got - sizeof iend, iend, sizeof iend) == 0
               : got >= 6 && memcmp(tail + got - 6, "</svg>", 6) == 0;
  return ok ? NULL : got ? "is incomplete (a full disk?)" : "is empty (a full disk?)";
}

int gnuplot_picture_ok(const char *path, char *why, size_t len)
{
  const char *fault = picture_fault(path);
  if (fault) {
    snprintf(why, len, "%s %s", path, fault);
  }
  return fault == NULL;
}

int gnuplot_scratch_make(const char *dir, int link_csv, char *scratch, size_t len)
{
  if (snprintf(scratch, len, "%s/.gnuplot-XXXXXX", dir) >= (int)len) {
    errno = ENAMETOOLONG;
    return -1;
  }
  if (!mkdtemp(scratch)) {
    return -1;
  }
  char csv[4200];
  snprintf(csv, sizeof csv, "%s/runs.csv", scratch);
  if (link_csv && symlink("../runs.csv", csv) != 0) {
    int err = errno;
    rmdir(scratch);
    errno = err;
    return -1;
  }
  return 0;
}

int gnuplot_scratch_keep(const char *scratch, const char *dir, const char *name, char *why,
                         size_t len)
{
  char from[4400], to[4400];
  snprintf(from, sizeof from, "%s/%s", scratch, name);
  snprintf(to, sizeof to, "%s/%s", dir, name);
  const char *fault = picture_fault(from);
  if (!fault && rename(from, to) == 0) {
    return 1;
  }
  snprintf(why, len, "%s %s", to, fault ? fault : strerror(errno));
  unlink(from);
  unlink(to); /* no stale picture passes for a new one */
  return 0;
}

void gnuplot_scratch_done(const char *scratch, const char *dir, const char *log, int keep_log)
{
  char from[4400], to[4400];
  snprintf(from, sizeof from, "%s/%s", scratch, log);
  snprintf(to, sizeof to, "%s/%s", dir, log);
  if (!keep_log || rename(from, to) != 0) {
    unlink(from);
    unlink(to); /* not the log of an earlier run */
  }
  snprintf(from, sizeof from, "%s/runs.csv", scratch);
  unlink(from);
  DIR *d = opendir(scratch); /* what gnuplot wrote besides the pictures taken */
  for (struct dirent *e; d && (e = readdir(d));) {
    if (strcmp(e->d_name, ".") != 0 && strcmp(e->d_name, "..") != 0) {
      snprintf(from, sizeof from, "%s/%s", scratch, e->d_name);
      unlink(from);
    }
  }
  if (d) {
    closedir(d);
  }
  rmdir(scratch);
}
