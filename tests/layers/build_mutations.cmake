# The build enforces the layers (ctest `layers_build`): each layer of the library is an object
# library compiled with only the include folders it may use (CMakeLists.txt, doc/design.md
# "Layers"), and the command sees the public API only.  This script compiles copies of one file of
# each layer with exactly the include folders the build gives that layer (passed in from the
# targets' INCLUDE_DIRECTORIES): as it is, the copy compiles; with an upward or sideways #include
# planted, it must fail, naming the header the compiler could not find.  A harness file that
# includes a solver's and a core header compiles (the arrows down stay open).
#
# Run: cmake -DCC=<C compiler> -DROOT=<source tree> -DWORK=<scratch folder>
#        -DINC_core=<dirs> -DINC_problems=<dirs> -DINC_solvers=<dirs> -DINC_harness=<dirs>
#        -DINC_cli=<dirs> -P build_mutations.cmake
cmake_minimum_required(VERSION 3.18)
foreach(var CC ROOT WORK INC_core INC_problems INC_solvers INC_harness INC_cli)
  if(NOT ${var})
    message(FATAL_ERROR "build_mutations.cmake: -D${var}=... missing")
  endif()
endforeach()
file(REMOVE_RECURSE "${WORK}")
file(MAKE_DIRECTORY "${WORK}")

# Compile a copy of ROOT/rel, with `planted` appended (an #include line, or ""), with the include
# folders of layer; expect = PASS, or the header whose absence must fail it.
set(COUNT 0)
function(expect layer rel planted expect)
  math(EXPR n "${COUNT} + 1")
  set(COUNT ${n} PARENT_SCOPE)
  get_filename_component(name "${rel}" NAME)
  set(copy "${WORK}/${n}_${name}")
  file(READ "${ROOT}/${rel}" text)
  file(WRITE "${copy}" "${text}${planted}")
  set(flags "")
  foreach(dir ${INC_${layer}})
    list(APPEND flags "-I${dir}")
  endforeach()
  execute_process(COMMAND ${CC} -std=c11 -D_POSIX_C_SOURCE=200809L -fsyntax-only ${flags} "${copy}"
    RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
  string(REPLACE "\n" " " text "${out}${err}")
  string(STRIP "${planted}" line)
  set(what "${rel} (${layer})")
  if(line)
    set(what "${what} + ${line}")
  endif()
  if(expect STREQUAL "PASS")
    if(NOT rc EQUAL 0)
      message(FATAL_ERROR "${what}: does not compile with the layer's include folders: ${text}")
    endif()
  elseif(rc EQUAL 0)
    message(FATAL_ERROR "${what}: compiled; the build must refuse it (${expect} not found)")
  elseif(NOT text MATCHES "${expect}")
    message(FATAL_ERROR "${what}: failed, but not for want of ${expect}: ${text}")
  endif()
  message(STATUS "${what}: as expected (${expect})")
endfunction()

set(INC "\n#include ")
# Each layer's file as it is compiles with its layer's folders.
expect(core src/core/registry.c "" PASS)
expect(problems problems/pendulum.c "" PASS)
expect(solvers solvers/driver.c "" PASS)
expect(harness src/harness/unit_costs.c "" PASS)
expect(cli src/cli/cmd_bench.c "" PASS)
# Down is open: a harness file may include a problem's header.
expect(harness src/harness/unit_costs.c "${INC}\"mechanical.h\"\n" PASS)

# The core includes nothing above it: no problem, no solver, no harness header.
expect(core src/core/registry.c "${INC}\"mechanical.h\"\n" "mechanical\\.h")
expect(core src/core/registry.c "${INC}\"linsys.h\"\n" "linsys\\.h")
expect(core src/core/registry.c "${INC}\"solver_list.h\"\n" "solver_list\\.h")
# Problems and solvers never include each other, nor the harness.
expect(problems problems/pendulum.c "${INC}\"linsys.h\"\n" "linsys\\.h")
expect(problems problems/pendulum.c "${INC}\"solver_list.h\"\n" "solver_list\\.h")
expect(solvers solvers/driver.c "${INC}\"mechanical.h\"\n" "mechanical\\.h")
expect(solvers solvers/driver.c "${INC}\"record_side.h\"\n" "record_side\\.h")
# The command sees the public API only.
expect(cli src/cli/cmd_bench.c "${INC}\"solver_caps.h\"\n" "solver_caps\\.h")
expect(cli src/cli/cmd_bench.c "${INC}\"options.h\"\n" "options\\.h")

file(REMOVE_RECURSE "${WORK}")
message(STATUS "layers_build: ${COUNT} compiles as expected")
