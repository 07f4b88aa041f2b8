# test_package_march: the portable -march of packages, checked without building anything.
# Packaging the whole project a second time under -march=x86-64 inside the test run would
# take as long as the first build, so test_package_deb packages the tree it has, and this
# test checks the two things that make real packages portable:
#   1. the "package" preset (CMakePresets.json) sets DPSTUDIO_MARCH to x86-64;
#   2. cpack's march check (installer/check_package_march.cmake) refuses x86-64-v3, native
#      and a -march in the compile flags, and lets x86-64 and no -march through;
#   3. cpack itself, run on BUILD_DIR, refuses it when its -march is not portable (the
#      check is wired in: CPACK_PROJECT_CONFIG_FILE). It fails before installing anything.
# Run as: cmake -DSOURCE_DIR=... -DBUILD_DIR=... -DCPACK=... -P check_package_march_test.cmake

file(READ "${SOURCE_DIR}/CMakePresets.json" presets)
string(JSON count LENGTH "${presets}" configurePresets)
math(EXPR last "${count} - 1")
set(package_march "")
foreach(i RANGE ${last})
  string(JSON name GET "${presets}" configurePresets ${i} name)
  if(name STREQUAL "package")
    string(JSON package_march GET "${presets}" configurePresets ${i} cacheVariables DPSTUDIO_MARCH)
  endif()
endforeach()
if(NOT package_march STREQUAL "x86-64")
  message(FATAL_ERROR "the package preset's DPSTUDIO_MARCH is '${package_march}', not x86-64")
endif()

set(check "${SOURCE_DIR}/installer/check_package_march.cmake")
# expect_check(REFUSED|ACCEPTED <-D arguments>...)
function(expect_check expected)
  execute_process(COMMAND "${CMAKE_COMMAND}" ${ARGN} -P "${check}"
                  RESULT_VARIABLE status OUTPUT_QUIET ERROR_QUIET)
  if(expected STREQUAL "REFUSED" AND status EQUAL 0)
    message(FATAL_ERROR "the march check let through: ${ARGN}")
  elseif(expected STREQUAL "ACCEPTED" AND NOT status EQUAL 0)
    message(FATAL_ERROR "the march check refused: ${ARGN}")
  endif()
endfunction()
expect_check(REFUSED -DCPACK_DPSTUDIO_MARCH=x86-64-v3)
expect_check(REFUSED -DCPACK_DPSTUDIO_MARCH=native)
expect_check(REFUSED "-DCPACK_DPSTUDIO_CXX_FLAGS=-O3 -march=x86-64-v2")
expect_check(ACCEPTED -DCPACK_DPSTUDIO_MARCH=x86-64 "-DCPACK_DPSTUDIO_CXX_FLAGS=-O3 -DNDEBUG")
expect_check(ACCEPTED -DCPACK_DPSTUDIO_MARCH=)
expect_check(ACCEPTED -DCPACK_DPSTUDIO_MARCH=x86-64-v3 -DCPACK_DPSTUDIO_ALLOW_ANY_MARCH=ON)

include("${BUILD_DIR}/CPackConfig.cmake")  # this tree's CPACK_DPSTUDIO_MARCH and CPACK_PROJECT_CONFIG_FILE
if(CPACK_DPSTUDIO_MARCH AND NOT CPACK_DPSTUDIO_MARCH STREQUAL "x86-64")
  set(scratch "${BUILD_DIR}/Testing/package_march")
  file(REMOVE_RECURSE "${scratch}")
  execute_process(COMMAND "${CPACK}" --config "${BUILD_DIR}/CPackConfig.cmake" -G TGZ -B "${scratch}"
                  RESULT_VARIABLE status OUTPUT_VARIABLE output ERROR_VARIABLE output)
  file(REMOVE_RECURSE "${scratch}")
  if(status EQUAL 0 OR NOT output MATCHES "illegal instruction")
    message(FATAL_ERROR "cpack packaged a -march=${CPACK_DPSTUDIO_MARCH} tree:\n${output}")
  endif()
  message(STATUS "this tree: -march=${CPACK_DPSTUDIO_MARCH}, which cpack refuses to package")
endif()
message(STATUS "package preset: -march=x86-64; the cpack check refuses the non-portable ones")
