function f = mbdae_ode15s (p, opts)
% f = mbdae_ode15s (p, opts)
% The form M(t, y) y' = f(t, y) that ode15s (and MATLAB's ode23t) take, for a problem p
% (struct or spec) whose residual is linear in y': F = M y' - f with M = dF/dy' and
% f = -F(t, y, 0) (mbdae_mass).  The linearity is checked first (mbdae_mass (p, 'check'): at
% the start, the reference and random states); a residual that is not linear in y' is refused
% with the error mbdae:notlinear, which says where.  f.fun = @(t, y) f(t, y); f.mass: the
% matrix M when it is constant, else @(t, y) M(t, y); f.mstate: 'none' or 'weak';
% f.jac = @(t, y) df/dy; f.tspan, f.y0, f.yp0; f.options (odeset: RelTol, AbsTol,
% InitialStep, Mass, MStateDependence, InitialSlope = yp0, and Jacobian where M is constant:
% Octave's ode15s ignores it for a state-dependent M).
%   f = mbdae_ode15s ('caraxis:form=index1');
%   [t, y] = ode15s (f.fun, f.tspan, f.y0, f.options);
  if (nargin < 1 || nargin > 2)
    error ('mbdae:arg', 'usage: f = mbdae_ode15s (p[, opts])');
  end
  if (nargin < 2)
    opts = struct ();
  end
  if (ischar (p))
    p = mbdae_problem (p);
  end
  info = mbdae_mass (p, 'check');
  if (~info.linear)
    error ('mbdae:notlinear', ...
           'mbdae_ode15s: %s has no form M y'' = f (ode15s, ode23t): %s; use ode15i', ...
           p.spec, info.why);
  end
  [rtol, atol, h0] = mbdae_tolerances (p, opts);
  spec = p.spec;
  f.fun = @(t, y) mbdae_rhs (spec, t, y);
  f.jac = @(t, y) mbdae_rhs_jacobian (spec, t, y);
  if (info.constant)
    f.mass = info.M;
    f.mstate = 'none';
  else
    f.mass = @(t, y) mbdae_mass (spec, t, y);
    f.mstate = 'weak';
  end
  f.tspan = [p.t0, p.tend];
  f.y0 = p.y0;
  f.yp0 = p.yp0;
  f.options = odeset ('RelTol', rtol, 'AbsTol', atol, 'Mass', f.mass, ...
                      'MStateDependence', f.mstate, 'InitialSlope', p.yp0);
  if (h0 > 0)  % 0: the solver chooses
    f.options = odeset (f.options, 'InitialStep', h0);
  end
  if (info.constant)
    f.options = odeset (f.options, 'Jacobian', f.jac);
  end
end

function f = mbdae_rhs (spec, t, y)
  [~, f] = mbdae_mass (spec, t, y);
end

function J = mbdae_rhs_jacobian (spec, t, y)
  [~, ~, J] = mbdae_mass (spec, t, y);
end
