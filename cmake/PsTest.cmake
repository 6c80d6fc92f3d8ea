# ps_add_test(NAME <tst_name> SOURCES <files...> LIBS <targets...> [GUI] [TIMEOUT <s>] [LABELS <l...>])
#
# One Qt Test executable per unit, registered with CTest. Tests find the real samples through
# PS_SHARED_DIR and built executables through PS_BIN_DIR (both compile definitions), so they run
# from any working directory. GUI tests get the offscreen platform.
#
# Every test is labelled `fast` unless its LABELS say `slow` (a test that takes seconds, not
# milliseconds, on a 2-core ASan build): `ctest -L fast`, or `scripts/test.sh -L fast`, is the
# edit loop; the full run stays the check before a commit.
function(ps_add_test)
  cmake_parse_arguments(T "GUI" "NAME;TIMEOUT" "SOURCES;LIBS;LABELS" ${ARGN})
  add_executable(${T_NAME} ${T_SOURCES})
  # Qt Test classes live in the .cpp (#include "tst_x.moc"); AUTOMOC must be on even when the
  # GUI (and with it qt_standard_project_setup) is off.
  set_target_properties(${T_NAME} PROPERTIES AUTOMOC ON)
  target_include_directories(${T_NAME} PRIVATE ${PROJECT_SOURCE_DIR})
  target_link_libraries(${T_NAME} PRIVATE Qt6::Test ${T_LIBS})
  target_compile_definitions(${T_NAME} PRIVATE
    PS_SHARED_DIR="${PS_SHARED_DIR}"
    PS_TESTDATA_DIR="${PS_SHARED_DIR}/testdata"
    PS_SOURCE_DIR="${PROJECT_SOURCE_DIR}"
    PS_BIN_DIR="${PROJECT_BINARY_DIR}/bin")
  add_test(NAME ${T_NAME} COMMAND ${T_NAME})
  if(NOT T_TIMEOUT)
    set(T_TIMEOUT 600)
  endif()
  # A 16 MB quarantine (ASan's default is 256 MB) still catches a use of memory freed during the
  # last 16 MB of frees, and it spares each test process faulting in fresh pages for every
  # allocation: on this project's 2-core VMs page faults were 40 % of the suite's CPU time.
  set(env "ASAN_OPTIONS=detect_leaks=0:abort_on_error=1:quarantine_size_mb=16" "UBSAN_OPTIONS=print_stacktrace=1")
  if(T_GUI)
    list(APPEND env "QT_QPA_PLATFORM=offscreen")
  endif()
  if(NOT "slow" IN_LIST T_LABELS)
    list(APPEND T_LABELS fast)
  endif()
  set_tests_properties(${T_NAME} PROPERTIES TIMEOUT ${T_TIMEOUT} ENVIRONMENT "${env}" LABELS "${T_LABELS}")
endfunction()
