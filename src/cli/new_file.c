/* Writing a file as a new file renamed into place (new_file.h): the rule "never open an existing
 * path for writing" in one place.  The name of the new file is the destination's with a suffix
 * made of the process id, a counter and the clock's nanoseconds; O_EXCL makes the creation fail
 * on any entry of that name (a file, a dangling or live symbolic link), and the next name is
 * tried.  rename(2) within one folder is atomic (POSIX): a reader sees the old file or the new
 * one, and a symbolic link at the destination is itself replaced. */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "new_file.h"

enum { TRIES = 64 };

int new_file_fd(const char *path, char *tmp, size_t len)
{
  static unsigned counter; /* the command's own state: a new name per call */
  for (int i = 0; i < TRIES; i++) {
    struct timespec ts;
    clock_gettime(CLOCK_REALTIME, &ts);
    unsigned long tag = (unsigned long)ts.tv_nsec ^ ((unsigned long)++counter << 20);
    if (snprintf(tmp, len, "%s.%ld-%lx.tmp", path, (long)getpid(), tag) >= (int)len) {
      errno = ENAMETOOLONG;
      return -1;
    }
    int fd = open(tmp, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0666);
    if (fd >= 0 || errno != EEXIST) {
      return fd;
    }
  }
  errno = EEXIST;
  return -1;
}

FILE *new_file_open(new_file *nf, const char *path)
{
  nf->f = NULL;
  if (snprintf(nf->path, sizeof nf->path, "%s", path) >= (int)sizeof nf->path) {
    errno = ENAMETOOLONG;
    return NULL;
  }
  int fd = new_file_fd(path, nf->tmp, sizeof nf->tmp);
  if (fd < 0) {
    return NULL;
  }
  if (!(nf->f = fdopen(fd, "w"))) {
    int err = errno;
    close(fd);
    unlink(nf->tmp);
    errno = err;
  }
  return nf->f;
}

int new_file_commit(new_file *nf)
{
  errno = 0;
  int err = (fflush(nf->f) != 0 || ferror(nf->f)) ? (errno ? errno : EIO) : 0;
  if (fclose(nf->f) != 0 && !err) {
    err = errno ? errno : EIO;
  }
  nf->f = NULL;
  if (!err && rename(nf->tmp, nf->path) != 0) {
    err = errno;
  }
  if (err) {
    unlink(nf->tmp);
    errno = err;
    return -1;
  }
  return 0;
}

void new_file_discard(new_file *nf)
{
  int err = errno;
  if (nf->f) {
    fclose(nf->f);
    nf->f = NULL;
  }
  unlink(nf->tmp);
  errno = err;
}

/* Copy path's contents (a regular file, at most its size and slack bytes: bounded while it is
 * read, since a file in /proc says its size is 0) to fd, up to its last line break when
 * whole_lines; 0, or -1 with errno set.  An absent path copies nothing. */
static int copy_old(const char *path, int fd, size_t slack, int whole_lines)
{
  int in = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
  struct stat st;
  if (in < 0) {
    return errno == ENOENT ? 0 : -1;
  }
  int rc = fstat(in, &st) == 0 ? 0 : -1;
  if (rc == 0 && !S_ISREG(st.st_mode)) {
    errno = EINVAL;
    rc = -1;
  }
  char buf[8192];
  size_t total = 0, max = rc == 0 ? (size_t)st.st_size + slack : 0;
  off_t keep = 0;
  for (ssize_t got; rc == 0 && (got = read(in, buf, sizeof buf)) != 0;) {
    if (got < 0) {
      rc = errno == EINTR ? 0 : -1;
    } else if ((total += (size_t)got) > max) {
      errno = EOVERFLOW; /* more than the file's size said (EFBIG is a failed write) */
      rc = -1;
    } else {
      rc = new_file_write_whole(fd, buf, (size_t)got);
      for (ssize_t i = 0; i < got; i++) {
        keep = buf[i] == '\n' ? (off_t)(total - (size_t)got + (size_t)i + 1) : keep;
      }
    }
  }
  if (rc == 0 && whole_lines && ftruncate(fd, keep) != 0) {
    rc = -1;
  }
  int err = errno;
  close(in);
  errno = err;
  return rc;
}

int new_file_reopen(const char *path, size_t slack, int whole_lines)
{
  char tmp[NEW_FILE_PATH_LEN];
  int fd = new_file_fd(path, tmp, sizeof tmp);
  if (fd < 0) {
    return -1;
  }
  if (copy_old(path, fd, slack, whole_lines) != 0 || rename(tmp, path) != 0) {
    int err = errno;
    close(fd);
    unlink(tmp);
    errno = err;
    return -1;
  }
  return fd;
}

int new_file_write_whole(int fd, const char *data, size_t len)
{
  off_t end = lseek(fd, 0, SEEK_END);
  if (end < 0) {
    return -1;
  }
  for (size_t done = 0; done < len;) {
    ssize_t got = write(fd, data + done, len - done);
    if (got < 0 && errno == EINTR) {
      continue;
    }
    if (got <= 0) {
      int err = got < 0 ? errno : EIO;
      if (ftruncate(fd, end) != 0) { /* the torn part goes; the file as it was */
        err = err ? err : errno;
      }
      errno = err;
      return -1;
    }
    done += (size_t)got;
  }
  return 0;
}
