# Refuses to package a build whose code is not portable to every x86-64 machine.
#
# A local build may compile with -march=x86-64-v3 (AVX2, FMA; top-level CMakeLists.txt), and
# its binaries die with "illegal instruction" on older CPUs: fine on the machine that built
# them, wrong in a package. CPack includes this file before each generator runs
# (CPACK_PROJECT_CONFIG_FILE); it reads the build's -march from CPACK_DPSTUDIO_MARCH and
# CPACK_DPSTUDIO_CXX_FLAGS (installer/CMakeLists.txt).
#
# Portable: no -march at all (GCC's Debian default is x86-64) or exactly x86-64. (The list
# of marches leaves out an empty DPSTUDIO_MARCH: foreach skips it.)
# CPACK_DPSTUDIO_ALLOW_ANY_MARCH=ON lets a test package the tree it was given; such a
# package is for that machine only.
#
# Also runs on its own, to check a value: cmake -DCPACK_DPSTUDIO_MARCH=x86-64-v3 -P this-file

if(CPACK_SOURCE_INSTALLED_DIRECTORIES)
  return()  # the source tarball (CPackSourceConfig.cmake): it holds no compiled code
endif()

set(dpstudio_marches "${CPACK_DPSTUDIO_MARCH}")
string(REGEX MATCHALL "-march=[^ ]+" dpstudio_flag_marches "${CPACK_DPSTUDIO_CXX_FLAGS}")
foreach(flag IN LISTS dpstudio_flag_marches)
  string(REPLACE "-march=" "" march "${flag}")
  list(APPEND dpstudio_marches "${march}")
endforeach()

foreach(march IN LISTS dpstudio_marches)
  if(NOT march STREQUAL "x86-64" AND NOT CPACK_DPSTUDIO_ALLOW_ANY_MARCH)
    message(FATAL_ERROR
      "dpstudio: this build uses -march=${march}, which not every x86-64 machine runs: "
      "a package built from it would crash with 'illegal instruction' on older CPUs. "
      "Build packages with the portable preset:\n"
      "  cmake --preset package && cmake --build --preset package && "
      "cd build/package && cpack\n"
      "(or configure with -DDPSTUDIO_MARCH=x86-64).")
  endif()
endforeach()
