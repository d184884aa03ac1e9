# SPDX-License-Identifier: MIT
# Script mode helper for placescope_embed_text: writes INPUT as a raw string literal into OUTPUT.
file(READ ${INPUT} content)
file(WRITE ${OUTPUT} "// Generated from ${INPUT}; do not edit.\n#pragma once\n"
     "inline constexpr const char ${IDENTIFIER}[] = R\"placescope_embed(${content})placescope_embed\";\n")
