# ProfSDKConfig.cmake: find_package(ProfSDK) for out-of-tree prof plugins.
# Provides the interface target prof::sdk, the libraries prof::stats
# (statistics tables), prof::activity (filter strings, device trees) and
# prof::output (an exporter's output file, renamed into place when complete),
# prof::stacks (names of native code addresses, for process-scope plugins that
# unwind inside the application), prof::python_frames (the Python frames of a
# thread of the calling process, named and merged into a native stack),
# prof::annotations (an application's annotations as slices and capture ranges), and
# prof_sdk_add_plugin(NAME SOURCES...).
get_filename_component(_prof_sdk_prefix "${CMAKE_CURRENT_LIST_DIR}/../../.." ABSOLUTE)
if(NOT TARGET prof::sdk)
  add_library(prof::sdk INTERFACE IMPORTED)
  set_target_properties(prof::sdk PROPERTIES
    INTERFACE_INCLUDE_DIRECTORIES "${_prof_sdk_prefix}/include"
    INTERFACE_COMPILE_FEATURES cxx_std_20)
endif()
foreach(_prof_lib stats activity output stacks python-frames annotations)
  string(REPLACE "-" "_" _prof_target ${_prof_lib})
  if(NOT TARGET prof::${_prof_target})
    add_library(prof::${_prof_target} STATIC IMPORTED)
    set_target_properties(prof::${_prof_target} PROPERTIES
      IMPORTED_LOCATION "${_prof_sdk_prefix}/lib/libprof-${_prof_lib}.a"
      INTERFACE_LINK_LIBRARIES "prof::sdk;${CMAKE_DL_LIBS}")
  endif()
endforeach()
set(ProfSDK_INCLUDE_DIR "${_prof_sdk_prefix}/include")
set(ProfSDK_PLUGIN_DIR "${_prof_sdk_prefix}/lib/prof/plugins")

function(prof_sdk_add_plugin name)
  add_library(prof-${name} MODULE ${ARGN})
  set_target_properties(prof-${name} PROPERTIES PREFIX lib
    C_VISIBILITY_PRESET hidden CXX_VISIBILITY_PRESET hidden)
  target_link_libraries(prof-${name} PRIVATE prof::sdk)
  # As in-tree plugins: a symbol left undefined is a link error, not a
  # failure to load on the user's machine.
  target_link_options(prof-${name} PRIVATE -Wl,--no-undefined)
endfunction()
