/* PLACEHOLDER: replaced by the real problem module. */
#include "problem_type.h"
typedef struct { int unused; } params_t;
static void set_defaults(void *params) { (void)params; }
static void describe(const void *params, problem_info *info) { (void)params; info->ref_source = "none"; }
static int init(const void *params, double *y0, double *yp0) { (void)params; (void)y0; (void)yp0; return DAETS_ERR_UNSUPPORTED; }
static int res(const void *params, double t, const double *y, const double *yp, double *r) { (void)params; (void)t; (void)y; (void)yp; (void)r; return DAETS_ERR_UNSUPPORTED; }
const problem_type daets_problem_caraxis = {
  .id = "caraxis", .title = "placeholder", .neq = 1, .t0 = 0, .tend = 1,
  .tolerances = {4, 24, 1.0, 1, {1e-4}, 1e-6}, .params_size = sizeof(params_t), .options_help = "",
  .set_defaults = set_defaults, .describe = describe, .init = init, .res = res,
};
