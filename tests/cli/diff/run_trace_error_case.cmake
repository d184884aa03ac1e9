# SPDX-License-Identifier: MIT
# Bad-use case on a copy of a real trace: copies TRACE to WORK_DIR/run.sqlite (so no -wal/-shm lands in the
# source tree), runs PLACESCOPE with ARGS ('|'-separated, %TRACE% standing for the copy and %SEMI% for a ';',
# which a CMake list cannot carry), stdout to STDOUT_FILE
# when given (e.g. /dev/full), and expects a non-zero exit, exactly one line on stderr matching EXPECT, and no
# file at NO_OUTPUT (when given).
file(REMOVE_RECURSE ${WORK_DIR})
file(MAKE_DIRECTORY ${WORK_DIR})
file(COPY_FILE ${TRACE} ${WORK_DIR}/run.sqlite)
string(REPLACE "%TRACE%" "${WORK_DIR}/run.sqlite" args "${ARGS}")
string(REPLACE "%SEMI%" "\\;" args "${args}")
string(REPLACE "|" ";" args "${args}")
if(STDOUT_FILE)
  execute_process(COMMAND ${PLACESCOPE} ${args} RESULT_VARIABLE rc OUTPUT_FILE ${STDOUT_FILE} ERROR_VARIABLE err)
else()
  execute_process(COMMAND ${PLACESCOPE} ${args} RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
endif()
if(rc EQUAL 0)
  message(FATAL_ERROR "expected a failure, got exit 0")
endif()
string(REGEX MATCHALL "\n" newlines "${err}")
list(LENGTH newlines lines)
if(NOT lines EQUAL 1)
  message(FATAL_ERROR "expected one line on stderr, got ${lines}: ${err}")
endif()
if(NOT err MATCHES "${EXPECT}")
  message(FATAL_ERROR "stderr does not match '${EXPECT}': ${err}")
endif()
if(NO_OUTPUT AND EXISTS ${NO_OUTPUT})
  message(FATAL_ERROR "a failed command left ${NO_OUTPUT} behind")
endif()
