/* Starting gnuplot for mbdae sweep and mbdae plot: `gnuplot SCRIPT` inside the folder that holds
 * the script, its data and its pictures, so that the user can rerun the same command there.
 *
 * Whether gnuplot is installed is learnt from exec itself: the child reports a failed exec through
 * a close-on-exec pipe (which an exec that succeeds closes unread), so a missing program is told
 * apart from a script that fails. */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

#include "sweep.h"

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
