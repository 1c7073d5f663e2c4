/* Every file the command writes, written one way (new_file.c): never open an existing path for
 * writing.  The contents go into a new file of the destination's folder, created with
 * O_CREAT | O_EXCL | O_NOFOLLOW under a name no other file has (a planted link or file there is
 * never followed, never truncated), and rename(2) puts it in place when it is whole: a link at the
 * destination is replaced, its target untouched; a failed write (a full disk, a file-size limit)
 * leaves the old file as it was.  An append is read + rewrite + rename (new_file_reopen), and the
 * file it gives, one this process created, takes further lines (runs.partial.csv, as runs finish)
 * each whole or not at all: a write that fails is cut back (new_file_write_whole). */
#ifndef MBDAE_NEW_FILE_H
#define MBDAE_NEW_FILE_H

#include <stddef.h>
#include <stdio.h>

enum { NEW_FILE_PATH_LEN = 4400 };

typedef struct new_file {
  FILE *f;                      /* write here */
  char path[NEW_FILE_PATH_LEN]; /* the destination */
  char tmp[NEW_FILE_PATH_LEN];  /* the new file, renamed to path by new_file_commit */
} new_file;

/* A new, empty file in path's folder named path.<random>.tmp, opened with O_EXCL and
 * O_NOFOLLOW; its descriptor, or -1 with errno set.  Its name in tmp. */
int new_file_fd(const char *path, char *tmp, size_t len);
/* The same as a stream in nf (nf->f, also returned), or NULL with errno set. */
FILE *new_file_open(new_file *nf, const char *path);
/* Flush and close nf->f, then rename it over nf->path: 0, or -1 with errno set and the new file
 * removed (the destination as it was). */
int new_file_commit(new_file *nf);
/* Close nf->f and remove the new file; errno kept. */
void new_file_discard(new_file *nf);
/* An append: a new file holding path's contents (when it exists: a regular file, read up to its
 * size and slack bytes more, a longer one refused with EOVERFLOW while it is read), up to its last
 * line break when whole_lines (a line cut by a kill is dropped), renamed over path; its
 * descriptor, open for writing at its end (new_file_write_whole), or -1 with errno set and path
 * as it was. */
int new_file_reopen(const char *path, size_t slack, int whole_lines);
/* Write data[0..len) at the end of fd (a file this process created): 0, or -1 with errno set and
 * the file cut back to the length it had (no torn line). */
int new_file_write_whole(int fd, const char *data, size_t len);

#endif /* MBDAE_NEW_FILE_H */
