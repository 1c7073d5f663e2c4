/* libFuzzer target for the quoting of strings written into gnuplot scripts (gnuplot_quote and
 * gnuplot_string, src/cli/gnuplot.c): for any bytes the result must be one inert gnuplot string
 * expression, single-quoted pieces joined by ."\047". (a quote) and nothing else: no backquote,
 * no @, no newline outside single quotes, no control character anywhere, no quote inside a piece;
 * read back it gives the input with each control character as '?'.  gnuplot_string writes the
 * same bytes, and a buffer too short gets nothing rather than a cut token.
 *
 * Build (clang):  cmake -S . -B build-fuzz -DCMAKE_C_COMPILER=clang -DMBDAE_FUZZ=ON
 *                 cmake --build build-fuzz --target fuzz_gnuplot
 * Run:            build-fuzz/tests/fuzz/fuzz_gnuplot -max_total_time=60 tests/fuzz/corpus/gnuplot
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sweep.h"

static const char quote_piece[] = "'.\"\\047\".'";

/* The text of quoted q (a gnuplot string expression as gnuplot_quote writes it) into text;
 * aborts when q is anything else. */
static void read_back(const char *q, size_t n, char *text)
{
  size_t piece = strlen(quote_piece), k = 0;
  if (n < 2 || q[0] != '\'' || q[n - 1] != '\'') {
    abort();
  }
  for (size_t i = 1; i + 1 < n; i++) {
    unsigned char c = (unsigned char)q[i];
    if (c < 0x20 || c == 0x7f) {
      abort(); /* a control character: a newline would end the command */
    }
    if (c == '\'') { /* leaving the single quotes: only the quote piece may follow */
      if (i + piece >= n || strncmp(q + i, quote_piece, piece) != 0) {
        abort();
      }
      i += piece - 1;
    }
    text[k++] = (char)c;
  }
  text[k] = '\0';
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
  char *s = malloc(size + 1);
  if (!s) {
    return 0;
  }
  memcpy(s, data, size);
  s[size] = '\0'; /* a C string: the input up to its first NUL */
  size_t len = strlen(s), n = gnuplot_quote(NULL, 0, s);
  char *q = malloc(n + 1), *text = malloc(len + 1), *want = malloc(len + 1);
  if (!q || !text || !want) {
    abort(); /* out of memory for a few times the input */
  }
  if (gnuplot_quote(q, n + 1, s) != n || strlen(q) != n) {
    abort();
  }
  read_back(q, n, text);
  for (size_t i = 0; i <= len; i++) {
    unsigned char c = (unsigned char)s[i];
    want[i] = (c && (c < 0x20 || c == 0x7f)) ? '?' : s[i];
  }
  if (strcmp(text, want) != 0) {
    abort();
  }
  char *streamed = NULL;
  size_t streamed_len = 0;
  FILE *out = open_memstream(&streamed, &streamed_len);
  if (out) {
    gnuplot_string(out, s);
    fclose(out);
    if (streamed_len != n || memcmp(streamed, q, n) != 0) {
      abort();
    }
    free(streamed);
  }
  char small[16];
  size_t cut = size ? data[0] % sizeof small : 0; /* a buffer of 0..15 bytes */
  if (gnuplot_quote(cut ? small : NULL, cut, s) != n ||
      (cut && !(n < cut ? strcmp(small, q) == 0 : small[0] == '\0'))) {
    abort();
  }
  free(s);
  free(q);
  free(text);
  free(want);
  return 0;
}
