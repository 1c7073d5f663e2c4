/* Reading a user's file with a byte budget (bounded_read.c): the budget is counted while the file
 * is read, across lines, so that no line of an endless file (/dev/zero, a FIFO fed forever, a file
 * in /proc that reports size 0, such as /proc/self/pagemap with its gigabytes) can grow without
 * bound before a check after it.  The file must be a regular file (opened without blocking, so a
 * FIFO is refused, not waited on); its budget is the size it reports plus a slack for a file that
 * grows while it is read. */
#ifndef MBDAE_BOUNDED_READ_H
#define MBDAE_BOUNDED_READ_H

#include <stddef.h>
#include <stdio.h>

/* The slack of the command's readers of runs.csv and peer runs: 16 MiB beyond the size a file
 * reports (a file in /proc reports 0). */
enum { BOUNDED_SLACK = 1 << 24 };

/* A stream over fd (taken over: fclose closes it) that gives at most budget bytes: a read past
 * them fails with EFBIG (ferror set, getline returns -1).  NULL with errno set (fd closed). */
FILE *bounded_fdopen(int fd, size_t budget);
/* path opened for reading when it is a regular file, with the budget st_size + slack; NULL with
 * errno set (EINVAL: not a regular file). */
FILE *bounded_open(const char *path, size_t slack);

#endif /* MBDAE_BOUNDED_READ_H */
