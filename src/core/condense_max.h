/* The largest order the linear-system layer condenses (solvers/condense.h): one 64-bit row set per
 * row.  The one definition of the limit, in the core so that the registry's choice of storage
 * (mbdae_linsys_choose: AUTO on a dense problem of at most this many equations is CONDENSED) and
 * the solvers' condensation read the same number. */
#ifndef MBDAE_CONDENSE_MAX_H
#define MBDAE_CONDENSE_MAX_H

enum { MBDAE_CONDENSE_MAX_N = 64 };

#endif
