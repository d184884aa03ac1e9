# SPDX-License-Identifier: MIT
# placescope_warnings: the warning set every project target links PRIVATE.
add_library(placescope_warnings INTERFACE)
target_compile_options(placescope_warnings INTERFACE -Wall -Wextra -Wno-unused-parameter)
