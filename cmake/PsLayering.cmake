# The folder layering, checked at configure time (and by tests/guards/layering_selftest.py on
# scratch trees, so each rule is seen to fail when broken). Each function reads the #include
# lines of one folder's sources under ROOT (the project's root) and stops the configure step,
# naming the file and the include, when one breaks its rule.

# core/<folder>: includes only itself and the modules in DEPENDS, and never Qt, views/ or app/
# (the CLI runs on a login node without Qt).
function(ps_check_core_layering root folder)
  cmake_parse_arguments(M "" "" "DEPENDS" ${ARGN})
  file(GLOB_RECURSE srcs ${root}/core/${folder}/*.cpp ${root}/core/${folder}/*.h)
  foreach(src ${srcs})
    file(STRINGS ${src} includes REGEX "^#include (\"(core/[a-z]+|views|app)/|<Q)")
    foreach(inc ${includes})
      if(NOT inc MATCHES "^#include \"core/([a-z]+)/")
        message(FATAL_ERROR "${src}: core may not include Qt, views/ or app/: ${inc} (core/CMakeLists.txt)")
      endif()
      set(used ${CMAKE_MATCH_1})
      if(NOT used STREQUAL folder AND NOT used IN_LIST M_DEPENDS)
        message(FATAL_ERROR "${src}: core/${folder} may include core/{${folder};${M_DEPENDS}} only, "
                            "not core/${used}: ${inc} (core/CMakeLists.txt)")
      endif()
    endforeach()
  endforeach()
endfunction()

# core/<module>/<sub>: includes from its module only its own sub-folder and those in DEPENDS,
# never the module's root or another sub-folder.
function(ps_check_core_sublayering root module sub)
  cmake_parse_arguments(M "" "" "DEPENDS" ${ARGN})
  file(GLOB_RECURSE srcs ${root}/core/${module}/${sub}/*.cpp ${root}/core/${module}/${sub}/*.h)
  if(NOT srcs)
    message(FATAL_ERROR "core/${module}/${sub}/ has no sources: update its layering (core/CMakeLists.txt)")
  endif()
  foreach(src ${srcs})
    file(STRINGS ${src} includes REGEX "^#include \"core/${module}/")
    foreach(inc ${includes})
      set(used "(the module's root)")
      if(inc MATCHES "^#include \"core/${module}/([a-z]+)/")
        set(used ${CMAKE_MATCH_1})
      endif()
      if(NOT used STREQUAL sub AND NOT used IN_LIST M_DEPENDS)
        message(FATAL_ERROR "${src}: core/${module}/${sub} may include core/${module}/{${sub};${M_DEPENDS}} "
                            "only, not ${used}: ${inc} (core/CMakeLists.txt)")
      endif()
    endforeach()
  endforeach()
endfunction()

# views/<folder>: includes only itself and the views folders in DEPENDS; views/common, which
# Configure uses as well as Timeline, includes no core but core/common.
function(ps_check_views_layering root folder)
  cmake_parse_arguments(M "" "" "DEPENDS" ${ARGN})
  file(GLOB srcs ${root}/views/${folder}/*.cpp ${root}/views/${folder}/*.h)
  foreach(src ${srcs})
    if(folder STREQUAL "common")
      file(STRINGS ${src} core_includes REGEX "^#include \"core/")
      foreach(inc ${core_includes})
        if(NOT inc MATCHES "^#include \"core/common/")
          message(FATAL_ERROR "${src}: views/common may include core/common only, not ${inc} (views/CMakeLists.txt)")
        endif()
      endforeach()
    endif()
    file(STRINGS ${src} includes REGEX "^#include \"views/")
    foreach(inc ${includes})
      string(REGEX REPLACE "^#include \"views/([a-z]+)/.*" "\\1" used "${inc}")
      if(NOT used STREQUAL folder AND NOT used IN_LIST M_DEPENDS)
        message(FATAL_ERROR "${src}: views/${folder} may include views/{${folder};${M_DEPENDS}} only, "
                            "not views/${used}: ${inc} (views/CMakeLists.txt)")
      endif()
    endforeach()
  endforeach()
endfunction()
