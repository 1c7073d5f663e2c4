#!/bin/sh
# The configure takes the python3 that imports NumPy when one without NumPy comes first on PATH
# (as a pyenv shim does), says which one it took and writes the launcher build/mbdae-python for
# it, and MBDAE_PYTHON=ON names the packages when there is none.  Usage: configure_finds_numpy.sh SOURCE_DIR CMAKE WANTED_PYTHON
set -eu
src=$1 cmake=$2 wanted=$3
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
mkdir "$work/shim"
printf '#!/bin/sh\necho "no numpy here" >&2\nexit 1\n' >"$work/shim/python3"
chmod +x "$work/shim/python3"
PATH="$work/shim:$PATH" "$cmake" -S "$src" -B "$work/build" -DMBDAE_BUILD_TESTS=OFF >"$work/log" 2>&1 || {
  cat "$work/log"
  exit 1
}
grep -F "mbdae Python module: $wanted (" "$work/log" || {
  echo "configure did not take $wanted past the shim:"
  grep -i python "$work/log"
  exit 1
}
grep -qF "exec '$wanted' \"\$@\"" "$work/build/mbdae-python" || {
  echo "the launcher build/mbdae-python does not run $wanted:"
  cat "$work/build/mbdae-python"
  exit 1
}
if "$cmake" -S "$src" -B "$work/build-on" -DMBDAE_BUILD_TESTS=OFF -DMBDAE_PYTHON=ON \
  -DPython3_EXECUTABLE="$work/shim/python3" >"$work/log-on" 2>&1; then
  echo "MBDAE_PYTHON=ON with a Python without NumPy configured"
  exit 1
fi
grep -q "apt-get install python3-dev python3-numpy" "$work/log-on" || {
  cat "$work/log-on"
  exit 1
}
echo "configure passed over the shim and took $wanted; MBDAE_PYTHON=ON without NumPy refused"
