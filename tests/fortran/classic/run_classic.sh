#!/bin/sh
# test_fortran_classic: the classic Fortran codes as clients of the test-set interface.  Builds
# RADAU5 (radau5.f, decsol.f, dc_decsol.f), RADAU (radau.f) and MEBDFI (mebdfi.f) from the folder
# named by
# MBDAE_CLASSIC_DIR (searched recursively; the codes are never part of this repository) with this
# folder's test-set style driver (tsdriver.F90) against libmbdae_testset, in a temporary folder,
# runs every row of expected_counts.tsv (MBDAE_TESTSET_SPEC = the row's spec) and compares steps,
# accepted steps, #f, #Jac and #LU with the row's.  Rows marked check=yes must agree exactly;
# the others are reported.  Exit 77 (ctest: skipped) without MBDAE_CLASSIC_DIR.
#
#   run_classic.sh FC MODDIR LIBDIR_TESTSET LIBDIR_MBDAE [--keep DIR]
# --keep DIR: build the drivers in DIR and keep them (tsdriver_radau5, tsdriver_radau,
# tsdriver_mebdfi; doc/fortran.md runs them on the problems the test set lacks).
set -eu
here=$(cd "$(dirname "$0")" && pwd)
fc=$1 moddir=$2 tslib=$3 lib=$4
keep=""
if [ "${5:-}" = "--keep" ]; then
  keep=$6
fi
if [ -z "${MBDAE_CLASSIC_DIR:-}" ]; then
  echo "test_fortran_classic: skipped: set MBDAE_CLASSIC_DIR to a folder holding radau5.f," \
    "decsol.f, dc_decsol.f and mebdfi.f (Hairer's and Cash's codes, e.g. from hairer.tgz and" \
    "cash.tgz of github:svn2github/octave-forge main/odepkg/src, commit 350226a)"
  exit 77
fi
find_code() {
  f=$(find "$MBDAE_CLASSIC_DIR" -name "$1" -type f | head -n 1)
  if [ -z "$f" ]; then
    echo "test_fortran_classic: $1 not found under MBDAE_CLASSIC_DIR=$MBDAE_CLASSIC_DIR" >&2
    exit 1
  fi
  echo "$f"
}
radau5=$(find_code radau5.f) decsol=$(find_code decsol.f) dcdecsol=$(find_code dc_decsol.f)
radau=$(find_code radau.f) mebdfi=$(find_code mebdfi.f)
if [ -n "$keep" ]; then
  mkdir -p "$keep"
  work=$(cd "$keep" && pwd)
else
  work=$(mktemp -d)
  trap 'rm -rf "$work"' EXIT
fi
cd "$work"
legacy() { "$fc" -O2 -std=legacy -w -c "$1" -o "$2"; }
legacy "$radau5" radau5.o
legacy "$radau" radau.o
legacy "$decsol" decsol.o
legacy "$dcdecsol" dc_decsol.o
legacy "$mebdfi" mebdfi.o
link="-L$tslib -L$lib -lmbdae_testset -lmbdae_fortran -lmbdae -Wl,-rpath,$tslib:$lib"
# shellcheck disable=SC2086
"$fc" -O2 -I"$moddir" "$here/tsdriver.F90" radau5.o dc_decsol.o decsol.o $link -o tsdriver_radau5
# shellcheck disable=SC2086
"$fc" -O2 -DRADAU -I"$moddir" "$here/tsdriver.F90" radau.o dc_decsol.o decsol.o $link -o tsdriver_radau
# shellcheck disable=SC2086
"$fc" -O2 -DMEBDFI -I"$moddir" "$here/tsdriver.F90" mebdfi.o $link -o tsdriver_mebdfi

fail=0 checked=0 reported=0
while IFS="$(printf '\t')" read -r problem spec solver tol h0 steps acc nf njac nlu check; do
  case "$problem" in '#'* | '') continue ;; esac
  want="$steps $acc $nf $njac $nlu"
  got=$(MBDAE_TESTSET_SPEC=$spec "./tsdriver_$solver" "$tol" "$h0" 2>/dev/null | head -n 1 |
    awk '{print $1, $2, $3, $4, $5}')
  if [ "$got" = "$want" ]; then
    verdict=same
  else
    verdict=differs
  fi
  printf '%-8s %-7s %-6s report: %-32s mbdae: %-32s %s\n' "$problem" "$solver" "$tol" "$want" \
    "$got" "$verdict"
  if [ "$check" = yes ]; then
    checked=$((checked + 1))
    if [ "$verdict" != same ]; then
      fail=$((fail + 1))
    fi
  else
    reported=$((reported + 1))
  fi
done <"$here/expected_counts.tsv"
if [ -n "$keep" ]; then
  exit 0
fi
echo "test_fortran_classic: $checked rows checked, $fail differ; $reported rows reported only"
[ "$checked" -gt 0 ] && [ "$fail" -eq 0 ]
