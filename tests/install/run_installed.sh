#!/bin/sh
# The installed mbdae command runs as installed: from its prefix with a clean environment (no
# LD_LIBRARY_PATH), and from a copy of the prefix elsewhere.  It finds libmbdae through its
# RPATH, relative to the binary ($ORIGIN/../lib), so a relocated prefix works as well.
# usage: run_installed.sh PREFIX BINDIR   (BINDIR relative to PREFIX, e.g. bin)
set -eu
prefix=$1
bindir=$2
run_from() {
  (cd "$1" && env -i PATH=/usr/bin:/bin "./$bindir/mbdae" list >/dev/null &&
    env -i PATH=/usr/bin:/bin "./$bindir/mbdae" run caraxis --rtol 1e-4 >/dev/null)
}
run_from "$prefix"
copy=$(mktemp -d)
trap 'rm -rf "$copy"' EXIT
cp -R "$prefix/." "$copy"
run_from "$copy"
echo "installed mbdae runs without LD_LIBRARY_PATH, in $prefix and relocated"
