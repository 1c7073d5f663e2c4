## test_octave_harness (with harness.sh): Octave's ode15i on pendulum:form=index1 and ode15s on
## caraxis:form=index1 through mbdae_run_solver, beside radau5 through mbdae_solve, written to
## argv{1}/runs.csv in two calls (the second adds to the file); the records count residual calls
## and accepted steps and end at tend.
args = argv ();
d = args{1};
o = struct ("rtol", 1e-4);
r1 = mbdae_run_solver ("pendulum:form=index1", @ode15i, o);
r2 = mbdae_run_solver ("caraxis:form=index1", @ode15s, o);
r3 = mbdae_solve ("pendulum:form=index1", "radau5", o);
r4 = mbdae_solve ("caraxis:form=index1", "radau5", o);
mbdae_write_runs (d, {r1, r2});
mbdae_write_runs (d, [r3, r4]);
bad = 0;
for r = {r1, r2}
  r = r{1};
  printf ("%s %s: status %d scd %.4g mescd %.4g steps %d accepted %d nres %d njac %d cpu %.3g drift %.3g\n",
          r.solver, r.spec, r.status, r.scd, r.mescd, r.steps, r.accepted, r.nres, r.njac,
          r.cpu_seconds, r.drift_pos_max);
  bad += (r.status != 0 || r.nres < r.accepted || r.njac < 1 || r.accepted < 10
          || r.drift_steps != r.accepted);
endfor
## the scd the harness reports is the one of its final state
[s, m] = mbdae_scd (r1.spec, r1.y, r1.rtol, r1.atol);
bad += ! isequal (s, r1.scd) || ! isequal (m, r1.mescd);
## a solver that stops before tend is a failed run, not a success
half = @(f, tspan, y0, o) ode15s (f, [tspan(1), tspan(2) / 2], y0, o);
r5 = mbdae_run_solver ("caraxis:form=index1", half, struct ("rtol", 1e-4, "id", "half"));
printf ("a solver that stops at tend / 2: status %d (%s): %s\n", r5.status, r5.code, r5.message);
bad += r5.status == 0;
exit (bad > 0);
