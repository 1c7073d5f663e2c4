#!/bin/sh
# test_octave_installed: the interface installed (cmake --install into a new prefix) works from
# a clean environment one addpath away: the residual at the start of caraxis is the build tree's
# bit for bit, and ode15i runs through the harness.  Arguments: cmake, the build folder, octave.
set -eu
cmake=$1 build=$2 octave=$3
prefix=$(mktemp -d)
trap 'rm -rf "$prefix"' EXIT
"$cmake" --install "$build" --prefix "$prefix" >/dev/null
out=$(env -i PATH=/usr/bin:/bin "$octave" --no-gui --norc -q --eval "addpath ('$prefix/share/mbdae/octave');
  p = mbdae_problem ('caraxis:form=index1'); F = mbdae_residual (p, p.t0, p.y0 * 1.5, p.yp0);
  r = mbdae_run_solver (p, @ode15i, struct ('rtol', 1e-4));
  printf ('%s %s %d %s\n', which ('mbdae_residual'), strjoin (cellstr (num2hex (F)).', ''), r.status, num2hex (r.scd));" 2>&1 | grep -v 'preparing to exit')
ref=$("$octave" --no-gui --norc -q -p "$build/octave" --eval "p = mbdae_problem ('caraxis:form=index1');
  F = mbdae_residual (p, p.t0, p.y0 * 1.5, p.yp0); r = mbdae_run_solver (p, @ode15i, struct ('rtol', 1e-4));
  printf ('%s %d %s\n', strjoin (cellstr (num2hex (F)).', ''), r.status, num2hex (r.scd));" 2>&1 | grep -v 'preparing to exit')
echo "installed: $out"
echo "build:     $ref"
case "$out" in
"$prefix/share/mbdae/octave/mbdae_residual.mex $ref") echo "the installed interface equals the build tree's" ;;
*) echo "the installed interface differs or is not the one found"; exit 1 ;;
esac
