/* mex_record.h: run options from an Octave/MATLAB struct, and a run record (mbdae_record) as one,
 * shared by mbdae_solve and mbdae_record_outcome. */
#ifndef MBDAE_MEX_RECORD_H
#define MBDAE_MEX_RECORD_H

#include "mex_common.h"

/* opts (a struct, or [] for none) into opt: rtol (default: the problem's run tolerance), atol
 * (default rtol), h0 (default the test set's h0_factor * rtol), hmax, max_steps, linsys ('auto',
 * 'dense', 'band', 'sparse', 'condensed'), repeats (default 1).  Unknown fields raise. */
void mx_options(const mxArray *opts, const mbdae_problem *p, mbdae_options *opt, int *repeats);

/* The record as a struct: ids, options, status, code, message, t, h, y, scd, mescd, the counters,
 * CPU, drift, and csv (runs.csv's header and the record's row, from the library's writer) and
 * json (mbdae_record_write_json).  NULL when out of memory (nothing raised: the caller frees its
 * record first). */
mxArray *mx_record_struct(const mbdae_record *rec);

#endif /* MBDAE_MEX_RECORD_H */
