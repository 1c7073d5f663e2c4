/* daets_strerror: the text of every return code, from the one table in daets.h. */
#include "daets/daets.h"

const char *daets_strerror(int code)
{
  switch (code) {
#define DAETS_TEXT_ENTRY(name, value, text)                                                     \
  case value:                                                                                  \
    return text;
    DAETS_ERROR_TABLE(DAETS_TEXT_ENTRY)
#undef DAETS_TEXT_ENTRY
  default:
    return "unknown error code";
  }
}
