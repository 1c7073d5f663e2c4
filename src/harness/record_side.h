/* Side files of runs.csv for records with large vectors (record_side.c; doc/command.md, "Run
 * records"). */
#ifndef MBDAE_RECORD_SIDE_H
#define MBDAE_RECORD_SIDE_H

#include <stdio.h>

#include "mbdae/mbdae.h"

enum { RECORD_SIDE_NAMES, RECORD_SIDE_Y, RECORD_SIDE_YREF };

/* 1 when s[0..n-1] is a component name: 1 to MBDAE_RECORD_ID_LEN - 1 characters of [A-Za-z0-9_],
 * the rule of a problem's names (mbdae_problem_from_type).  One rule for the inline names field
 * and the side files: no ',' or '"' (CSV), no space (the separator of the names field and of a
 * side file's line). */
int record_component_name_ok(const char *s, size_t n);
/* 1 when s is a plain file name for a side file: [A-Za-z0-9_.-], not starting with '.'. */
int record_side_name_ok(const char *s);
/* Write r's names, y and yref to path; 0 or -1 (errno set). */
int record_side_write(const char *path, const mbdae_record *r);
/* Read one of them (what: RECORD_SIDE_...) from path into a new array of *n entries (names: one
 * block as mbdae_record_init makes it); 0, or -1 with "shown:line: why" in why. */
int record_side_read(const char *path, const char *shown, int what, void **out, long *n, char *why,
                     size_t len);

#endif /* MBDAE_RECORD_SIDE_H */
