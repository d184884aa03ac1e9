# SPDX-License-Identifier: MIT
# One golden diff case: placescope import <inputs> -o trace.sqlite; placescope query trace.sqlite --file
# query.sql > actual.csv; compare with expected.csv. Variables: PLACESCOPE, CASE_DIR, DATA_DIR, WORK_DIR.
file(REMOVE_RECURSE ${WORK_DIR})
file(MAKE_DIRECTORY ${WORK_DIR})
file(STRINGS ${CASE_DIR}/input input_lines)
set(inputs "")
foreach(line ${input_lines})
  string(STRIP "${line}" line)
  if(line MATCHES "^\\./")
    list(APPEND inputs ${CASE_DIR}/${line}) # a fixture kept in the case folder
  elseif(line AND NOT line MATCHES "^#")
    list(APPEND inputs ${DATA_DIR}/${line})
  endif()
endforeach()
if(NOT inputs)
  message(FATAL_ERROR "${CASE_DIR}/input names no trace")
endif()
set(trace ${WORK_DIR}/trace.sqlite)
execute_process(COMMAND ${PLACESCOPE} import ${inputs} -o ${trace}
  RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "placescope import failed (${rc}): ${out}${err}")
endif()
execute_process(COMMAND ${PLACESCOPE} query ${trace} --file ${CASE_DIR}/query.sql
  RESULT_VARIABLE rc OUTPUT_FILE ${WORK_DIR}/actual.csv ERROR_VARIABLE err)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "placescope query failed (${rc}): ${err}")
endif()
execute_process(COMMAND ${CMAKE_COMMAND} -E compare_files ${CASE_DIR}/expected.csv ${WORK_DIR}/actual.csv
  RESULT_VARIABLE same)
if(NOT same EQUAL 0)
  file(READ ${CASE_DIR}/expected.csv expected)
  file(READ ${WORK_DIR}/actual.csv actual)
  message(FATAL_ERROR "output differs from ${CASE_DIR}/expected.csv\n--- expected\n${expected}--- actual\n${actual}")
endif()
