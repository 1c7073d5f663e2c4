/* mbdae_fail: the failure message of a run, "t = ..., h = ...: reason" (src/core/fail.h). */
#include "fail.h"

#include <stdarg.h>
#include <stdio.h>

int mbdae_fail(mbdae_result *r, int status, double t, double h, const char *fmt, ...)
{
  char reason[256];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(reason, sizeof reason, fmt, ap);
  va_end(ap);
  r->status = status;
  r->t = t;
  r->h = h;
  snprintf(r->message, sizeof r->message, "t = %.16g, h = %.3e: %s", t, h, reason);
  return status;
}
