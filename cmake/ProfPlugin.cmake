# prof_add_plugin(NAME SOURCES... [LIBRARIES...] [CHECK_OPTIONS k=v...]
#                 [CHECK_WORKLOAD target] [CHECK_SAMPLES file...]): builds libprof-NAME.so into the
# build's plugin folder against the SDK headers only (plugins never link the
# core). The plugin is listed in the global property PROF_PLUGINS; its test
# PluginCheck.NAME runs prof-plugin-check from the values CHECK_OPTIONS
# gives, with the library CHECK_WORKLOAD as its application (--workload)
# and, for an importer, the files CHECK_SAMPLES as its samples (--sample).
function(prof_add_plugin name)
  cmake_parse_arguments(ARG "" "CHECK_WORKLOAD" "SOURCES;LIBRARIES;CHECK_OPTIONS;CHECK_SAMPLES"
    ${ARGN})
  set(target prof-plugin-${name})
  add_library(${target} MODULE ${ARG_SOURCES})
  set_target_properties(${target} PROPERTIES
    OUTPUT_NAME prof-${name}
    PREFIX lib
    LIBRARY_OUTPUT_DIRECTORY ${PROF_PLUGIN_DIR}
    CXX_VISIBILITY_PRESET hidden
    C_VISIBILITY_PRESET hidden
    VISIBILITY_INLINES_HIDDEN ON)
  target_link_libraries(${target} PRIVATE prof::sdk ${ARG_LIBRARIES})
  target_link_options(${target} PRIVATE -Wl,--no-undefined)
  install(TARGETS ${target} LIBRARY DESTINATION ${PROF_INSTALL_PLUGIN_DIR} COMPONENT runtime)
  set_property(GLOBAL APPEND PROPERTY PROF_PLUGINS ${name})
  set_property(TARGET ${target} PROPERTY PROF_CHECK_OPTIONS ${ARG_CHECK_OPTIONS})
  set_property(TARGET ${target} PROPERTY PROF_CHECK_WORKLOAD ${ARG_CHECK_WORKLOAD})
  set_property(TARGET ${target} PROPERTY PROF_CHECK_SAMPLES ${ARG_CHECK_SAMPLES})
endfunction()

# prof_add_plugin_core(NAME SOURCES... LIBRARIES...): the plugin's code
# apart from its ABI glue, as the static library prof-NAME-core that the
# plugin and its tests link, so tests never re-list a plugin's sources.
function(prof_add_plugin_core name)
  cmake_parse_arguments(ARG "" "" "SOURCES;LIBRARIES" ${ARGN})
  set(target prof-${name}-core)
  add_library(${target} STATIC ${ARG_SOURCES})
  set_target_properties(${target} PROPERTIES
    CXX_VISIBILITY_PRESET hidden VISIBILITY_INLINES_HIDDEN ON)
  target_include_directories(${target} PUBLIC ${CMAKE_CURRENT_SOURCE_DIR})
  target_link_libraries(${target} PUBLIC prof::sdk ${ARG_LIBRARIES})
endfunction()

# prof_without_sanitizers(): for code preloaded into profiled applications
# (the agent, process-scope plugins). A sanitizer runtime cannot be preloaded
# into a program built without it, so in sanitizer builds this folder's
# targets are built plainly.
# A fuzz build preloads nothing and needs coverage everywhere: it keeps them.
macro(prof_without_sanitizers)
  if(NOT PROF_BUILD_FUZZERS)
    foreach(property COMPILE_OPTIONS LINK_OPTIONS)
      get_property(options DIRECTORY PROPERTY ${property})
      list(FILTER options EXCLUDE REGEX "sanitize")
      set_property(DIRECTORY PROPERTY ${property} "${options}")
    endforeach()
  endif()
endmacro()

# prof_target_without_sanitizers(TARGET): the same for one target, e.g. a
# process-scope plugin whose sources are also linked, instrumented, into tests.
function(prof_target_without_sanitizers target)
  if(PROF_BUILD_FUZZERS)
    return()
  endif()
  foreach(property COMPILE_OPTIONS LINK_OPTIONS)
    get_target_property(options ${target} ${property})
    if(options)
      list(FILTER options EXCLUDE REGEX "sanitize")
      set_target_properties(${target} PROPERTIES ${property} "${options}")
    endif()
  endforeach()
endfunction()

# prof_preloaded(TARGET): a library preloaded into profiled applications
# (the agent, process-scope plugins): built without sanitizers, and with a
# private copy of the C++ runtime, so that a C program does not load
# libstdc++, libm and libgcc_s for it (1.3 ms of every process's start here)
# and a C++ program keeps its own: nothing of the private copy is exported,
# so it can never take the place of the application's. Not in sanitizer
# builds: each copy's exception pool, never freed, is a leak to LeakSanitizer
# once prof unloads the plugin.
function(prof_preloaded target)
  prof_target_without_sanitizers(${target})
  if(NOT PROF_SANITIZE)
    target_link_options(${target} PRIVATE -static-libstdc++ -static-libgcc
      "LINKER:--exclude-libs=libstdc++.a:libgcc.a:libgcc_eh.a")
  endif()
endfunction()

# prof_skip_plugin(name reason): a plugin this build leaves out, and why;
# said in CMake's output and listed by `prof --plugin-list`.
function(prof_skip_plugin name reason)
  message(STATUS "${name}: ${reason}; plugin ${name} skipped")
  set_property(GLOBAL APPEND PROPERTY PROF_SKIPPED_PLUGINS "${name}|${reason}")
endfunction()
