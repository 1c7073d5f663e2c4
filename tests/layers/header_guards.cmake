# The include guards (ctest `header_guards`): every header of include/, src/, problems/ and
# solvers/ opens with #ifndef X / #define X as its first directives and ends with the #endif that
# closes them, so that including it twice is harmless.  solvers/linsys.h closed its guard above
# mbdae_itmat, and a second inclusion redefined the struct (tests/test_linsys_guard.c compiles
# that case).
#
# Run: cmake -DROOT=<source tree> -P header_guards.cmake
cmake_minimum_required(VERSION 3.18)
if(NOT ROOT)
  message(FATAL_ERROR "usage: cmake -DROOT=<source tree> -P header_guards.cmake")
endif()
file(GLOB_RECURSE HEADERS RELATIVE "${ROOT}" "${ROOT}/include/*.h" "${ROOT}/src/*.h"
  "${ROOT}/problems/*.h" "${ROOT}/solvers/*.h")
list(SORT HEADERS)
set(ERRORS 0)
foreach(rel ${HEADERS})
  file(STRINGS "${ROOT}/${rel}" directives REGEX "^[ \t]*#")
  list(LENGTH directives n)
  set(ok 0)
  if(n GREATER 2)
    list(GET directives 0 first)
    list(GET directives 1 second)
    if(first MATCHES "^#ifndef[ \t]+([A-Za-z0-9_]+)[ \t]*$")
      set(guard "${CMAKE_MATCH_1}")
      if(second MATCHES "^#define[ \t]+${guard}[ \t]*$")
        set(ok 1)
      endif()
    endif()
  endif()
  # The last line that is not blank must be the guard's #endif: nothing after it.
  file(READ "${ROOT}/${rel}" text)
  string(REGEX REPLACE "[ \t\r\n]+$" "" text "${text}")
  string(REGEX MATCH "[^\n]*$" last "${text}")
  if(NOT ok OR NOT last MATCHES "^#endif")
    message(SEND_ERROR "${rel}: not wholly inside an include guard (#ifndef X, #define X first, "
      "#endif last; last line: '${last}')")
    math(EXPR ERRORS "${ERRORS} + 1")
  endif()
endforeach()
if(ERRORS GREATER 0)
  message(FATAL_ERROR "${ERRORS} header(s) without a whole include guard")
endif()
list(LENGTH HEADERS NHEADERS)
message(STATUS "header_guards: ${NHEADERS} headers, each wholly guarded")
