#!/bin/sh
# The shared library exports exactly the public API: every symbol `nm -D` lists as defined is a
# name declared MBDAE_API in the public headers (include/mbdae/*.h), and every such name is
# exported.  A declaration names its function on the MBDAE_API line.
# usage: exports.sh LIBRARY HEADER...
set -eu
lib=$1
shift
exported=$(nm -D --defined-only "$lib" | awk '$2 ~ /^[TDRB]$/ {print $3}' | sort)
declared=$(grep -h '^MBDAE_API' "$@" | sed 's/(.*//; s/.*[ *]//' | sort)
if [ "$exported" != "$declared" ]; then
  echo "exported but not declared MBDAE_API:"
  comm -23 "$(printf '%s\n' "$exported" > /tmp/mbdae-exp.$$; echo /tmp/mbdae-exp.$$)" \
    "$(printf '%s\n' "$declared" > /tmp/mbdae-dec.$$; echo /tmp/mbdae-dec.$$)"
  echo "declared MBDAE_API but not exported:"
  comm -13 /tmp/mbdae-exp.$$ /tmp/mbdae-dec.$$
  rm -f /tmp/mbdae-exp.$$ /tmp/mbdae-dec.$$
  echo "exports: 0 passed, 1 failed"
  exit 1
fi
echo "exports: $(printf '%s\n' "$exported" | wc -l) symbols, all public"
echo "exports: 1 passed, 0 failed"
