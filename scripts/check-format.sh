#!/bin/sh
# The C files are clang-format clean under the repository's .clang-format (clang-format 14, what
# CI installs): every *.c and *.h under the PATHs given (root-relative; default: the whole
# repository) that git tracks (not files the tests make while they run).  Lists each file that is
# not, with clang-format's first complaints, and exits 1; exits 77 (a skip for CTest) when
# clang-format is missing.
# usage: scripts/check-format.sh [PATH...]      CLANG_FORMAT=clang-format-14 to choose the binary
set -eu
cd "$(dirname "$0")/.."
fmt=${CLANG_FORMAT:-clang-format}
if ! command -v "$fmt" >/dev/null 2>&1; then
  echo "check-format: $fmt not found: skipped"
  exit 77
fi
if [ $# -eq 0 ]; then
  set -- .
fi
if git rev-parse --is-inside-work-tree >/dev/null 2>&1; then
  files=$(git ls-files --cached -- "$@" | grep -E '\.[ch]$' || true)
else
  files=$(find "$@" -name build -prune -o -type f \( -name '*.c' -o -name '*.h' \) -print)
fi
clean=0
unclean=0
for file in $files; do
  if [ ! -f "$file" ]; then
    continue # deleted in the work tree, not yet in the index
  fi
  if "$fmt" --dry-run --Werror "$file" >/dev/null 2>&1; then
    clean=$((clean + 1))
  else
    unclean=$((unclean + 1))
    echo "$file is not clang-format clean (fix: $fmt -i $file):"
    "$fmt" --dry-run "$file" 2>&1 | head -n 6
  fi
done
echo "check-format: $clean files clean, $unclean not ($("$fmt" --version | sed 's/.*version //'))"
[ "$unclean" = 0 ] && [ "$clean" -gt 0 ]
