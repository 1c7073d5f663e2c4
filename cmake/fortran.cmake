# The Fortran part (src/fortran/, tests/fortran/), included from the top-level CMakeLists.txt in
# file scope: MBDAE_FORTRAN=AUTO builds it when CMake finds a Fortran compiler (CheckLanguage),
# ON requires one, OFF leaves it out; the configure output says which.  enable_language is called
# here, at the top level, so that the tests in tests/fortran/ may compile Fortran too.
set(MBDAE_FORTRAN AUTO CACHE STRING
  "Build the Fortran module mbdae and the test-set interface (src/fortran/): AUTO when a Fortran compiler is found, ON, OFF")
set_property(CACHE MBDAE_FORTRAN PROPERTY STRINGS AUTO ON OFF)
if(NOT MBDAE_FORTRAN MATCHES "^(AUTO|ON|OFF)$")
  message(FATAL_ERROR "MBDAE_FORTRAN=${MBDAE_FORTRAN}: AUTO, ON or OFF")
endif()
set(MBDAE_HAVE_FORTRAN OFF)
if(MBDAE_FORTRAN STREQUAL "OFF")
  message(STATUS "mbdae Fortran module: not built (MBDAE_FORTRAN=OFF)")
else()
  include(CheckLanguage)
  check_language(Fortran)
  if(CMAKE_Fortran_COMPILER)
    enable_language(Fortran)
    set(MBDAE_HAVE_FORTRAN ON)
    message(STATUS "mbdae Fortran module: ${CMAKE_Fortran_COMPILER} (${CMAKE_Fortran_COMPILER_ID} "
      "${CMAKE_Fortran_COMPILER_VERSION})")
  elseif(MBDAE_FORTRAN STREQUAL "ON")
    message(FATAL_ERROR "MBDAE_FORTRAN=ON: no Fortran compiler found (Debian: apt-get install gfortran; or -DCMAKE_Fortran_COMPILER=...)")
  else()
    message(STATUS "mbdae Fortran module: not built (no Fortran compiler found; Debian: gfortran)")
  endif()
endif()
if(MBDAE_HAVE_FORTRAN)
  add_subdirectory(src/fortran)
  add_subdirectory(examples/fortran)
  if(MBDAE_BUILD_TESTS)
    add_subdirectory(tests/fortran)
  endif()
endif()
