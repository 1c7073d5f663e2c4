#!/bin/sh
# The install writes bin/mbdae-python, which runs the Python the module was built for with the
# installed module on its path (past a python3 without NumPy first on PATH, without PYTHONPATH),
# and the installed mbdae/_build.py names that launcher (run from an empty folder: python -c puts
# the working directory first on sys.path).  Usage: install_launcher.sh CMAKE BUILD_DIR
set -eu
cmake=$1 build=$2
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
mkdir "$work/shim"
printf '#!/bin/sh\necho "no numpy here" >&2\nexit 1\n' >"$work/shim/python3"
chmod +x "$work/shim/python3"
"$cmake" --install "$build" --prefix "$work/prefix" >"$work/log" 2>&1 || {
  cat "$work/log"
  exit 1
}
test -x "$work/prefix/bin/mbdae-python" || {
  echo "no executable $work/prefix/bin/mbdae-python"
  exit 1
}
out=$(cd "$work" && env -u PYTHONPATH PATH="$work/shim:$PATH" "$work/prefix/bin/mbdae-python" -c '
import mbdae, mbdae._build as b
print(mbdae.__file__)
print(b.LAUNCHER)
print(mbdae.solve("caraxis", "radau5").success)')
echo "$out"
printf '%s\n' "$out" | sed -n 1p | grep -q "^$work/prefix/" || {
  echo "the installed launcher did not import the installed module"
  exit 1
}
test "$(printf '%s\n' "$out" | sed -n 2,3p)" = "$work/prefix/bin/mbdae-python
True" || {
  echo "the installed _build.py does not name the installed launcher, or the run failed"
  exit 1
}
echo "bin/mbdae-python runs the installed module"
