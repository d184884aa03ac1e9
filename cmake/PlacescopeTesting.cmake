# SPDX-License-Identifier: MIT
# placescope_add_gtest(<name> SOURCES ... LIBS ... [LABELS ...]): one GoogleTest executable, tests discovered
# into CTest with LABELS (default: unit; add asan / tsan to run it in that sanitizer suite), linked with tests/support (placescope::test_support). Test code reads the shared inputs through PLACESCOPE_SOURCE_DIR / PLACESCOPE_DATA_DIR (tests/data: real traces and models copied from shared/, with SOURCES.md).
find_package(GTest REQUIRED)
include(GoogleTest)
set(PLACESCOPE_DATA_DIR "${PROJECT_SOURCE_DIR}/tests/data")
# The sanitizer suites: a test labelled "asan" (the unit suite without GUI, the fuzz corpora) or "tsan" (the
# importers, the store, the capture writer) is built by the target asan_suite / tsan_suite, which the build presets
# of the same name build, and run by the test presets of the same name (label filter).
add_custom_target(asan_suite)
add_custom_target(tsan_suite)
function(placescope_add_to_sanitizer_suites target labels)
  foreach(suite asan tsan)
    if(suite IN_LIST labels)
      add_dependencies(${suite}_suite ${target})
    endif()
  endforeach()
endfunction()

function(placescope_add_gtest name)
  cmake_parse_arguments(ARG "" "" "SOURCES;LIBS;LABELS" ${ARGN})
  add_executable(${name} ${ARG_SOURCES})
  target_link_libraries(${name} PRIVATE ${ARG_LIBS} placescope::test_support GTest::gtest GTest::gtest_main placescope_warnings)
  target_compile_definitions(${name} PRIVATE
    PLACESCOPE_SOURCE_DIR="${PROJECT_SOURCE_DIR}" PLACESCOPE_DATA_DIR="${PLACESCOPE_DATA_DIR}"
    PLACESCOPE_BIN_DIR="${PROJECT_BINARY_DIR}/bin")
  set(labels ${ARG_LABELS})
  if(NOT labels)
    set(labels unit)
  endif()
  gtest_discover_tests(${name} DISCOVERY_TIMEOUT 60)
  # The labels go on through a CTest include file of our own, read after the discovered tests' (which define the
  # list ${name}_TESTS), not through gtest_discover_tests(PROPERTIES): its discovery script flattens a list-valued
  # property, so LABELS "unit;asan" became the label unit and a property named asan.
  set(label_file ${CMAKE_CURRENT_BINARY_DIR}/${name}_labels.cmake)
  file(WRITE ${label_file} "if(DEFINED ${name}_TESTS)\n  set_tests_properties(\${${name}_TESTS} PROPERTIES LABELS \"${labels}\")\nendif()\n")
  set_property(DIRECTORY APPEND PROPERTY TEST_INCLUDE_FILES ${label_file})
  placescope_add_to_sanitizer_suites(${name} "${labels}")
endfunction()

# placescope_add_fuzz_target(<name> SOURCE <file> CORPUS <dir> LIBS ...): a libFuzzer target <file> defining
# LLVMFuzzerTestOneInput. Every build replays the kept corpus through it as the test <name>_corpus_replay (the
# inputs that once crashed or hung stay fixed; the asan preset runs them under AddressSanitizer and UBSan); a
# PLACESCOPE_FUZZ build (scripts/fuzz.sh, clang) adds the libFuzzer binary <name>_fuzzer that grows the corpus.
function(placescope_add_fuzz_target name)
  cmake_parse_arguments(ARG "" "SOURCE;CORPUS" "LIBS" ${ARGN})
  add_executable(${name}_corpus_replay ${ARG_SOURCE} ${PROJECT_SOURCE_DIR}/tests/profiler/fuzz/corpus_replay_main.cpp)
  target_link_libraries(${name}_corpus_replay PRIVATE ${ARG_LIBS} placescope_warnings)
  add_test(NAME ${name}_corpus_replay COMMAND ${name}_corpus_replay ${ARG_CORPUS})
  set_tests_properties(${name}_corpus_replay PROPERTIES LABELS "unit;fuzz_corpus;asan" TIMEOUT 600)
  placescope_add_to_sanitizer_suites(${name}_corpus_replay "asan")
  if(PLACESCOPE_FUZZ)
    add_executable(${name}_fuzzer ${ARG_SOURCE})
    target_link_options(${name}_fuzzer PRIVATE -fsanitize=fuzzer)
    target_link_libraries(${name}_fuzzer PRIVATE ${ARG_LIBS} placescope_warnings)
  endif()
endfunction()
