/* A read-only stream with a byte budget (bounded_read.h), made with glibc's fopencookie: the
 * cookie's read function counts the bytes it hands to stdio and refuses the read that would go
 * past the budget, so every reader built on getline or fgetc stops there with an error. */
#define _GNU_SOURCE /* fopencookie */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

#include "bounded_read.h"

typedef struct bounded {
  int fd;
  size_t left;  /* bytes still allowed */
  int exceeded; /* a read went past the budget */
} bounded;

static ssize_t bounded_read(void *cookie, char *buf, size_t size)
{
  bounded *b = cookie;
  if (b->left == 0) { /* one more byte, to tell the end of the file from the end of the budget */
    char probe;
    ssize_t got = read(b->fd, &probe, 1);
    if (got <= 0) {
      return got;
    }
    b->exceeded = 1;
    errno = EFBIG;
    return -1;
  }
  ssize_t got = read(b->fd, buf, size < b->left ? size : b->left);
  if (got > 0) {
    b->left -= (size_t)got;
  }
  return got;
}

static int bounded_close(void *cookie)
{
  bounded *b = cookie;
  int rc = close(b->fd);
  free(b);
  return rc;
}

FILE *bounded_fdopen(int fd, size_t budget)
{
  bounded *b = malloc(sizeof *b);
  cookie_io_functions_t io = {.read = bounded_read, .close = bounded_close};
  FILE *f = b ? fopencookie(b, "r", io) : NULL;
  if (!f) {
    int err = b ? errno : ENOMEM;
    free(b);
    close(fd);
    errno = err;
    return NULL;
  }
  *b = (bounded){.fd = fd, .left = budget};
  return f;
}

FILE *bounded_open(const char *path, size_t slack)
{
  int fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC); /* a FIFO: no wait for a writer */
  struct stat st;
  if (fd < 0) {
    return NULL;
  }
  int stat_rc = fstat(fd, &st);
  if (stat_rc != 0 || !S_ISREG(st.st_mode)) {
    int err = stat_rc != 0 ? errno : EINVAL;
    close(fd);
    errno = err;
    return NULL;
  }
  return bounded_fdopen(fd, (size_t)st.st_size + slack);
}
