# Precompiled headers (option DPSTUDIO_PCH, on by default).
#
# Why: most of the time spent compiling a file here is reading Qt's, Eigen's and the standard
# library's headers (a core test: 8.5 s, 4.5 s with them precompiled; a Training-dock form:
# 13.8 s, 7.1 s), and CI builds the tree three times from nothing (release, ASan, TSan).
#
# How: each kind of target reuses one precompiled header, made by a small "donor" target
# compiled with the same flags. Both compilers refuse a header precompiled under other
# flags: GCC when a macro the headers read has another value (it then reads the headers as
# text — slower, never wrong; CMake's -Winvalid-pch says so in the build log), clang when a macro
# has another value or the optimisation level differs (a compile error). Hence one donor per
# set of flags: core libraries (which the asan preset compiles at -O1), tests without a
# window, GUI tests; the GUI library and the CLI precompile their own.
#
# Only system headers are precompiled; our own headers keep their includes. A missing
# #include of a Qt, Eigen or standard header would go unnoticed in a PCH build:
# -DDPSTUDIO_PCH=OFF (the `fuzz` preset) compiles without them.
option(DPSTUDIO_PCH "Precompile the Qt, Eigen and standard headers the sources include" ON)

set(dpstudio_pch_standard
  <algorithm> <array> <atomic> <cmath> <cstdint> <functional> <limits> <map> <memory>
  <mutex> <numeric> <optional> <random> <set> <string> <string_view> <unordered_map>
  <utility> <variant> <vector>)
set(dpstudio_pch_numeric ${dpstudio_pch_standard} <Eigen/Dense>)
set(dpstudio_pch_qt_core <QtCore/QtCore>)
set(dpstudio_pch_qt_test <QtTest/QtTest>)
set(dpstudio_pch_qt_widgets <QtWidgets/QtWidgets> <QtCharts/QtCharts>)

# Qt Test defines the folders of each test's sources and build for QFINDTESTDATA, which no
# test here uses; they differ per folder, and both compilers would refuse the shared header.
set(dpstudio_pch_test_options -UQT_TESTCASE_BUILDDIR -UQT_TESTCASE_SOURCEDIR)

# A donor: an object library of one empty file whose only product is the precompiled header.
function(dpstudio_add_pch_donor name)
  cmake_parse_arguments(ARG "" "" "HEADERS;LINKS;OPTIONS" ${ARGN})
  add_library(${name} OBJECT "${PROJECT_SOURCE_DIR}/cmake/pch_donor.cpp")
  set_target_properties(${name} PROPERTIES AUTOMOC OFF AUTOUIC OFF AUTORCC OFF
                                           POSITION_INDEPENDENT_CODE ON)
  target_link_libraries(${name} PRIVATE ${ARG_LINKS})
  target_compile_options(${name} PRIVATE ${ARG_OPTIONS})
  target_precompile_headers(${name} PRIVATE ${ARG_HEADERS})
  dpstudio_set_warnings(${name})
endfunction()

# Called once, after find_package and before any target that uses a donor.
function(dpstudio_add_pch_donors)
  if(NOT DPSTUDIO_PCH)
    return()
  endif()
  set(core_flags "")
  if(DPSTUDIO_CORE_CXX_FLAGS)
    separate_arguments(core_flags UNIX_COMMAND "${DPSTUDIO_CORE_CXX_FLAGS}")
  endif()
  dpstudio_add_pch_donor(dpstudio_pch_core
    HEADERS ${dpstudio_pch_numeric}
    LINKS dpstudio_base
    OPTIONS ${core_flags})
  if(DPSTUDIO_BUILD_TESTS)
    dpstudio_add_pch_donor(dpstudio_pch_test
      HEADERS ${dpstudio_pch_numeric} ${dpstudio_pch_qt_core} ${dpstudio_pch_qt_test}
      LINKS dpstudio_base Qt6::Test
      OPTIONS ${dpstudio_pch_test_options})
    dpstudio_add_pch_donor(dpstudio_pch_gui_test
      HEADERS ${dpstudio_pch_numeric} ${dpstudio_pch_qt_core} ${dpstudio_pch_qt_widgets}
              ${dpstudio_pch_qt_test}
      LINKS dpstudio_base Qt6::Widgets Qt6::Charts Qt6::Test
      OPTIONS ${dpstudio_pch_test_options})
  endif()
endfunction()

# dpstudio_use_pch(target KIND): core, test, gui_test (reuse a donor's header), cli, ui (their own).
function(dpstudio_use_pch target kind)
  if(NOT DPSTUDIO_PCH)
    return()
  endif()
  if(kind STREQUAL "core" OR kind STREQUAL "test" OR kind STREQUAL "gui_test")
    target_precompile_headers(${target} REUSE_FROM dpstudio_pch_${kind})
  elseif(kind STREQUAL "cli")
    target_precompile_headers(${target} PRIVATE ${dpstudio_pch_numeric} ${dpstudio_pch_qt_core})
  elseif(kind STREQUAL "ui")
    target_precompile_headers(${target} PRIVATE
      ${dpstudio_pch_numeric} ${dpstudio_pch_qt_core} ${dpstudio_pch_qt_widgets})
  else()
    message(FATAL_ERROR "dpstudio_use_pch: unknown kind '${kind}'")
  endif()
  if(kind STREQUAL "test" OR kind STREQUAL "gui_test")
    target_compile_options(${target} PRIVATE ${dpstudio_pch_test_options})
  endif()
  if(NOT kind STREQUAL "ui")
    # AUTOMOC's file is empty where the sources include their own .moc: reading a
    # precompiled header of 150-400 MB would take it from 0.1 s to 3 s.
    get_target_property(binary_dir ${target} BINARY_DIR)
    set_source_files_properties("${binary_dir}/${target}_autogen/mocs_compilation.cpp"
      TARGET_DIRECTORY ${target} PROPERTIES SKIP_PRECOMPILE_HEADERS ON)
  endif()
endfunction()
