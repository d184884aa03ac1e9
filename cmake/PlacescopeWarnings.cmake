# SPDX-License-Identifier: MIT
# placescope_warnings: the warning set every project target links PRIVATE. CI's build (preset ci) turns warnings
# into errors with PLACESCOPE_WERROR, so a warning cannot land.
option(PLACESCOPE_WERROR "Treat compiler warnings as errors" OFF)
add_library(placescope_warnings INTERFACE)
# -Wno-restrict: GCC 12 reports overlapping memcpy inside libstdc++'s char_traits for plain string concatenation at
# -O2 (GCC bug 105329, fixed in GCC 13); it fired in seven files of ours, none of which copies overlapping memory.
target_compile_options(placescope_warnings INTERFACE -Wall -Wextra -Wshadow -Wno-unused-parameter -Wno-restrict)
if(PLACESCOPE_WERROR)
  target_compile_options(placescope_warnings INTERFACE -Werror)
endif()
