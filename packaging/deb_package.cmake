# SPDX-License-Identifier: MIT
# cpack -G DEB (run in the build folder): placescope_<version>_<arch>.deb, installed under /usr. Depends come from
# dpkg-shlibdeps over the binaries (Qt 6, Graphviz's libgvc, libonnx, protobuf, ISA-L, simdjson, sqlite3, zlib,
# libstdc++), plus the packages the run time needs beyond linked libraries. The injection library links CUDA's
# libcupti, which no Debian package provides: capture needs a CUDA 13 driver and toolkit on the machine.
set(CPACK_PACKAGE_NAME placescope)
set(CPACK_PACKAGE_VERSION ${PROJECT_VERSION})
set(CPACK_PACKAGE_VENDOR "The Placescope developers")
set(CPACK_PACKAGE_CONTACT "The Placescope developers <placescope@users.noreply.github.com>")
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY "find and fix wasted GPU time: traces, findings, CPU/GPU placement")
set(CPACK_PACKAGE_DESCRIPTION "Placescope records what a model run does on the GPU (CUPTI capture), imports PyTorch
profiler (Kineto) and Nsight Systems SQLite traces, shows them as a timeline and op graph (placescope-gui),
finds where time is lost and proposes CPU/GPU placement and data layouts with the saving it predicts.
Capture (placescope capture) needs the CUDA 13 toolkit's CUPTI and an NVIDIA driver.")
set(CPACK_RESOURCE_FILE_LICENSE ${PROJECT_SOURCE_DIR}/LICENSE)
set(CPACK_PACKAGING_INSTALL_PREFIX /usr)
set(CPACK_STRIP_FILES ON)
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT) # placescope_0.1.0_amd64.deb
set(CPACK_DEBIAN_PACKAGE_SECTION devel)
set(CPACK_DEBIAN_PACKAGE_PRIORITY optional)
set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS ON)
# Graphviz (libgvc6, with its layout plugins) comes from the GUI's libraries;
# shared-mime-info and hicolor-icon-theme hold what the desktop entry and MIME type plug into.
set(CPACK_DEBIAN_PACKAGE_DEPENDS "shared-mime-info, hicolor-icon-theme")
set(CPACK_GENERATOR DEB)
include(CPack)
