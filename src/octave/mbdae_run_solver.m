function [r, sol] = mbdae_run_solver (p, solver, opts)
% r = mbdae_run_solver (p, solver, opts)
% [r, sol] = mbdae_run_solver (...)
% Run an Octave/MATLAB solver on problem p (struct or spec) and make its run record, the same
% record as for a built-in solver (mbdae_solve): the harness counts the residual calls (nres:
% every call of F, or of f in the form M y' = f, finite-difference ones included) and the
% Jacobian calls (njac), times the run with cputime, and hands the accepted steps to the
% library (mbdae_record_outcome), which measures scd, mescd and the constraint drift as for its
% own solvers.  r.csv is the record's runs.csv row (mbdae_write_runs).
%
% solver: a function handle.  @ode15i, and any handle with opts.implicit = true, gets the
% implicit form (mbdae_ode15i: solver (fun, tspan, y0, yp0, options)); any other (@ode15s,
% @ode23t, @ode45, a user's) the form M y' = f (mbdae_ode15s: solver (fun, tspan, y0,
% options)), which a residual not linear in y' refuses.  The solver must return [t, y] at its
% accepted steps (the MATLAB suite's codes do when tspan has two entries).
%
% opts: rtol, atol, h0 (default the test set's: mbdae_tolerances; 0: the solver's own), hmax
% (MaxStep), jacobian (default true: the analytic Jacobian is passed), id and title (the
% solver's name in the record; default the handle's name), implicit, and odeset (a struct of
% more options).  A solver that raises an error, or stops before tend, gives a record with
% status MBDAE_ERR_SOLVER (-12) and its message.  sol: the start and the accepted steps,
% sol.t (a column) and sol.y (a row per step).
  if (nargin < 2 || nargin > 3)
    error ('mbdae:arg', 'usage: [r, sol] = mbdae_run_solver (p, solver[, opts])');
  end
  if (nargin < 3)
    opts = struct ();
  end
  if (ischar (p))
    p = mbdae_problem (p);
  end
  if (~isa (solver, 'function_handle'))
    error ('mbdae:arg', ...
           'mbdae_run_solver: solver must be a function handle (@ode15i, @ode15s, ...)');
  end
  id = field_or (opts, 'id', regexprep (func2str (solver), '^@', ''));
  title = field_or (opts, 'title', sprintf ('%s (%s)', id, octave_or_matlab ()));
  implicit = field_or (opts, 'implicit', strcmp (id, 'ode15i'));
  [rtol, atol, h0] = mbdae_tolerances (p, opts);
  topts = struct ('rtol', rtol, 'atol', atol, 'h0', h0);
  if (isfield (opts, 'hmax'))
    topts.hmax = opts.hmax;
  end
  [out, message] = run_counted (p, solver, implicit, opts, topts);
  if (~isempty (message))
    out.status = -12;  % MBDAE_ERR_SOLVER
    out.message = message;
  end
  r = mbdae_record_outcome (p, id, title, topts, out);
  if (nargout > 1)
    sol = struct ('t', [p.t0; out.t(:)], 'y', [p.y0.'; out.Y]);
  end
end

function [out, message] = run_counted (p, solver, implicit, opts, topts)
  message = '';
  counted ('reset');
  if (implicit)
    f = mbdae_ode15i (p, topts);
    fun = @(t, y, yp) counted ('res', f.fun, t, y, yp);
    jac = @(t, y, yp) counted ('jac', f.jac, t, y, yp);
  else
    f = mbdae_ode15s (p, topts);
    fun = @(t, y) counted ('res', f.fun, t, y);
    jac = @(t, y) counted ('jac', f.jac, t, y);
  end
  o = f.options;
  if (field_or (opts, 'jacobian', true) && ~isempty (odeget (o, 'Jacobian')))
    o = odeset (o, 'Jacobian', jac);
  else
    o = odeset (o, 'Jacobian', []);
  end
  if (isfield (topts, 'hmax') && topts.hmax > 0)
    o = odeset (o, 'MaxStep', topts.hmax);
  end
  o = odeset (o, 'Stats', 'on');
  if (isfield (opts, 'odeset'))
    o = odeset (o, opts.odeset);
  end
  t = p.t0;
  y = p.y0.';
  text = '';
  c0 = cputime ();
  try
    if (implicit)
      text = evalc ('[t, y] = solver (fun, f.tspan, f.y0, f.yp0, o);');
    else
      text = evalc ('[t, y] = solver (fun, f.tspan, f.y0, o);');
    end
  catch err
    message = sprintf ('%s raised: %s', func2str (solver), err.message);
  end
  out.cpu = cputime () - c0;
  [out.nres, out.njac] = counted ('get');
  out = stats_from_text (out, text);
  out.t = t(2:end);
  out.Y = y(2:end, :);
  out.status = 0;
  out.message = '';
  if (isempty (message) && (isempty (out.t) || t(end) ~= p.tend))
    message = sprintf ('%s stopped at t = %.17g before tend = %.17g', func2str (solver), ...
                       t(end), p.tend);
  end
end

% The counts printed with Stats 'on' ('N successful steps', 'N failed attempts', and MATLAB's
% 'N LU decompositions'): steps attempted, error-test failures, factorizations.
function out = stats_from_text (out, text)
  ok = regexp (text, '(\d+) successful steps', 'tokens', 'once');
  failed = regexp (text, '(\d+) failed attempts', 'tokens', 'once');
  if (~isempty (ok) && ~isempty (failed))
    out.nerrfail = str2double (failed{1});
    out.steps = str2double (ok{1}) + out.nerrfail;
  end
  lu = regexp (text, '(\d+) LU decompositions', 'tokens', 'once');
  if (~isempty (lu))
    out.nlu = str2double (lu{1});
  end
end

% The residual and Jacobian calls of the run in progress (one run at a time).
function varargout = counted (what, fn, varargin)
  persistent nres njac
  switch (what)
    case 'reset'
      nres = 0;
      njac = 0;
    case 'get'
      varargout = {nres, njac};
    case 'res'
      nres = nres + 1;
      varargout{1} = fn (varargin{:});
    case 'jac'
      njac = njac + 1;
      [varargout{1:max(nargout, 1)}] = fn (varargin{:});
  end
end

function v = field_or (s, name, default)
  if (isfield (s, name))
    v = s.(name);
  else
    v = default;
  end
end

function s = octave_or_matlab ()
  if (exist ('OCTAVE_VERSION', 'builtin'))
    s = ['Octave ', OCTAVE_VERSION];
  else
    s = ['MATLAB ', version];
  end
end
