# cmake -P script behind the install.consumer test (tests/install/CMakeLists.txt). Every step
# stops the script with an error when it fails.
#   BUILD_DIR, SOURCE_DIR   this build and its source tree
#   WORK_DIR                scratch folder, emptied first: prefix/, consumer/, out/, cache/
#   GENERATOR, CXX, LAUNCHER  how to configure the consumer (as this build is configured)
foreach(var BUILD_DIR SOURCE_DIR WORK_DIR GENERATOR CXX)
  if(NOT DEFINED ${var})
    message(FATAL_ERROR "install_consumer.cmake: -D ${var}=… is required")
  endif()
endforeach()

file(REMOVE_RECURSE "${WORK_DIR}")
set(prefix "${WORK_DIR}/prefix")
set(sample "${SOURCE_DIR}/samples/hint_graphs/add_bcast_relu.AscGraphDef.txt")

# Runs the command after COMMAND, echoing it; stops the script when it fails. OUTPUT_VARIABLE
# names a variable that receives its stdout (printed too).
function(af_step)
  cmake_parse_arguments(S "" "OUTPUT_VARIABLE" "COMMAND" ${ARGN})
  list(JOIN S_COMMAND " " shown)
  message(STATUS "install_consumer: ${shown}")
  execute_process(COMMAND ${S_COMMAND} OUTPUT_VARIABLE out RESULT_VARIABLE rc)
  message("${out}")
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "install_consumer: failed (${rc}): ${shown}")
  endif()
  if(S_OUTPUT_VARIABLE)
    set(${S_OUTPUT_VARIABLE} "${out}" PARENT_SCOPE)
  endif()
endfunction()

# 1. Install, and check the layout the package promises.
af_step(COMMAND "${CMAKE_COMMAND}" --install "${BUILD_DIR}" --prefix "${prefix}")
foreach(f bin/afc include/autofuse/pipeline/pipeline.h include/autofuse/runtime/kernel_operator.h
          include/autofuse/proto/report.pb.h lib/cmake/autofuse/autofuseConfig.cmake
          lib/cmake/autofuse/autofuseConfigVersion.cmake lib/cmake/autofuse/autofuseTargets.cmake)
  if(NOT EXISTS "${prefix}/${f}")
    message(FATAL_ERROR "install_consumer: ${prefix}/${f} was not installed")
  endif()
endforeach()

# 2. Configure, build and run samples/consumer against the installed package only.
set(consumer_args -G "${GENERATOR}" -DCMAKE_CXX_COMPILER=${CXX} -DCMAKE_BUILD_TYPE=Release
                  -DCMAKE_PREFIX_PATH=${prefix} -DCMAKE_FIND_USE_PACKAGE_REGISTRY=OFF)
if(LAUNCHER)
  list(APPEND consumer_args -DCMAKE_CXX_COMPILER_LAUNCHER=${LAUNCHER})
endif()
af_step(COMMAND "${CMAKE_COMMAND}" -S "${SOURCE_DIR}/samples/consumer" -B "${WORK_DIR}/consumer"
                ${consumer_args})
af_step(COMMAND "${CMAKE_COMMAND}" --build "${WORK_DIR}/consumer")
af_step(COMMAND "${WORK_DIR}/consumer/af_consumer" "${sample}" OUTPUT_VARIABLE consumer_out)
if(NOT consumer_out MATCHES "graph [^\n]*: [1-9][0-9]* nodes" OR
   NOT consumer_out MATCHES "kernel [^\n]*: [1-9][0-9]* generated files")
  message(FATAL_ERROR "install_consumer: af_consumer printed no graph or no kernel")
endif()

# 3. The installed afc: its version, and one compile with an empty kernel cache, so that the
# kernel is really built, against the installed runtime headers.
af_step(COMMAND "${prefix}/bin/afc" --version OUTPUT_VARIABLE version_out)
if(NOT version_out MATCHES "^afc [0-9]")
  message(FATAL_ERROR "install_consumer: unexpected afc --version output: ${version_out}")
endif()
set(ENV{AF_CACHE_DIR} "${WORK_DIR}/cache")
af_step(COMMAND "${prefix}/bin/afc" compile "${sample}" --bind s0=37,s1=1031
                --out "${WORK_DIR}/out")
file(GLOB_RECURSE commands "${WORK_DIR}/cache/*/compile_command.txt")
if(NOT commands)
  message(FATAL_ERROR "install_consumer: the installed afc built no kernel")
endif()
foreach(c IN LISTS commands)
  file(READ "${c}" command)
  string(FIND "${command}" "-I${prefix}/include/autofuse/runtime" at)
  if(at LESS 0)
    message(FATAL_ERROR "install_consumer: the installed afc did not compile against the "
                        "installed runtime headers: ${command}")
  endif()
endforeach()
message(STATUS "install_consumer: passed")
