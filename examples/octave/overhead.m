## examples/octave/overhead.m: the cost of one residual call from Octave (mbdae_residual: the
## interpreter's call of the MEX function, the argument checks, the problem cache and the
## output array) against the C call (mbdae_problem_unit_costs, which `mbdae bench` reports as
## the residual's unit cost): CPU seconds per call over N calls at the start of each problem.
##   octave --no-gui --norc -q -p build/octave examples/octave/overhead.m
N = 20000;
for s = {"caraxis", "pendulum:form=index1", "andrews", "fekete"}
  p = mbdae_problem (s{1});
  spec = p.spec;
  y = p.y0;
  yp = p.yp0;
  t = p.t0;
  F = mbdae_residual (spec, t, y, yp);
  c0 = cputime ();
  for k = 1:N
    F = mbdae_residual (spec, t, y, yp);
  endfor
  per_call = (cputime () - c0) / N;
  c0 = cputime ();
  for k = 1:N
    F = mbdae_residual (p, t, y, yp);
  endfor
  per_struct = (cputime () - c0) / N;
  c0 = cputime ();
  f = @(t, y, yp) mbdae_residual (spec, t, y, yp);
  for k = 1:N
    F = f (t, y, yp);
  endfor
  per_handle = (cputime () - c0) / N;
  printf ("%-22s n = %3d: %.2f us per call (spec), %.2f us (struct), %.2f us (handle)\n",
          spec, p.n, 1e6 * per_call, 1e6 * per_struct, 1e6 * per_handle);
endfor
