# SPDX-License-Identifier: MIT
# placescope_add_gtest(<name> SOURCES ... LIBS ... [LABELS ...]): one GoogleTest executable, tests discovered
# into CTest. Test code reads the shared inputs through PLACESCOPE_SOURCE_DIR / PLACESCOPE_DATA_DIR (tests/data: real traces and models copied from shared/, with SOURCES.md).
find_package(GTest REQUIRED)
include(GoogleTest)
set(PLACESCOPE_DATA_DIR "${PROJECT_SOURCE_DIR}/tests/data")
function(placescope_add_gtest name)
  cmake_parse_arguments(ARG "" "" "SOURCES;LIBS;LABELS" ${ARGN})
  add_executable(${name} ${ARG_SOURCES})
  target_link_libraries(${name} PRIVATE ${ARG_LIBS} GTest::gtest GTest::gtest_main placescope_warnings)
  target_compile_definitions(${name} PRIVATE
    PLACESCOPE_SOURCE_DIR="${PROJECT_SOURCE_DIR}" PLACESCOPE_DATA_DIR="${PLACESCOPE_DATA_DIR}"
    PLACESCOPE_BIN_DIR="${PROJECT_BINARY_DIR}/bin")
  set(labels ${ARG_LABELS})
  if(NOT labels)
    set(labels unit)
  endif()
  gtest_discover_tests(${name} PROPERTIES LABELS "${labels}" DISCOVERY_TIMEOUT 60)
endfunction()
