/* The CPU clock the library times with (private): the process CPU time, so that a run's time does
 * not include what other processes on a shared machine take. */
#ifndef MBDAE_CPU_TIME_H
#define MBDAE_CPU_TIME_H

#include <time.h>

static inline double cpu_now(void)
{
  struct timespec ts;
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
  return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

#endif /* MBDAE_CPU_TIME_H */
