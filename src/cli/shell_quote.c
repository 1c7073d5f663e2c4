/* Shell words in the command's hints: a command the user is told to run ("run `cd DIR &&
 * gnuplot SCRIPT`") names folders and files the user chose, so each is printed as one POSIX
 * shell word that the shell does not expand.
 *
 * Quoting (POSIX.1-2017, Shell Command Language, 2.2.3 "Single-Quotes"): inside '...' every
 * character is literal except the closing quote, so s is written as '...' with each ' in it as
 * '\'' (close, an escaped quote, reopen).  A control character is written as '?': a hint is one
 * line, and a name with a newline could end it and start another command. */
#include <stdio.h>

#include "sweep.h"

void shell_word(FILE *out, const char *s)
{
  fputc('\'', out);
  for (; *s; s++) {
    unsigned char c = (unsigned char)*s;
    if (c == '\'') {
      fputs("'\\''", out);
    } else {
      fputc(c < 0x20 || c == 0x7f ? '?' : c, out);
    }
  }
  fputc('\'', out);
}
