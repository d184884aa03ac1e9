# SPDX-License-Identifier: MIT
# cmake/PlacescopeCuda.cmake decides and explains (issue 19). Three configures of a probe project:
#  1. the module as it is: the tracer is built exactly where a CUDA 13 toolkit with CUPTI is found, as in the main
#     build (EXPECT_CUPTI, unless that was built with PLACESCOPE_WITH_CUPTI=OFF), else one warning says why and how to get it, and the configure goes on;
#  2. the module asking for CUDA 99, which no machine has: AUTO configures without the tracer and says why (the
#     version found, or no toolkit), never building against the wrong record structs;
#  3. the same with PLACESCOPE_WITH_CUPTI=ON: the configure fails with that reason.
# Args: SOURCE_DIR, WORK_DIR, EXPECT_CUPTI and WITH_CUPTI (the main build's PLACESCOPE_HAVE_CUPTI and
# PLACESCOPE_WITH_CUPTI).
file(REMOVE_RECURSE ${WORK_DIR})
file(MAKE_DIRECTORY ${WORK_DIR})
set(probe ${SOURCE_DIR}/tests/cmake/cuda_toolkit/probe)

function(configure_probe name module)
  execute_process(COMMAND ${CMAKE_COMMAND} -S ${probe} -B ${WORK_DIR}/${name} -DMODULE=${module} ${ARGN}
    RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
  string(REGEX REPLACE "[ \n]+" " " text "${out}${err}") # CMake wraps warnings: compare on one line
  set(rc ${rc} PARENT_SCOPE)
  set(text "${text}" PARENT_SCOPE)
endfunction()

# 1. As it is.
configure_probe(as_is ${SOURCE_DIR}/cmake/PlacescopeCuda.cmake)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "the probe failed to configure (${rc}): ${text}")
endif()
set(probe_has_cupti OFF)
if(text MATCHES "PLACESCOPE_HAVE_CUPTI=ON")
  set(probe_has_cupti ON)
endif()
# A main build configured with PLACESCOPE_WITH_CUPTI=OFF has no tracer by choice: nothing to compare with.
if(NOT WITH_CUPTI STREQUAL "OFF" AND NOT probe_has_cupti STREQUAL EXPECT_CUPTI)
  message(FATAL_ERROR "the main build's tracer is ${EXPECT_CUPTI}, the probe's ${probe_has_cupti}: ${text}")
endif()
if(probe_has_cupti)
  if(NOT text MATCHES "CUDA toolkit 13\\.[0-9.]+ \\(.*\\): building the CUPTI tracer")
    message(FATAL_ERROR "the tracer is built without a status line naming a CUDA 13 toolkit: ${text}")
  endif()
elseif(NOT text MATCHES "placescope capture. and libplacescope_inject.so are not built.*-DCUDAToolkit_ROOT")
  message(FATAL_ERROR "no warning saying what is missing and how to get it: ${text}")
endif()

# 2. A version no machine has.
file(READ ${SOURCE_DIR}/cmake/PlacescopeCuda.cmake module)
string(REPLACE "set(PLACESCOPE_CUDA_MAJOR 13)" "set(PLACESCOPE_CUDA_MAJOR 99)" module99 "${module}")
if(module99 STREQUAL module)
  message(FATAL_ERROR "cmake/PlacescopeCuda.cmake no longer sets PLACESCOPE_CUDA_MAJOR 13: update this test")
endif()
file(WRITE ${WORK_DIR}/PlacescopeCuda99.cmake "${module99}")
configure_probe(v99 ${WORK_DIR}/PlacescopeCuda99.cmake)
if(NOT rc EQUAL 0 OR NOT text MATCHES "PLACESCOPE_HAVE_CUPTI=OFF")
  message(FATAL_ERROR "AUTO with no CUDA 99 must configure without the tracer (${rc}): ${text}")
endif()
if(probe_has_cupti AND NOT text MATCHES "found CUDA toolkit 13\\.[0-9.]+ in .*, but the tracer needs CUDA 99")
  message(FATAL_ERROR "the warning does not name the toolkit found and the one needed: ${text}")
endif()
if(NOT probe_has_cupti AND NOT text MATCHES "needs CUDA 99|no CUDA toolkit found")
  message(FATAL_ERROR "the warning does not say why: ${text}")
endif()

# 3. Required but absent: the configure stops, with the reason.
configure_probe(v99_on ${WORK_DIR}/PlacescopeCuda99.cmake -DPLACESCOPE_WITH_CUPTI=ON)
if(rc EQUAL 0 OR NOT text MATCHES "PLACESCOPE_WITH_CUPTI=ON: (found CUDA toolkit|no CUDA toolkit)")
  message(FATAL_ERROR "PLACESCOPE_WITH_CUPTI=ON without CUDA 99 must fail with the reason (${rc}): ${text}")
endif()
