function f = mbdae_ode15i (p, opts)
% f = mbdae_ode15i (p, opts)
% The form ode15i takes for problem p (a struct of mbdae_problem, or a spec string):
% f.fun = @(t, y, yp) F(t, y, y'), f.jac = @(t, y, yp) [dF/dy, dF/dy'] (dense, or sparse for a
% problem with a band or sparse pattern), f.tspan = [t0, tend], the consistent start f.y0,
% f.yp0, and f.options (odeset: RelTol, AbsTol, InitialStep at the test set's h0 =
% h0_factor rtol, Jacobian).  opts: rtol (default the problem's), atol (default rtol), h0
% (mbdae_tolerances).
%   f = mbdae_ode15i ('pendulum:form=index1');
%   [t, y] = ode15i (f.fun, f.tspan, f.y0, f.yp0, f.options);
  if (nargin < 1 || nargin > 2)
    error ('mbdae:arg', 'usage: f = mbdae_ode15i (p[, opts])');
  end
  if (nargin < 2)
    opts = struct ();
  end
  if (ischar (p))
    p = mbdae_problem (p);
  end
  [rtol, atol, h0] = mbdae_tolerances (p, opts);
  spec = p.spec;
  f.fun = @(t, y, yp) mbdae_residual (spec, t, y, yp);
  f.jac = @(t, y, yp) mbdae_jacobian (spec, t, y, yp);
  f.tspan = [p.t0, p.tend];
  f.y0 = p.y0;
  f.yp0 = p.yp0;
  f.options = odeset ('RelTol', rtol, 'AbsTol', atol, 'Jacobian', f.jac);
  if (h0 > 0)  % 0: the solver chooses
    f.options = odeset (f.options, 'InitialStep', h0);
  end
end
