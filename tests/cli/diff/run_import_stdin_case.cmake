# SPDX-License-Identifier: MIT
# `placescope import - -o OUT < TRACE`: the trace read from standard input gives the same kernels as the file,
# PS_META names it "stdin", and no temporary copy stays behind in TMPDIR (WORK_DIR/tmp here).
file(REMOVE_RECURSE ${WORK_DIR})
file(MAKE_DIRECTORY ${WORK_DIR}/tmp)
set(ENV{TMPDIR} ${WORK_DIR}/tmp)
execute_process(COMMAND ${PLACESCOPE} import - -o ${WORK_DIR}/piped.sqlite INPUT_FILE ${TRACE} RESULT_VARIABLE rc
  ERROR_VARIABLE err OUTPUT_QUIET)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "import from stdin failed (${rc}): ${err}")
endif()
execute_process(COMMAND ${PLACESCOPE} import ${TRACE} -o ${WORK_DIR}/direct.sqlite RESULT_VARIABLE rc OUTPUT_QUIET)
set(sql "SELECT COUNT(*), SUM(end - start) FROM CUPTI_ACTIVITY_KIND_KERNEL")
execute_process(COMMAND ${PLACESCOPE} query ${WORK_DIR}/piped.sqlite ${sql} OUTPUT_VARIABLE piped)
execute_process(COMMAND ${PLACESCOPE} query ${WORK_DIR}/direct.sqlite ${sql} OUTPUT_VARIABLE direct)
if(NOT piped STREQUAL direct OR piped STREQUAL "")
  message(FATAL_ERROR "kernels differ: stdin gave '${piped}', the file '${direct}'")
endif()
execute_process(COMMAND ${PLACESCOPE} query ${WORK_DIR}/piped.sqlite
  "SELECT value FROM PS_META WHERE key = 'source_file'" OUTPUT_VARIABLE name)
if(NOT name MATCHES "stdin")
  message(FATAL_ERROR "PS_META source_file is '${name}', expected stdin")
endif()
file(GLOB left ${WORK_DIR}/tmp/*)
if(left)
  message(FATAL_ERROR "the temporary copy of stdin stayed: ${left}")
endif()
