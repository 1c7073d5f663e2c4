/* mbdae_strerror: the text of every return code, from the one table in mbdae.h. */
#include "mbdae/mbdae.h"

const char *mbdae_strerror(int code)
{
  switch (code) {
#define MBDAE_TEXT_ENTRY(name, value, text)                                                        \
  case value:                                                                                      \
    return text;
    MBDAE_ERROR_TABLE(MBDAE_TEXT_ENTRY)
#undef MBDAE_TEXT_ENTRY
  default:
    return "unknown error code";
  }
}
