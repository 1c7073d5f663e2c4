function [rtol, atol, h0] = mbdae_tolerances (p, opts)
% [rtol, atol, h0] = mbdae_tolerances (p, opts)
% The tolerances of a run of problem p as `mbdae run` takes them: opts.rtol (default the
% problem's p.tolerances.default_rtol), opts.atol (default rtol) and opts.h0 (default the test
% set's h0 = h0_factor rtol: rtol, or 1e-2 rtol for the slider crank; 0: the solver chooses).
  rtol = p.tolerances.default_rtol;
  if (isfield (opts, 'rtol'))
    rtol = opts.rtol;
  end
  atol = rtol;
  if (isfield (opts, 'atol'))
    atol = opts.atol;
  end
  h0 = p.tolerances.h0_factor * rtol;
  if (isfield (opts, 'h0'))
    h0 = opts.h0;
  end
  ok = @(v) isscalar (v) && isreal (v) && isfinite (v);
  if (~(ok (rtol) && rtol > 0 && ok (atol) && atol > 0 && ok (h0) && h0 >= 0))
    error ('mbdae:arg', 'mbdae_tolerances: rtol, atol > 0 and h0 >= 0 must be finite scalars');
  end
end
