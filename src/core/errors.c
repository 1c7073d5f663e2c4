/* mbdae_strerror and mbdae_strcode: the text and the MBDAE_ name of every return code, both from
 * the one table in mbdae.h (MBDAE_ERROR_TABLE). */
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

const char *mbdae_strcode(int code)
{
  switch (code) {
#define MBDAE_NAME_ENTRY(name, value, text)                                                        \
  case value:                                                                                      \
    return #name;
    MBDAE_ERROR_TABLE(MBDAE_NAME_ENTRY)
#undef MBDAE_NAME_ENTRY
  default:
    return "unknown";
  }
}
