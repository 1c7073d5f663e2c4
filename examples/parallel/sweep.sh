#!/bin/sh
# A mbdae sweep in N shards run by GNU parallel (Debian: apt-get install parallel), here or over
# ssh on other machines (add parallel's --sshlogin; each needs mbdae and the folder), then merged
# in shard order into OUT: runs.csv (side files renumbered), runs.json, tables and diagrams.
#
#   usage: examples/parallel/sweep.sh N OUT SWEEP-ARGS...
#   e.g.   examples/parallel/sweep.sh 4 wp all --solvers radau5,bdf
#
# Shard i goes to OUT/shard-i (--no-plots); parallel's job log is OUT/parallel.log.  MBDAE is the command (default: mbdae on PATH); MBDAE_JOBS the number of
# shards run at once (default: one per core).  A failed run is a row of runs.csv (exit 1); a shard
# that exits 2 (its results not written) stops the merge, and the script exits 2.
set -eu
if [ $# -lt 3 ]; then
  echo "usage: $0 N OUT SWEEP-ARGS..." >&2
  exit 2
fi
n=$1
out=$2
shift 2
mbdae=${MBDAE:-mbdae}
if ! command -v parallel >/dev/null; then
  echo "$0: GNU parallel is not installed (apt-get install parallel)" >&2
  exit 2
fi
mkdir -p "$out"
rm -f "$out/parallel.log"
# -q: the arguments go to mbdae as they are; {} is the shard's number.  Its exit status counts
# the shards that exited non-zero, failed runs too: the job log tells them apart.
parallel -q --jobs "${MBDAE_JOBS:-100%}" --joblog "$out/parallel.log" \
  "$mbdae" sweep "$@" --shard "{}/$n" --no-plots --out "$out/shard-{}" ::: $(seq 1 "$n") || true
# the job log: column 7 is each shard's exit status; 0 and 1 (failed runs) are results
if ! awk -F '\t' 'NR > 1 && $7 > 1 { bad = 1; print "shard " $NF ": exit " $7 > "/dev/stderr" }
                  END { exit bad }' "$out/parallel.log"; then
  exit 2
fi
set --
i=1
while [ "$i" -le "$n" ]; do
  set -- "$@" "$out/shard-$i"
  i=$((i + 1))
done
rc=0
"$mbdae" sweep --report "$out" "$@" || rc=$?
[ "$rc" -eq 1 ] && rc=0 # failed runs are rows
exit "$rc"
