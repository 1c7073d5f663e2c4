/* Starting gnuplot for mbdae sweep and mbdae plot: `gnuplot SCRIPT` inside the folder that holds
 * the script, its data and its pictures, so that the user can rerun the same command there.
 *
 * Whether gnuplot is installed is learnt from exec itself: the child reports a failed exec through
 * a close-on-exec pipe (which an exec that succeeds closes unread), so a missing program is told
 * apart from a script that fails.
 *
 * gnuplot exits 0 when it cannot write a picture (a full disk), so the pictures are checked after
 * it: not empty, a PNG ending with its IEND chunk (PNG specification, section 5.6), an SVG ending
 * with </svg>. */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

#include "sweep.h"

void gnuplot_string(FILE *out, const char *s)
{
  fputc('"', out);
  for (; *s; s++) {
    if (*s == '"' || *s == '\\') {
      fputc('\\', out);
    }
    fputc(*s, out);
  }
  fputc('"', out);
}

int gnuplot_run(const char *dir, const char *script, const char *log)
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
  pid_t pid = fork();
  if (pid < 0) {
    close(report[0]);
    close(report[1]);
    return GNUPLOT_FAILED;
  }
  if (pid == 0) {
    close(report[0]);
    int err = 0;
    if (chdir(dir) != 0) {
      err = -errno; /* negative: not a missing program */
    } else {
      int fd = open(log, O_WRONLY | O_CREAT | O_TRUNC, 0644);
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
      execlp(exe, exe, script, (char *)NULL);
      err = errno;
    }
    ssize_t ignored = write(report[1], &err, sizeof err);
    (void)ignored;
    _exit(127);
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

int gnuplot_picture_ok(const char *path, char *why, size_t len)
{
  static const unsigned char iend[12] = {0, 0, 0, 0, 'I', 'E', 'N', 'D', 0xae, 0x42, 0x60, 0x82};
  unsigned char tail[64];
  size_t n = strlen(path), got = 0;
  int png = n > 4 && strcmp(path + n - 4, ".png") == 0;
  FILE *f = fopen(path, "rb");
  if (!f) {
    snprintf(why, len, "%s was not written", path);
    return 0;
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
  if (!ok) {
    snprintf(why, len, "%s is %s (a full disk?)", path, got ? "incomplete" : "empty");
  }
  return ok;
}
