#!/bin/sh
# test_octave_interrupt: Ctrl-C (SIGINT) during a long mbdae_solve (radau5 on a 100-link chain
# at rtol 1e-9: over a minute) ends it within seconds through the run's stop callback, without a
# crash and without the solve finishing.  Arguments: octave, the interface's folder.
set -u
octave=$1 octdir=$2
out=$(mktemp)
trap 'rm -f "$out"' EXIT
"$octave" --no-gui --norc -q -p "$octdir" --eval 'printf ("started\n"); fflush (stdout);
  r = mbdae_solve ("chain:n=100,tend=50", "radau5", struct ("rtol", 1e-9)); printf ("finished\n");' \
  >"$out" 2>&1 &
pid=$!
i=0
while ! grep -q started "$out" && [ $i -lt 600 ]; do sleep 0.1; i=$((i + 1)); done
sleep 2
kill -INT $pid
i=0
while kill -0 $pid 2>/dev/null && [ $i -lt 200 ]; do sleep 0.1; i=$((i + 1)); done
if kill -0 $pid 2>/dev/null; then
  kill -KILL $pid
  echo "octave still runs 20 s after SIGINT"; cat "$out"; exit 1
fi
wait $pid
rc=$?
cat "$out"
if grep -q finished "$out" || [ $rc -ge 128 ]; then
  echo "the solve was not interrupted cleanly (exit status $rc)"; exit 1
fi
echo "interrupted after $((i / 10)) s (exit status $rc)"
