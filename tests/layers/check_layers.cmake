# The layer check (ctest `layers`): every #include "..." in include/, src/, problems/, solvers/
# and refsol/ must name a header of the including file's own layer or of one below it
# (doc/design.md, "Layers"):
#
#   public API  include/         may include  public API
#   core        src/core                      public API, core
#   problems    problems/                     public API, core, problems
#   solvers     solvers/                      public API, core, solvers
#   harness     src/harness                   all of the above, harness
#   command     src/cli                       public API, command, and refsol/'s headers (the
#                                             reference generators, a library of their own); the
#                                             library's private headers are not for it
#   refsol      refsol/                       public API, refsol, and of the problems only
#                                             problems/chain_config.h (the chain's spec parser,
#                                             whose one object it links)
#
# The build enforces the same table for the library's layers (each is an object library with
# only its own include folders: ctest layers_build); this check also sees what the compiler
# cannot: a relative path (#include "../src/harness/x.h"), the command and refsol/, and a file of
# src/core placed on purpose.
# A file's layer is its folder's.  The files of src/core are also listed in the table below
# (CORE_HARNESS), so that a new file there is placed on purpose: one missing from it fails the
# check (a harness file belongs in src/harness).
#
# A quoted include is found as the compiler finds it: next to the including file, then in
# include/, then by name in any folder above (the library's private include directories; a name
# that two folders hold fails the check).  System includes (<...>) are not ours.
#
# Run: cmake -DROOT=<source tree> -P check_layers.cmake    (exit 0, or a FATAL_ERROR per arrow)
cmake_minimum_required(VERSION 3.18)

# The files of src/core, each a piece of the core, by what it does.
set(CORE_HARNESS
  # core: the interfaces problems and solvers build on
  errors.c=core          # the error table's texts
  registry.c=core        # problem instances, spec parsing over a given table, linsys choice
  problem_catalog.h=core # that table's type (the built-in one is the harness's problem_list.c)
  jac_pattern.c=core jac_pattern.h=core  # Jacobian patterns and column groups
  user_problem.c=core    # a user's problem behind the problem type
  problem_type.h=core    # the problem interface (and its state-selection capability)
  solver_type.h=core     # the built-in solver types, declared
  solver_caps.h=core     # the solvers' capabilities as data
  condense_max.h=core    # the largest order condensed
  fail.c=core fail.h=core        # a run's failure message
  finite.c=core finite.h=core    # the finiteness check
  dense.h=core           # the column-major accessor
  cpu_time.h=core        # the process CPU clock
  struct_size.h=core     # the size rule of the public structs
)

# Which layers a layer may include.
set(ALLOW_include include)
set(ALLOW_core include core)
set(ALLOW_problems include core problems)
set(ALLOW_solvers include core solvers)
set(ALLOW_harness include core problems solvers harness)
set(ALLOW_cli include cli refsol)
set(ALLOW_refsol include refsol)
# Single headers of a layer that another may include besides its ALLOW list: refsol/ reads chain
# specs with the problems' parser.
set(ALSO_refsol problems/chain_config.h)

if(NOT ROOT)
  message(FATAL_ERROR "usage: cmake -DROOT=<source tree> -P check_layers.cmake")
endif()
get_filename_component(ROOT "${ROOT}" ABSOLUTE)

foreach(row ${CORE_HARNESS})
  string(REPLACE "=" ";" pair "${row}")
  list(GET pair 0 name)
  list(GET pair 1 layer)
  set(CORE_LAYER_${name} ${layer})
endforeach()

# The layer of a file (path relative to ROOT) into out; "" when outside the checked folders.
function(layer_of rel out)
  get_filename_component(name "${rel}" NAME)
  if(rel MATCHES "^include/")
    set(layer include)
  elseif(rel MATCHES "^src/core/")
    set(layer "${CORE_LAYER_${name}}")
    if(NOT layer)
      set(layer unplaced)
    endif()
  elseif(rel MATCHES "^src/harness/")
    set(layer harness)
  elseif(rel MATCHES "^src/cli/")
    set(layer cli)
  elseif(rel MATCHES "^problems/")
    set(layer problems)
  elseif(rel MATCHES "^solvers/")
    set(layer solvers)
  elseif(rel MATCHES "^refsol/")
    set(layer refsol)
  else()
    set(layer "")
  endif()
  set(${out} "${layer}" PARENT_SCOPE)
endfunction()

file(GLOB_RECURSE FILES RELATIVE "${ROOT}" "${ROOT}/include/*.h" "${ROOT}/src/*.c"
  "${ROOT}/src/*.h" "${ROOT}/problems/*.c" "${ROOT}/problems/*.h" "${ROOT}/solvers/*.c"
  "${ROOT}/solvers/*.h" "${ROOT}/refsol/*.c" "${ROOT}/refsol/*.h")
list(SORT FILES)
foreach(rel ${FILES})
  if(rel MATCHES "\\.h$" AND NOT rel MATCHES "^include/")
    get_filename_component(name "${rel}" NAME)
    if(DEFINED WHERE_${name})
      message(FATAL_ERROR "two private headers named ${name}: ${WHERE_${name}} and ${rel}")
    endif()
    set(WHERE_${name} "${rel}")
  endif()
endforeach()

# The file (relative to ROOT) an #include "inc" of file rel means, or "" when none is found.
function(resolve rel inc out)
  get_filename_component(dir "${ROOT}/${rel}" DIRECTORY)
  get_filename_component(name "${inc}" NAME)
  if(EXISTS "${dir}/${inc}")
    get_filename_component(abs "${dir}/${inc}" ABSOLUTE)
    file(RELATIVE_PATH found "${ROOT}" "${abs}")
  elseif(EXISTS "${ROOT}/include/${inc}")
    set(found "include/${inc}")
  elseif(DEFINED WHERE_${name} AND inc STREQUAL name)
    set(found "${WHERE_${name}}")
  else()
    set(found "")
  endif()
  set(${out} "${found}" PARENT_SCOPE)
endfunction()

set(ERRORS 0)
set(CHECKED 0)
foreach(rel ${FILES})
  layer_of("${rel}" from)
  if(from STREQUAL "unplaced")
    message(SEND_ERROR "${rel}: not in the table of src/core's layers (check_layers.cmake)")
    math(EXPR ERRORS "${ERRORS} + 1")
    continue()
  endif()
  if(NOT from)
    continue()
  endif()
  file(STRINGS "${ROOT}/${rel}" lines REGEX "^[ \t]*#[ \t]*include[ \t]*\"")
  foreach(line ${lines})
    string(REGEX REPLACE "^[ \t]*#[ \t]*include[ \t]*\"([^\"]*)\".*" "\\1" inc "${line}")
    resolve("${rel}" "${inc}" target)
    if(NOT target)
      message(SEND_ERROR "${rel}: #include \"${inc}\" names no file of ours")
      math(EXPR ERRORS "${ERRORS} + 1")
      continue()
    endif()
    layer_of("${target}" to)
    math(EXPR CHECKED "${CHECKED} + 1")
    if(NOT to IN_LIST ALLOW_${from} AND NOT target IN_LIST ALSO_${from})
      message(SEND_ERROR "${rel} (${from}) includes ${target} (${to}): an arrow up the layers")
      math(EXPR ERRORS "${ERRORS} + 1")
    endif()
  endforeach()
endforeach()

if(ERRORS GREATER 0)
  message(FATAL_ERROR "${ERRORS} include(s) break the layering (doc/design.md, \"Layers\")")
endif()
list(LENGTH FILES NFILES)
message(STATUS "layers: ${NFILES} files, ${CHECKED} includes, every one pointing down")
