# One helper per kind of target, so that every target gets the same warnings and
# the dependency direction (core <- ui <- app) is stated where each target is made.

function(dpstudio_set_warnings target)
  target_compile_options(${target} PRIVATE
    -Wall -Wextra -Wpedantic -Wshadow -Wnon-virtual-dtor -Wcast-align
    -Woverloaded-virtual -Wimplicit-fallthrough
    # GCC 12 warns falsely on std::string concatenation (GCC bug 105651).
    $<$<CXX_COMPILER_ID:GNU>:-Wno-restrict>)
  if(DPSTUDIO_MARCH)
    target_compile_options(${target} PRIVATE -march=${DPSTUDIO_MARCH})
  endif()
  if(DPSTUDIO_WERROR)
    target_compile_options(${target} PRIVATE -Werror)
  endif()
endfunction()

# dpstudio_add_library(name SOURCES ... [PUBLIC_LINKS ...] [PRIVATE_LINKS ...])
function(dpstudio_add_library name)
  cmake_parse_arguments(ARG "" "" "SOURCES;PUBLIC_LINKS;PRIVATE_LINKS" ${ARGN})
  add_library(${name} STATIC ${ARG_SOURCES})
  target_include_directories(${name} PUBLIC "${PROJECT_SOURCE_DIR}")
  target_link_libraries(${name} PUBLIC ${ARG_PUBLIC_LINKS} PRIVATE ${ARG_PRIVATE_LINKS})
  set_target_properties(${name} PROPERTIES POSITION_INDEPENDENT_CODE ON)
  dpstudio_set_warnings(${name})
endfunction()

# The core libraries hold no QObject: no moc step for them (qt_standard_project_setup turns
# AUTOMOC on for every target, which would add an empty moc compilation to each of the 14).
function(dpstudio_add_core_library name)
  dpstudio_add_library(${name} ${ARGN})
  set_target_properties(${name} PROPERTIES AUTOMOC OFF AUTOUIC OFF AUTORCC OFF)
  # The asan preset optimizes the numerical core (-O1) and not the tests (-O0): the solvers at
  # -O0 under ASan ran the unit tests 25 times slower than release, the tests' own code is cheap.
  if(DPSTUDIO_CORE_CXX_FLAGS)
    separate_arguments(core_flags UNIX_COMMAND "${DPSTUDIO_CORE_CXX_FLAGS}")
    target_compile_options(${name} PRIVATE ${core_flags})
  endif()
  dpstudio_use_pch(${name} core)
endfunction()

# dpstudio_add_test(name SOURCES ... LINKS ... [LABELS ...] [TIMEOUT seconds] [GUI])
# One Qt Test executable per area, registered with CTest. GUI tests run offscreen.
function(dpstudio_add_test name)
  cmake_parse_arguments(ARG "GUI" "TIMEOUT" "SOURCES;LINKS;LABELS" ${ARGN})
  add_executable(${name} ${ARG_SOURCES})
  target_link_libraries(${name} PRIVATE ${ARG_LINKS} Qt6::Test)
  target_include_directories(${name} PRIVATE "${PROJECT_SOURCE_DIR}")
  target_compile_definitions(${name} PRIVATE
    DPSTUDIO_FIXTURES_DIR="${PROJECT_SOURCE_DIR}/tests/fixtures"
    DPSTUDIO_CLI_PATH="$<TARGET_FILE:dpstudio-cli>"
    # The tests' own waits (GUI tests' kTimeoutMs) stretch with the sanitizers' slowdown too.
    DPSTUDIO_TEST_TIMEOUT_SCALE=$<IF:$<BOOL:${DPSTUDIO_TEST_TIMEOUT_SCALE}>,${DPSTUDIO_TEST_TIMEOUT_SCALE},1>)
  dpstudio_set_warnings(${name})
  # The precompiled headers a test can share (cmake/DpstudioPrecompiled.cmake): a GUI test
  # that links the window, or a test that links core; the few that link Qt alone read the
  # headers as text.
  set(our_links ${ARG_LINKS})
  list(FILTER our_links INCLUDE REGEX "^dpstudio_")
  if(ARG_GUI AND "dpstudio_ui" IN_LIST ARG_LINKS)
    dpstudio_use_pch(${name} gui_test)
  elseif(NOT ARG_GUI AND our_links)
    dpstudio_use_pch(${name} test)
  endif()
  add_test(NAME ${name} COMMAND ${name})
  if(NOT ARG_TIMEOUT)
    set(ARG_TIMEOUT 300)
  endif()
  # Sanitized builds run several times slower (CMakePresets.json sets the factor).
  if(DPSTUDIO_TEST_TIMEOUT_SCALE)
    math(EXPR ARG_TIMEOUT "${ARG_TIMEOUT} * ${DPSTUDIO_TEST_TIMEOUT_SCALE}")
  endif()
  # QtTest's watchdog ends a test function after 300 s on its own: TIMEOUT governs instead.
  math(EXPR function_timeout_ms "${ARG_TIMEOUT} * 1000")
  # A test that forgets to isolate its privacy ledger writes one of its own in the build
  # tree, never the user's (core/privacy/ledger_file.h: DPSTUDIO_LEDGER_FILE).
  # GUI tests run on the design target, a 1366×768 laptop screen (the offscreen platform's
  # own is 800×600): windows open no larger than their screen (ui/widgets/screen_fit.h).
  set(env "QT_QPA_PLATFORM=offscreen:configfile=${PROJECT_SOURCE_DIR}/tests/fixtures/offscreen-1366x768.json"
      "QTEST_FUNCTION_TIMEOUT=${function_timeout_ms}"
      "DPSTUDIO_LEDGER_FILE=${CMAKE_CURRENT_BINARY_DIR}/${name}.ledger.json")
  set_tests_properties(${name} PROPERTIES TIMEOUT ${ARG_TIMEOUT} ENVIRONMENT "${env}")
  if(ARG_LABELS)
    set_tests_properties(${name} PROPERTIES LABELS "${ARG_LABELS}")
  endif()
endfunction()
