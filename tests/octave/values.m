## test_octave_values: residuals, Jacobians, starts and constraints from Octave equal the C
## library's bit for bit on every problem in every form.  argv: the C side's output (octave_values
## values ...), which names the specs.  Also: a row y gives a row F equal to the column one, and
## the sparse Jacobian (storage "sparse", the library's values on its pattern) equals the dense one
## to rounding: bit for bit but on chain:form=baumgarte, whose pattern values differ from its
## dense Jacobian in the last bit at 6 entries (the library's two paths sum in another order).
args = argv ();
lines = strsplit (fileread (args{1}), "\n");
hex = @(v) strjoin (cellstr (num2hex (v(:))).', " ");
mismatches = 0;
nspecs = 0;
k = 1;
while (k <= numel (lines))
  if (! strncmp (lines{k}, "spec ", 5))
    k += 1;
    continue;
  endif
  spec = lines{k}(6:end);
  nspecs += 1;
  p = mbdae_problem (spec);
  n = p.n;
  mine = {["y0 " hex(p.y0)], ["yp0 " hex(p.yp0)], ["F0 " hex(mbdae_residual(p, p.t0, p.y0, p.yp0))]};
  t = p.t0 + (p.tend - p.t0) / 4;
  i = (1:n).';
  y = 1.0625 * p.y0 + 0.001 * i;
  yp = 0.9375 * p.yp0 - 0.002 * i;
  try
    F = mbdae_residual (p, t, y, yp);
    mine{end+1} = ["F1 " hex(F)];
    Frow = mbdae_residual (p.spec, t, y.', yp.');
    if (! isrow (Frow) || ! isequal (Frow.', F))
      printf ("%s: a row y gives another F\n", spec);
      mismatches += 1;
    endif
  catch
    mine{end+1} = "F1 fail";
  end_try_catch
  try
    [A, B] = mbdae_jacobian (p, t, y, yp, "dense");
    mine{end+1} = ["dFdy " hex(A)];
    mine{end+1} = ["dFdyp " hex(B)];
    [As, Bs] = mbdae_jacobian (p, t, y, yp, "sparse");
    near = @(S, D) all (abs (full (S)(:) - D(:)) <= 4 * eps * abs (D(:)));
    if (! issparse (As) || ! near (As, A) || ! near (Bs, B))
      printf ("%s: the sparse Jacobian differs from the dense one\n", spec);
      mismatches += 1;
    endif
  catch
    mine{end+1} = "J fail";
  end_try_catch
  if (p.nconstraints > 0)
    [g, gv, ga] = mbdae_constraints (p, t, y, yp);
    mine{end+1} = ["g " hex([g; gv; ga])];
  endif
  for j = 1:numel (mine)
    theirs = lines{k + j};
    if (! strcmp (mine{j}, theirs))
      printf ("%s: line %d differs: Octave %s..., C %s...\n", spec, j,
              mine{j}(1:min (60, end)), theirs(1:min (60, end)));
      mismatches += 1;
    endif
  endfor
  k += numel (mine) + 1;
endwhile
printf ("%d specs compared, %d mismatches\n", nspecs, mismatches);
if (mismatches > 0 || nspecs == 0)
  exit (1);
endif
