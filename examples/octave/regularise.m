## examples/octave/regularise.m: the rows of Hafner & Poell's Table 1 (2015: "Maximal error and
## simulation time", MATLAB R2012b) that the MATLAB suite's codes can run, with Octave's: DaS C
## (form=index1) with ode15s, as the paper's Fig. 1, and ode15i; Baumgarte (form=baumgarte,
## alpha = 5, beta = 10 and alpha = beta = 10, the values `mbdae regularise` takes: the paper
## prints none) with ode15s (the paper's Fig. 3 used ode45, which takes no singular mass matrix);
## P (form=dummy) is left out: without the library's switching of the state selection
## (mbdae_solve_dummy) ode15s had not ended after 15 minutes on the pendulum.  SST (form=ssf,
## an ODE) with ode45.  OPM and SPM project
## after every step, which the suite's codes do not offer.  The double pendulum is
## chain:n=2,tend=100 (the same system over the paper's [0, 100]).
## max err: the paper's deviation from the circular paths over the accepted steps (not the
## start), e = |sqrt(x^2 + y^2) - 1|, e1, e2 per link; for SST from the angles (x = cos phi,
## y = sin phi).  Tolerances: argv{1} (default 1e-3: RelTol = 1e-3, AbsTol = 1e-6, the suite's
## defaults, which the paper does not state otherwise), or rtol = atol = R for argv{1} = R.
##   octave --no-gui --norc -q -p build/octave examples/octave/regularise.m [R]
args = argv ();
if (isempty (args))
  o = struct ("rtol", 1e-3, "atol", 1e-6);
else
  r = str2double (args{1});
  o = struct ("rtol", r, "atol", r);
endif
o.h0 = 0;   # the solver's own initial step, as MATLAB's defaults
## label, form, solver; the paper's e and t(s) for the pendulum, e1, e2, t(s) for the double one
table_rows = {
  "DaS C",         "form=index1",                    @ode15s, [24.731, 1.1],     [1.008, 9.495, 4.9];
  "DaS C",         "form=index1",                    @ode15i, [24.731, 1.1],     [1.008, 9.495, 4.9];
  "alpha != beta", "form=baumgarte,alpha=5,beta=10", @ode15s, [1.909e-5, 1.7],   [1.612e-4, 1.605e-4, 11.7];
  "alpha = beta",  "form=baumgarte,alpha=10,beta=10", @ode15s, [2.464e-4, 0.7],  [2.242e-5, 0.013, 3.8];
  "SST",           "form=ssf",                       @ode45,  [2.221e-16, 0.6],  [2.221e-16, 2.221e-16, 3.7];
};
function e = deviation (p, y)
  y = y(2:end, :);
  col = @(name) y(:, find (strcmp (p.names, name)));
  if (any (strcmp (p.names, "x")))
    e = max (abs (hypot (col ("x"), col ("y")) - 1));
  elseif (any (strcmp (p.names, "phi")))
    e = max (abs (hypot (cos (col ("phi")), sin (col ("phi"))) - 1));
  elseif (any (strcmp (p.names, "x1")))
    e = [max(abs (hypot (col ("x1"), col ("y1")) - 1)), ...
         max(abs (hypot (col ("x2") - col ("x1"), col ("y2") - col ("y1")) - 1))];
  else
    e = [max(abs (hypot (cos (col ("theta1")), sin (col ("theta1"))) - 1)), ...
         max(abs (hypot (cos (col ("theta2")), sin (col ("theta2"))) - 1))];
  endif
endfunction
function [text, e, r] = run_row (spec, solver, o)
  p = mbdae_problem (spec);
  [r, sol] = mbdae_run_solver (p, solver, o);
  if (r.status != 0)
    text = sprintf ("fails: %s", r.message);
    e = [];
    return;
  endif
  e = deviation (p, sol.y);
  text = "";
endfunction
printf ("RelTol %g, AbsTol %g; ours (paper's max err and seconds)\n\n", o.rtol, o.atol);
printf ("| method | solver | pendulum e | t(s) | scd |\n|---|---|---:|---:|---:|\n");
for k = 1:rows (table_rows)
  [label, form, solver, pp, pd] = table_rows{k, :};
  [text, e, r] = run_row (["pendulum:" form], solver, o);
  if (isempty (text))
    text = sprintf ("%.1e (%.4g) | %.3f (%.1f) | %.2f", e, pp(1), r.cpu_seconds, pp(2), r.scd);
  endif
  printf ("| %s | %s | %s |\n", label, func2str (solver), text);
  fflush (stdout);
endfor
printf ("\n| method | solver | dpendulum e1 | e2 | t(s) |\n|---|---|---:|---:|---:|\n");
for k = 1:rows (table_rows)
  [label, form, solver, pp, pd] = table_rows{k, :};
  if (strcmp (form, "form=dummy"))
    continue;
  endif
  [text, e, r] = run_row (["chain:n=2,tend=100," form], solver, o);
  if (isempty (text))
    text = sprintf ("%.1e (%.4g) | %.1e (%.4g) | %.3f (%.1f)", e(1), pd(1), e(2), pd(2),
                    r.cpu_seconds, pd(3));
  endif
  printf ("| %s | %s | %s |\n", label, func2str (solver), text);
  fflush (stdout);
endfor
