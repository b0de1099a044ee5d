# AUTOFUSE_SANITIZE=ON: every target of ours is built and linked with AddressSanitizer and
# UndefinedBehaviorSanitizer (-fsanitize=address,undefined, a UB finding aborts the test instead of
# printing and going on). scripts/sanitize.sh builds such a tree (build-asan) for CI; generated
# kernels, compiled at run time by the host compiler, stay uninstrumented.
#
# AUTOFUSE_SANITIZE_MAYBE_UNINITIALIZED_WARNING (default ON, GCC only): the one hand-made ASan build
# with GCC 12 stopped on a -Wmaybe-uninitialized false positive (the sanitizer's instrumentation
# changes what GCC's flow analysis sees) and needed -Wno-error=maybe-uninitialized. ON keeps the
# warning but not as an error in a sanitizer build with GCC; OFF makes it an error again (to look
# for real ones). Regular builds always keep it as an error. Clang has no such warning.
option(AUTOFUSE_SANITIZE "Build with AddressSanitizer and UndefinedBehaviorSanitizer" OFF)
option(AUTOFUSE_SANITIZE_MAYBE_UNINITIALIZED_WARNING
       "Sanitizer builds with GCC: -Wmaybe-uninitialized stays a warning (GCC 12 false positives)"
       ON)
if(AUTOFUSE_SANITIZE)
  set(AF_SANITIZE_FLAGS -fsanitize=address,undefined -fno-sanitize-recover=undefined
                        -fno-omit-frame-pointer)
  add_compile_options(${AF_SANITIZE_FLAGS})
  add_link_options(${AF_SANITIZE_FLAGS})
  if(CMAKE_CXX_COMPILER_ID STREQUAL "GNU" AND AUTOFUSE_SANITIZE_MAYBE_UNINITIALIZED_WARNING)
    add_compile_options(-Wno-error=maybe-uninitialized)
  endif()
  message(STATUS "autofuse: ASan+UBSan build (${CMAKE_CXX_COMPILER_ID})")
endif()
