#!/bin/sh
# The public headers (include/mbdae/*.h) can grow one topic at a time: each compiles on its own
# (it includes what it needs) as C11 with -Wall -Wextra -Wpedantic -Werror, and mbdae.h, the one
# a program includes, includes every other one.
# usage: headers.sh CC INCLUDE_DIR
set -eu
cc=$1
dir=$2
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
passed=0
failed=0
for header in "$dir"/mbdae/*.h; do
  name=${header##*/}
  if [ "$name" != mbdae.h ] && ! grep -q "^#include \"$name\"$" "$dir/mbdae/mbdae.h"; then
    echo "mbdae.h does not include $name"
    failed=$((failed + 1))
    continue
  fi
  printf '#include <mbdae/%s>\nint main(void) { return 0; }\n' "$name" >"$work/use.c"
  if "$cc" -std=c11 -Wall -Wextra -Wpedantic -Werror -fsyntax-only -I"$dir" "$work/use.c"; then
    passed=$((passed + 1))
  else
    echo "$name does not compile on its own"
    failed=$((failed + 1))
  fi
done
echo "headers: $passed passed, $failed failed"
[ "$failed" = 0 ] && [ "$passed" -gt 1 ]
