# SPDX-License-Identifier: MIT
# `placescope export TRACE -o -` writes to standard output exactly what `-o FILE` writes to the file, its summary
# goes to stderr, and its temporary copy does not stay in TMPDIR (WORK_DIR/tmp here).
file(REMOVE_RECURSE ${WORK_DIR})
file(MAKE_DIRECTORY ${WORK_DIR}/tmp)
file(COPY_FILE ${TRACE} ${WORK_DIR}/run.sqlite)
set(ENV{TMPDIR} ${WORK_DIR}/tmp)
execute_process(COMMAND ${PLACESCOPE} export ${WORK_DIR}/run.sqlite -o - OUTPUT_FILE ${WORK_DIR}/stdout.json
  RESULT_VARIABLE rc ERROR_VARIABLE err)
if(NOT rc EQUAL 0 OR NOT err MATCHES "wrote standard output")
  message(FATAL_ERROR "export -o - failed (${rc}): ${err}")
endif()
execute_process(COMMAND ${PLACESCOPE} export ${WORK_DIR}/run.sqlite -o ${WORK_DIR}/file.json RESULT_VARIABLE rc OUTPUT_QUIET)
file(SIZE ${WORK_DIR}/stdout.json size)
execute_process(COMMAND ${CMAKE_COMMAND} -E compare_files ${WORK_DIR}/stdout.json ${WORK_DIR}/file.json RESULT_VARIABLE same)
if(NOT rc EQUAL 0 OR NOT same EQUAL 0 OR size LESS 1000)
  message(FATAL_ERROR "export -o - (${size} bytes) differs from export -o FILE")
endif()
file(GLOB left ${WORK_DIR}/tmp/*)
if(left)
  message(FATAL_ERROR "the temporary export stayed: ${left}")
endif()
