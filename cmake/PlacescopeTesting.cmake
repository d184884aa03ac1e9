# SPDX-License-Identifier: MIT
# placescope_add_gtest(<name> SOURCES ... LIBS ... [LABELS ...]): one GoogleTest executable, tests discovered
# into CTest, linked with tests/support (placescope::test_support). Test code reads the shared inputs through PLACESCOPE_SOURCE_DIR / PLACESCOPE_DATA_DIR (tests/data: real traces and models copied from shared/, with SOURCES.md).
find_package(GTest REQUIRED)
include(GoogleTest)
set(PLACESCOPE_DATA_DIR "${PROJECT_SOURCE_DIR}/tests/data")
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
  gtest_discover_tests(${name} PROPERTIES LABELS "${labels}" DISCOVERY_TIMEOUT 60)
endfunction()

# placescope_add_fuzz_target(<name> SOURCE <file> CORPUS <dir> LIBS ...): a libFuzzer target <file> defining
# LLVMFuzzerTestOneInput. Every build replays the kept corpus through it as the test <name>_corpus_replay (the
# inputs that once crashed or hung stay fixed; the sanitizer preset runs them under AddressSanitizer); a
# PLACESCOPE_FUZZ build (scripts/fuzz.sh, clang) adds the libFuzzer binary <name>_fuzzer that grows the corpus.
function(placescope_add_fuzz_target name)
  cmake_parse_arguments(ARG "" "SOURCE;CORPUS" "LIBS" ${ARGN})
  add_executable(${name}_corpus_replay ${ARG_SOURCE} ${PROJECT_SOURCE_DIR}/tests/profiler/fuzz/corpus_replay_main.cpp)
  target_link_libraries(${name}_corpus_replay PRIVATE ${ARG_LIBS} placescope_warnings)
  add_test(NAME ${name}_corpus_replay COMMAND ${name}_corpus_replay ${ARG_CORPUS})
  set_tests_properties(${name}_corpus_replay PROPERTIES LABELS "unit;fuzz_corpus" TIMEOUT 600)
  if(PLACESCOPE_FUZZ)
    add_executable(${name}_fuzzer ${ARG_SOURCE})
    target_link_options(${name}_fuzzer PRIVATE -fsanitize=fuzzer)
    target_link_libraries(${name}_fuzzer PRIVATE ${ARG_LIBS} placescope_warnings)
  endif()
endfunction()
