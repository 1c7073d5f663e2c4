## examples/octave/table.m: Octave's ode15i and ode15s (the MATLAB suite's codes; Octave 7 has
## no ode23t) on every problem in its index-1 form at the test set's table tolerances, beside the
## built-in radau5, bdf and mebdf; then ode15i on the index-2 and index-3 forms at the loosest
## table tolerance.  Every run's record goes to OUT/runs.csv (mbdae_write_runs), so that
##   mbdae sweep --report OUT
## draws the diagrams and tables; the Markdown table of doc/octave.md is printed here.
##   octave --no-gui --norc -q -p build/octave examples/octave/table.m OUT
args = argv ();
if (numel (args) != 1)
  error ("usage: octave -p build/octave examples/octave/table.m OUT");
endif
out = args{1};
mkdir (out);
specs = {"caraxis:form=index1", "andrews:form=index1", "crank:form=index1", ...
         "pendulum:form=index1", "dpendulum:form=index1", "chain:form=index1", ...
         "fekete:form=index1", "wheelset"};
printf ("| problem | solver | rtol | scd | mescd | steps | #f | #Jac | CPU s |\n");
printf ("|:---|:---|---:|---:|---:|---:|---:|---:|---:|\n");
row = @(r) printf ("| %s | %s | %.0e | %s | %s | %d | %d | %d | %.3f |\n", r.spec, r.solver,
                   r.rtol, num2str (r.scd, "%.2f"), num2str (r.mescd, "%.2f"), r.steps, r.nres,
                   r.njac, r.cpu_seconds);
fail = @(r) printf ("| %s | %s | %.0e | fails: %s |||||\n", r.spec, r.solver, r.rtol, r.message);
for s = specs
  p = mbdae_problem (s{1});
  info = mbdae_mass (p, "check");
  for rtol = p.tolerances.table_rtol
    o = struct ("rtol", rtol);
    rs = {mbdae_run_solver(p, @ode15i, o)};
    if (info.linear)
      rs{end+1} = mbdae_run_solver (p, @ode15s, o);
    endif
    for solver = {"radau5", "bdf", "mebdf"}
      rs{end+1} = mbdae_solve (p, solver{1}, o);
    endfor
    for k = 1:numel (rs)
      if (rs{k}.status == 0)
        row (rs{k});
      else
        fail (rs{k});
      endif
    endfor
    mbdae_write_runs (out, rs);
    fflush (stdout);
  endfor
  if (! info.linear)
    printf ("| %s | ode15s | - | no form M y' = f: %s |||||\n", p.spec, info.why);
  endif
endfor
printf ("\nThe index-2 and index-3 forms, ode15i at the loosest table tolerance:\n\n");
for s = {"caraxis", "andrews", "crank", "pendulum", "dpendulum"}
  for form = {"index2", "index3"}
    p = mbdae_problem ([s{1} ":form=" form{1}]);
    r = mbdae_run_solver (p, @ode15i, struct ("rtol", p.tolerances.table_rtol(1)));
    if (r.status == 0)
      row (r);
    else
      fail (r);
    endif
    mbdae_write_runs (out, {r});
    fflush (stdout);
  endfor
endfor
