# SPDX-License-Identifier: MIT
# placescope_embed_text(<input> <output header> <C++ identifier>): turns a text file (the trace schema, say)
# into a header holding one constexpr string, so the file stays the single documented source.
function(placescope_embed_text input output identifier)
  add_custom_command(
    OUTPUT ${output}
    COMMAND ${CMAKE_COMMAND} -DINPUT=${input} -DOUTPUT=${output} -DIDENTIFIER=${identifier}
            -P ${PROJECT_SOURCE_DIR}/cmake/embed_text.cmake
    DEPENDS ${input} ${PROJECT_SOURCE_DIR}/cmake/embed_text.cmake
    VERBATIM)
endfunction()
