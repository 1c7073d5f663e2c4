## -*- texinfo -*-
## @deftypefn {} {[@var{rtol}, @var{atol}, @var{h0}] =} mbdae_tolerances (@var{p}, @var{opts})
## The tolerances of a run of problem @var{p} as `mbdae run` takes them: opts.rtol (default the
## problem's p.tolerances.default_rtol), opts.atol (default rtol) and opts.h0 (default the test
## set's h0 = h0_factor rtol: rtol, or 1e-2 rtol for the slider crank).
## @end deftypefn
function [rtol, atol, h0] = mbdae_tolerances (p, opts)
  rtol = p.tolerances.default_rtol;
  if (isfield (opts, "rtol"))
    rtol = opts.rtol;
  endif
  atol = rtol;
  if (isfield (opts, "atol"))
    atol = opts.atol;
  endif
  h0 = p.tolerances.h0_factor * rtol;
  if (isfield (opts, "h0"))
    h0 = opts.h0;
  endif
  if (! (isscalar (rtol) && isreal (rtol) && rtol > 0 && isfinite (rtol)
         && isscalar (atol) && isreal (atol) && atol > 0 && isfinite (atol)
         && isscalar (h0) && isreal (h0) && h0 >= 0 && isfinite (h0)))
    error ("mbdae:arg", "mbdae_tolerances: rtol, atol > 0 and h0 >= 0 must be finite scalars");
  endif
endfunction
