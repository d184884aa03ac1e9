# SPDX-License-Identifier: MIT
# Builds the .deb from BUILD_DIR into WORK_DIR and checks what it holds and what it depends on.
if(NOT CPACK OR NOT EXISTS "${CPACK}" OR NOT DPKG_DEB OR NOT EXISTS "${DPKG_DEB}")
  message("cpack or dpkg-deb missing: skipped")
  cmake_language(EXIT 77)
endif()
file(REMOVE_RECURSE ${WORK_DIR})
file(MAKE_DIRECTORY ${WORK_DIR})
execute_process(COMMAND ${CPACK} -G DEB --config ${BUILD_DIR}/CPackConfig.cmake -B ${WORK_DIR}
  WORKING_DIRECTORY ${WORK_DIR} RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
file(GLOB debs ${WORK_DIR}/placescope_*.deb)
list(LENGTH debs count)
if(NOT rc EQUAL 0 OR NOT count EQUAL 1)
  message(FATAL_ERROR "cpack -G DEB failed (${rc}, ${count} packages):\n${out}\n${err}")
endif()
execute_process(COMMAND ${DPKG_DEB} --contents ${debs} OUTPUT_VARIABLE contents RESULT_VARIABLE rc)
execute_process(COMMAND ${DPKG_DEB} --field ${debs} Package Version Architecture Depends OUTPUT_VARIABLE fields)
message("${debs}\n${fields}\n${contents}") # the listing, for CI logs

set(expected ./usr/bin/placescope ./usr/share/applications/placescope.desktop ./usr/share/mime/packages/placescope.xml
  ./usr/share/icons/hicolor/48x48/apps/placescope.png ./usr/share/icons/hicolor/scalable/apps/placescope.svg
  ./usr/share/man/man1/placescope.1.gz ./usr/share/man/man1/placescope-stats.1.gz
  ./usr/share/bash-completion/completions/placescope ./usr/share/zsh/vendor-completions/_placescope
  ./usr/share/doc/placescope/LICENSE ./usr/share/placescope/samples/)
set(depends libc6 libsqlite3-0 libisal2 libre2 libsimdjson14 libonnx1 libprotobuf shared-mime-info)
if(HAVE_GUI)
  list(APPEND expected ./usr/bin/placescope-gui ./usr/share/man/man1/placescope-gui.1.gz)
  list(APPEND depends libqt6widgets6 libgvc6)
endif()
foreach(path ${expected})
  string(REPLACE "." "\\." pattern "${path}")
  if(NOT contents MATCHES " ${pattern}\n")
    message(FATAL_ERROR "${debs} lacks ${path}")
  endif()
endforeach()
foreach(package ${depends})
  if(NOT fields MATCHES "Depends: [^\n]*(${package})")
    message(FATAL_ERROR "${debs}: Depends lacks ${package}:\n${fields}")
  endif()
endforeach()
if(contents MATCHES "/usr/local/|/work/|/build")
  message(FATAL_ERROR "${debs} holds files outside /usr's layout")
endif()
