# The layer and guard checks can fail (ctest `layers_mutations`): on scratch copies of the source
# tree it plants upward includes (refsol/ to a problem header other than the chain's parser
# too), a file of src/core outside the table and a declaration after a
# header's guard, each of which a check must refuse naming the file, and a core file includes
# a harness file by a relative path, which the check must refuse by folder.
#
# Run: cmake -DROOT=<source tree> -DWORK=<scratch folder> -P mutations.cmake
cmake_minimum_required(VERSION 3.18)
if(NOT ROOT OR NOT WORK)
  message(FATAL_ERROR "usage: cmake -DROOT=<source tree> -DWORK=<scratch folder> -P mutations.cmake")
endif()
set(CHECK "${CMAKE_CURRENT_LIST_DIR}/check_layers.cmake")
set(GUARDS "${CMAKE_CURRENT_LIST_DIR}/header_guards.cmake")

# A fresh copy of the checked folders in WORK/name.
function(fresh_copy name)
  file(REMOVE_RECURSE "${WORK}/${name}")
  foreach(dir include src problems solvers refsol)
    file(COPY "${ROOT}/${dir}" DESTINATION "${WORK}/${name}")
  endforeach()
endfunction()

# Run the check (CHECK unless given as a third argument) on WORK/name; expect = PASS, or a text
# its failure must contain.
function(expect name expect)
  set(script "${CHECK}")
  if(ARGC GREATER 2)
    set(script "${ARGV2}")
  endif()
  execute_process(COMMAND ${CMAKE_COMMAND} -DROOT=${WORK}/${name} -P ${script}
    RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
  string(REPLACE "\n" " " text "${out}${err}")
  string(REGEX REPLACE "  +" " " text "${text}")
  if(expect STREQUAL "PASS")
    if(NOT rc EQUAL 0)
      message(FATAL_ERROR "${name}: the check refused a layered tree: ${text}")
    endif()
  elseif(rc EQUAL 0)
    message(FATAL_ERROR "${name}: the check passed; it must fail with '${expect}'")
  elseif(NOT text MATCHES "${expect}")
    message(FATAL_ERROR "${name}: the check failed without '${expect}': ${text}")
  endif()
  message(STATUS "${name}: as expected (${expect})")
endfunction()

# The tree as it is passes.
fresh_copy(as_is)
expect(as_is PASS)

# A core file including a solver's header (the arrow unit_costs.c had, were it core).
fresh_copy(core_up)
file(APPEND "${WORK}/core_up/src/core/registry.c" "#include \"linsys.h\"\n")
expect(core_up "src/core/registry.c \\(core\\) includes solvers/linsys.h \\(solvers\\)")

# A problem including a solver's header (mechanical.c's weights.h, before the finiteness check
# moved to the core).
fresh_copy(sideways)
file(APPEND "${WORK}/sideways/problems/mechanical.c" "#include \"weights.h\"\n")
expect(sideways "problems/mechanical.c \\(problems\\) includes solvers/weights.h")

# A solver including a harness header, by a relative path.
fresh_copy(solver_up)
file(APPEND "${WORK}/solver_up/solvers/driver.c" "#include \"../src/harness/record_side.h\"\n")
expect(solver_up "solvers/driver.c \\(solvers\\) includes src/harness/record_side.h \\(harness\\)")

# The command including a private header of the library.
fresh_copy(cli_private)
file(APPEND "${WORK}/cli_private/src/cli/cmd_bench.c" "#include \"solver_caps.h\"\n")
expect(cli_private "src/cli/cmd_bench.c \\(cli\\) includes src/core/solver_caps.h \\(core\\)")

# A reference generator including a problem header other than the chain's parser.
fresh_copy(refsol_private)
file(APPEND "${WORK}/refsol_private/refsol/chain_ref.c" "#include \"mechanical.h\"\n")
expect(refsol_private "refsol/chain_ref.c \\(refsol\\) includes problems/mechanical.h \\(problems\\)")

# A new file in src/core that the table does not place.
fresh_copy(unplaced)
file(WRITE "${WORK}/unplaced/src/core/new_thing.c" "#include \"mbdae/mbdae.h\"\n")
expect(unplaced "src/core/new_thing.c: not in the table")

# A core file including what lives in src/harness is refused by folder.
fresh_copy(core_to_harness)
file(APPEND "${WORK}/core_to_harness/src/core/fail.c" "#include \"../harness/unit_costs.c\"\n")
expect(core_to_harness "src/core/fail.c \\(core\\) includes src/harness/unit_costs.c \\(harness\\)")

# linsys.h as it was: the guard closed above mbdae_itmat.
fresh_copy(guard)
expect(guard PASS "${GUARDS}")
file(READ "${WORK}/guard/solvers/linsys.h" text)
string(REPLACE "#endif /* MBDAE_LINSYS_H */" "" text "${text}")
string(REPLACE "/* ---- iteration matrices" "#endif /* MBDAE_LINSYS_H */\n/* ---- iteration matrices"
  text "${text}")
file(WRITE "${WORK}/guard/solvers/linsys.h" "${text}")
expect(guard "solvers/linsys.h: not wholly inside an include guard" "${GUARDS}")

file(REMOVE_RECURSE "${WORK}")
