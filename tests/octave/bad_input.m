## test_octave_bad_input: bad arguments give an Octave error with the mbdae: identifier and a
## message, never a crash; the interpreter goes on after each.
p = mbdae_problem ("caraxis");
cases = {
  "mbdae:spec",    @() mbdae_problem ("nosuch");
  "mbdae:spec",    @() mbdae_problem ("caraxis:form=index7");
  "mbdae:arg",     @() mbdae_problem (42);
  "mbdae:arg",     @() mbdae_problem ();
  "mbdae:arg",     @() mbdae_residual (p, 0, p.y0(1:3), p.yp0);
  "mbdae:arg",     @() mbdae_residual (p, 0, p.y0, [p.yp0; 1]);
  "mbdae:arg",     @() mbdae_residual (p, NaN, p.y0, p.yp0);
  "mbdae:arg",     @() mbdae_residual (p, 0, [NaN; p.y0(2:end)], p.yp0);
  "mbdae:arg",     @() mbdae_residual (p, 0, single (p.y0), p.yp0);
  "mbdae:arg",     @() mbdae_residual (p, 0, complex (p.y0), p.yp0);
  "mbdae:arg",     @() mbdae_residual (p, 0, sparse (p.y0), p.yp0);
  "mbdae:arg",     @() mbdae_residual (p, 0, "abcdefghij", p.yp0);
  "mbdae:arg",     @() mbdae_residual (p, [0 1], p.y0, p.yp0);
  "mbdae:arg",     @() mbdae_residual (struct ("x", 1), 0, p.y0, p.yp0);
  "mbdae:arg",     @() mbdae_jacobian (p, 0, p.y0, p.yp0, "banded");
  "mbdae:arg",     @() mbdae_jacobian (p, 0, repmat (p.y0, 1, 2), p.yp0);
  "mbdae:arg",     @() mbdae_scd (p, p.y0, 1e-4);
  "mbdae:arg",     @() mbdae_scd (p, Inf (10, 1));
  "mbdae:solver",  @() mbdae_solve (p, "nosuch");
  "mbdae:arg",     @() mbdae_solve (p, "radau5", struct ("rtol", -1));
  "mbdae:arg",     @() mbdae_solve (p, "radau5", struct ("rtol", 0));
  "mbdae:arg",     @() mbdae_solve (p, "radau5", struct ("rtol", 1));
  "mbdae:arg",     @() mbdae_solve (p, "radau5", struct ("rtl", 1e-4));
  "mbdae:arg",     @() mbdae_solve (p, "radau5", struct ("linsys", "fast"));
  "mbdae:arg",     @() mbdae_solve (p, "radau5", struct ("repeats", 0));
  "mbdae:arg",     @() mbdae_solve (p, "radau5", struct ("h0", 1e-300));
  "mbdae:arg",     @() mbdae_solve (p, 3);
  "mbdae:arg",     @() mbdae_mass (p, "verify");
  "mbdae:arg",     @() mbdae_record_outcome (p, "ode15i", "t", struct (), struct ("t", 1));
  "mbdae:arg",     @() mbdae_record_outcome (p, "ode15i", "t", struct (),
                                             struct ("t", [1; 2], "Y", zeros (2, 3),
                                                     "status", 0, "message", "", "cpu", 0));
  "mbdae:solver",  @() mbdae_record_outcome (p, "bad id!", "t", struct (),
                                             struct ("t", [], "Y", [], "status", 0,
                                                     "message", "", "cpu", 0));
  "mbdae:arg",     @() mbdae_write_runs ("/tmp", {struct("x", 1)});
  "mbdae:io",      @() mbdae_write_runs ("/nonexistent/dir", {mbdae_solve(p, "radau5", struct("rtol", 1e-3))});
  "mbdae:arg",     @() mbdae_run_solver (p, "ode15i");
};
failures = 0;
for k = 1:rows (cases)
  try
    cases{k, 2} ();
    printf ("case %d (%s): no error\n", k, func2str (cases{k, 2}));
    failures += 1;
  catch err
    if (! strcmp (err.identifier, cases{k, 1}) || isempty (err.message))
      printf ("case %d (%s): %s '%s', %s expected\n", k, func2str (cases{k, 2}), err.identifier,
              err.message, cases{k, 1});
      failures += 1;
    else
      printf ("ok %s: %s\n", err.identifier, err.message);
    endif
  end_try_catch
endfor
## The interpreter is still fine.
r = mbdae_solve (p, "radau5", struct ("rtol", 1e-4));
if (r.status != 0)
  failures += 1;
endif
printf ("%d cases, %d failures\n", rows (cases), failures);
exit (failures > 0);
