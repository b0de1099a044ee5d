# CPack: `cpack -G DEB` in the build folder packs what cmake/AfInstall.cmake installs into one
# Debian package under /usr (docs/install.md). Its dependencies: the shared libraries the
# executables load (found by dpkg-shlibdeps), a host C++ compiler (afc compiles every kernel with
# it at run time) and the -dev packages the CMake package's find_dependency calls need.
set(CPACK_PACKAGE_NAME autofuse)
set(CPACK_PACKAGE_VENDOR "autofuse developers")
set(CPACK_PACKAGE_CONTACT "autofuse developers <autofuse@localhost>")
set(CPACK_PACKAGE_VERSION ${PROJECT_VERSION})
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY
    "AutoFuse operator-fusion compiler (afc), its inspection viewer and library")
set(CPACK_PACKAGE_DESCRIPTION
    "An open C++ implementation of Huawei CANN's AutoFuse operator-fusion compiler for Ascend \
NPUs: the afc compiler, the afviewer Qt 6 inspection tool, the CPU AscendC runtime headers \
generated kernels compile against, and the static libraries with their headers and CMake package \
(find_package(autofuse)).")
set(CPACK_RESOURCE_FILE_README ${PROJECT_SOURCE_DIR}/README.md)
set(CPACK_PACKAGING_INSTALL_PREFIX /usr)
# Not stripped: strip would empty the static libraries' symbol tables.
set(CPACK_STRIP_FILES OFF)

set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)
set(CPACK_DEBIAN_PACKAGE_SECTION devel)
set(CPACK_DEBIAN_PACKAGE_PRIORITY optional)
set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS ON)
# The installed *.pb.h files need the protobuf headers of the protoc that made them.
set(CPACK_DEBIAN_PACKAGE_DEPENDS
    "g++ | clang, libprotobuf-dev (>= ${Protobuf_VERSION}), nlohmann-json3-dev")

include(CPack)
