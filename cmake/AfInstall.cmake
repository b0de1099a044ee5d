# Install rules and the CMake package. `cmake --install build --prefix P` puts under P:
#   bin/afc, bin/afviewer (when built)
#   lib/libautofuse_*.a                  the static libraries that make up autofuse::autofuse
#   include/autofuse/**                  their public headers (proto/: the generated *.pb.h)
#   include/autofuse/runtime/**          the CPU AscendC runtime (afc compiles kernels against it)
#   lib/cmake/autofuse/                  autofuseConfig.cmake, its version file, the targets
# so that a consumer writes find_package(autofuse CONFIG REQUIRED) and links autofuse::autofuse.
# CPack (cmake/AfPackage.cmake) packs the same tree. Included last: every target must exist.
include(CMakePackageConfigHelpers)

# The libraries exported as autofuse::<name>: the umbrella and everything it links, private
# static dependencies included (their archives are needed at the consumer's link). A new library
# is one line here; install(EXPORT) names any library the exported ones link and this list lacks.
set(AF_INSTALL_LIBRARIES
    autofuse
    autofuse_pipeline
    autofuse_codegen
    autofuse_att
    autofuse_schedule
    autofuse_hw
    autofuse_interp
    autofuse_data
    autofuse_toolchain
    autofuse_frontend
    autofuse_importers
    autofuse_inputs
    autofuse_onnx_proto
    autofuse_model
    autofuse_ir
    autofuse_sym
    autofuse_support
    autofuse_proto
    autofuse_runtime)

# Where each public include folder of those libraries goes, relative to the prefix. The targets
# name source and build folders; the installed package names these instead. Listed: the folders
# that go elsewhere than the include folder itself. A source folder named include/ and not listed
# goes to the include folder (libautofuse/include, importers/include hold autofuse/<part>/*.h);
# any other source folder is an error (its headers would be missing); a build folder not listed
# holds generated headers private to the build (autofuse_onnx_proto's).
set(AF_INSTALL_INCLUDE_DIRS
    "${PROJECT_SOURCE_DIR}/libautofuse/runtime/include=${AF_INSTALL_RUNTIME_INCLUDEDIR}"
    "${PROJECT_BINARY_DIR}/libautofuse/proto=${CMAKE_INSTALL_INCLUDEDIR}/autofuse/proto")

# Sets `out` to the install folder of the include folder `dir`, "" when it is not installed.
function(af_install_include_destination dir out)
  cmake_path(SET dir NORMALIZE "${dir}")
  foreach(entry IN LISTS AF_INSTALL_INCLUDE_DIRS)
    string(FIND "${entry}" "=" eq REVERSE)
    string(SUBSTRING "${entry}" 0 ${eq} from)
    math(EXPR eq "${eq} + 1")
    string(SUBSTRING "${entry}" ${eq} -1 to)
    cmake_path(SET from NORMALIZE "${from}")
    if(dir STREQUAL from)
      set(${out} "${to}" PARENT_SCOPE)
      return()
    endif()
  endforeach()
  cmake_path(IS_PREFIX PROJECT_BINARY_DIR "${dir}" in_build)
  cmake_path(GET dir FILENAME name)
  if(in_build)
    set(${out} "" PARENT_SCOPE)
  elseif(name STREQUAL "include")
    set(${out} "${CMAKE_INSTALL_INCLUDEDIR}" PARENT_SCOPE)
  else()
    message(FATAL_ERROR "include folder ${dir} is public but not installed: "
                        "add it to AF_INSTALL_INCLUDE_DIRS in cmake/AfInstall.cmake")
  endif()
endfunction()

# Rewrites the public include folders of `target` as $<BUILD_INTERFACE:source or build folder>
# plus $<INSTALL_INTERFACE:install folder>, and installs each folder's headers once.
function(af_install_public_headers target)
  get_target_property(dirs ${target} INTERFACE_INCLUDE_DIRECTORIES)
  if(NOT dirs)
    return()
  endif()
  set(rewritten "")
  foreach(dir IN LISTS dirs)
    if(dir MATCHES "^\\$<")
      list(APPEND rewritten "${dir}")
      continue()
    endif()
    list(APPEND rewritten "$<BUILD_INTERFACE:${dir}>")
    af_install_include_destination("${dir}" destination)
    if(destination STREQUAL "")
      continue()
    endif()
    list(APPEND rewritten "$<INSTALL_INTERFACE:${destination}>")
    get_property(done GLOBAL PROPERTY AF_INSTALLED_INCLUDE_DIRS)
    if(NOT dir IN_LIST done)
      set_property(GLOBAL APPEND PROPERTY AF_INSTALLED_INCLUDE_DIRS "${dir}")
      install(DIRECTORY "${dir}/" DESTINATION "${destination}" COMPONENT autofuse
              FILES_MATCHING PATTERN "*.h" PATTERN "CMakeFiles" EXCLUDE)
    endif()
  endforeach()
  list(REMOVE_DUPLICATES rewritten)
  set_property(TARGET ${target} PROPERTY INTERFACE_INCLUDE_DIRECTORIES "${rewritten}")
endfunction()

foreach(target IN LISTS AF_INSTALL_LIBRARIES)
  af_install_public_headers(${target})
endforeach()

install(TARGETS ${AF_INSTALL_LIBRARIES} afc
        EXPORT autofuseTargets
        RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR} COMPONENT autofuse
        ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR} COMPONENT autofuse
        LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR} COMPONENT autofuse)
# OPTIONAL: a build that made only afc and the libraries installs without the viewer.
if(TARGET afviewer)
  install(TARGETS afviewer RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR} COMPONENT autofuse OPTIONAL)
endif()

set(AF_INSTALL_CMAKEDIR ${CMAKE_INSTALL_LIBDIR}/cmake/autofuse)
install(EXPORT autofuseTargets NAMESPACE autofuse:: DESTINATION ${AF_INSTALL_CMAKEDIR}
        COMPONENT autofuse)
configure_package_config_file(
  ${PROJECT_SOURCE_DIR}/cmake/autofuseConfig.cmake.in
  ${PROJECT_BINARY_DIR}/autofuseConfig.cmake
  INSTALL_DESTINATION ${AF_INSTALL_CMAKEDIR}
  PATH_VARS AF_INSTALL_RUNTIME_INCLUDEDIR)
# 0.x: a minor version may break the API.
write_basic_package_version_file(${PROJECT_BINARY_DIR}/autofuseConfigVersion.cmake
                                 COMPATIBILITY SameMinorVersion)
install(FILES ${PROJECT_BINARY_DIR}/autofuseConfig.cmake
              ${PROJECT_BINARY_DIR}/autofuseConfigVersion.cmake
        DESTINATION ${AF_INSTALL_CMAKEDIR} COMPONENT autofuse)
