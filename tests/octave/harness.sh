#!/bin/sh
# test_octave_harness: harness.m writes runs.csv; the library recomputes scd and mescd of every
# record from its final state (octave_values scd: bit for bit); `mbdae sweep --report` draws the
# Octave solvers beside radau5.  Arguments: octave, the interface's folder, mbdae, octave_values,
# this folder.
set -eu
octave=$1 octdir=$2 mbdae=$3 values=$4 here=$5
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
status=0
"$octave" --no-gui --norc -q -p "$octdir" "$here/harness.m" "$dir" >"$dir/log" 2>&1 || status=$?
grep -v 'preparing to exit' "$dir/log" || true
rm -f "$dir/log"
test $status = 0 || { echo "harness.m failed (exit status $status)"; exit 1; }
test "$(grep -c '^pendulum\|^caraxis' "$dir/runs.csv")" = 4 || { echo "runs.csv: 4 rows expected"; cat "$dir/runs.csv"; exit 1; }
"$values" scd "$dir/runs.csv"
"$mbdae" sweep --report "$dir" --no-plots
grep '| ode15i |' "$dir/pendulum-table.md"
grep '| ode15s |' "$dir/caraxis-table.md"
grep '| radau5 |' "$dir/caraxis-table.md"
grep "solvers = 'ode15i ode15s radau5'" "$dir/workprecision.gp"
echo "the Octave solvers' records are in the report beside radau5"
