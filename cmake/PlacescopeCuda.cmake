# SPDX-License-Identifier: MIT
# Sets PLACESCOPE_HAVE_CUPTI: whether the CUPTI tracer (placescope capture, libplacescope_inject.so) is built.
# It needs the CUDA 13 toolkit: the activity record structs it reads (CUpti_ActivityKernel10, ...) and
# libcupti.so.13 are CUDA 13's. No GPU is needed to build it or to run its tests (they replay recorded buffers).
# PLACESCOPE_WITH_CUPTI: AUTO builds it where the toolkit is found, ON fails the configure without it, OFF never
# builds it. Point CMake at a toolkit outside PATH with -DCUDAToolkit_ROOT=/usr/local/cuda-13.0.
set(PLACESCOPE_CUDA_MAJOR 13)
set(PLACESCOPE_HAVE_CUPTI OFF)
if(NOT PLACESCOPE_WITH_CUPTI STREQUAL "OFF")
  find_package(CUDAToolkit ${PLACESCOPE_CUDA_MAJOR} QUIET)
  if(CUDAToolkit_FOUND AND TARGET CUDA::cupti)
    set(PLACESCOPE_HAVE_CUPTI ON)
    message(STATUS "Placescope: CUDA toolkit ${CUDAToolkit_VERSION} (${CUDAToolkit_BIN_DIR}): building the CUPTI tracer")
  else()
    if(CUDAToolkit_FOUND)
      set(why "CUDA toolkit ${CUDAToolkit_VERSION} has no CUPTI (extras/CUPTI, libcupti)")
    elseif(CUDAToolkit_VERSION)
      # FindCUDAToolkit reports the version it found even when it is not the one asked for.
      set(why "found CUDA toolkit ${CUDAToolkit_VERSION} in ${CUDAToolkit_BIN_DIR}, but the tracer needs CUDA "
              "${PLACESCOPE_CUDA_MAJOR}")
    else()
      set(why "no CUDA toolkit found (nvcc is not on PATH and CUDAToolkit_ROOT is not set)")
    endif()
    string(JOIN "" why ${why})
    set(how "install the CUDA ${PLACESCOPE_CUDA_MAJOR} toolkit (HACKING.md: Building the capture parts) and configure with "
            "-DCUDAToolkit_ROOT=<its folder>, or -DPLACESCOPE_WITH_CUPTI=OFF to build without capture")
    string(JOIN "" how ${how})
    if(PLACESCOPE_WITH_CUPTI STREQUAL "ON")
      message(FATAL_ERROR "PLACESCOPE_WITH_CUPTI=ON: ${why}; ${how}")
    endif()
    message(WARNING "Placescope: ${why}. `placescope capture` and libplacescope_inject.so are not built (everything "
                    "else is); to have them, ${how}.")
  endif()
endif()
