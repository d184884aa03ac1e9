# SPDX-License-Identifier: MIT
# Runs PROGRAM with ARGS ('|'-separated) and requires exit code EXPECT_RC; a usage error (2) must also say why
# in one stderr line, 'placescope [command]: ...', like every other error.
string(REPLACE "|" ";" args "${ARGS}")
execute_process(COMMAND ${PROGRAM} ${args} RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
if(NOT rc STREQUAL EXPECT_RC)
  message(FATAL_ERROR "${PROGRAM} ${args}: exit ${rc}, expected ${EXPECT_RC}\nstdout: ${out}\nstderr: ${err}")
endif()
if(EXPECT_RC STREQUAL "2" AND NOT err MATCHES "^placescope[^\n]*: [^\n]+\n$")
  message(FATAL_ERROR "${PROGRAM} ${args}: exit 2 but stderr is not one line 'placescope [command]: ...':\n${err}")
endif()
