# SPDX-License-Identifier: MIT
# placescope_warnings: the warning set every project target links PRIVATE. CI's build (preset ci) turns warnings
# into errors with PLACESCOPE_WERROR, so a warning cannot land.
option(PLACESCOPE_WERROR "Treat compiler warnings as errors" OFF)
add_library(placescope_warnings INTERFACE)
target_compile_options(placescope_warnings INTERFACE -Wall -Wextra -Wshadow -Wno-unused-parameter)
if(PLACESCOPE_WERROR)
  target_compile_options(placescope_warnings INTERFACE -Werror)
endif()
