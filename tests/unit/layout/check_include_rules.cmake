# The layout's rules, checked on a source tree:
# - the arrows (tools -> core -> sdk; plugins -> sdk): no file under core/
#   includes a tools/ header, no file under sdk/ a core/ or a tools/ one (the
#   SDK stands alone: vendors build against it only), and no file under
#   plugins/ a core/ or a tools/ one (a plugin, importers included, reaches
#   the host only through the SDK). Plugin files named in ALLOWED, known
#   offenders being moved off core/, are reported without failing; any other
#   offender fails.
# - rooms one way: each folder of core/ and of tools/prof/ includes only the
#   folders below it (kRoomRules); core/runtime, compiled into the agent,
#   includes nothing of core but itself.
# - tools/prof's root holds main.cpp and what every command shares
#   (kProfRootFiles); every other file lives in a room.
#
#   cmake -DSOURCE_DIR=<tree> [-DALLOWED=<file;...>] -P check_include_rules.cmake

cmake_minimum_required(VERSION 3.20)

if(NOT SOURCE_DIR)
  message(FATAL_ERROR "check_include_rules: give -DSOURCE_DIR=<source tree>")
endif()

# What may stay at tools/prof's root: main.cpp, its build file, and what
# every command shares.
set(kProfRootFiles CMakeLists.txt main.cpp run_context.hpp run_context.cpp progress_bar.hpp
  progress_bar.cpp)

# "FOLDER|PREFIX|ROOM,ROOM,...": a file under FOLDER includes, of the headers
# under PREFIX/, only those of the rooms listed (folders under PREFIX; "." is
# the headers at PREFIX's root).
set(kRoomRules
  "core/runtime|core|runtime"
  "core/agent|core|agent,runtime,control"
  "core/report|core|report"
  "core/config|core|config"
  "core/control|core|control"
  "core/catalog|core|catalog,runtime"
  "core/events|core|events,catalog,report,runtime"
  "core/plugin_host|core|plugin_host,events,catalog,report,config,runtime"
  "core/capture|core|capture,plugin_host,events,catalog,report,config,control,runtime"
  "core/import|core|import,plugin_host,events,catalog,report,config,runtime"
  "tools/prof/cli|tools/prof|cli"
  "tools/prof/sessions|tools/prof|sessions,cli,."
  "tools/prof/capture|tools/prof|capture,sessions,cli,."
  "tools/prof/reports|tools/prof|reports,capture,sessions,cli,.")

# The source files under `folder`, relative to SOURCE_DIR, in `out`.
function(source_files folder out)
  file(GLOB_RECURSE files RELATIVE ${SOURCE_DIR} ${SOURCE_DIR}/${folder}/*.h
       ${SOURCE_DIR}/${folder}/*.hpp ${SOURCE_DIR}/${folder}/*.c ${SOURCE_DIR}/${folder}/*.cpp
       ${SOURCE_DIR}/${folder}/*.cc)
  set(${out} "${files}" PARENT_SCOPE)
endfunction()

# Returns in `out` the files under `folder` that include a header under
# `target`, and in `out`_lines "<file>: <include line>" for each.
function(files_including folder target out)
  set(found "")
  set(lines "")
  source_files(${folder} files)
  foreach(file ${files})
    file(STRINGS ${SOURCE_DIR}/${file} includes
         REGEX "^[ \t]*#[ \t]*include[ \t]*[<\"](\\.\\./)*${target}/")
    if(includes)
      list(GET includes 0 first)
      string(STRIP "${first}" first)
      list(APPEND found "${file}")
      list(APPEND lines "${file}: ${first}")
    endif()
  endforeach()
  set(${out} "${found}" PARENT_SCOPE)
  set(${out}_lines "${lines}" PARENT_SCOPE)
endfunction()

set(failed FALSE)

files_including(core tools core_offenders)
if(core_offenders)
  list(JOIN core_offenders_lines "\n  " text)
  message("core/ includes tools/ headers (core never calls into tools/):\n  ${text}")
  set(failed TRUE)
endif()

foreach(above core tools)
  files_including(sdk ${above} sdk_offenders)
  if(sdk_offenders)
    list(JOIN sdk_offenders_lines "\n  " text)
    message("sdk/ includes ${above}/ headers (the SDK includes only its own):\n  ${text}")
    set(failed TRUE)
  endif()
endforeach()

files_including(plugins core plugin_offenders)
set(new_offenders "")
set(known_offenders "")
foreach(file line IN ZIP_LISTS plugin_offenders plugin_offenders_lines)
  if(file IN_LIST ALLOWED)
    list(APPEND known_offenders "${line}")
  else()
    list(APPEND new_offenders "${line}")
  endif()
endforeach()
if(known_offenders)
  list(JOIN known_offenders "\n  " text)
  message("allowed for now, to be moved off core/:\n  ${text}")
endif()
if(new_offenders)
  list(JOIN new_offenders "\n  " text)
  message("plugins include core/ headers (a plugin includes only sdk/ headers):\n  ${text}")
  set(failed TRUE)
endif()
foreach(file ${ALLOWED})
  if(NOT file IN_LIST plugin_offenders)
    message("${file} no longer includes core/ headers: take it off the allowed list")
  endif()
endforeach()

files_including(plugins tools plugin_tool_offenders)
if(plugin_tool_offenders)
  list(JOIN plugin_tool_offenders_lines "\n  " text)
  message("plugins include tools/ headers (a plugin reaches prof only through the SDK):\n  ${text}")
  set(failed TRUE)
endif()

# Rooms one way.
foreach(rule ${kRoomRules})
  string(REPLACE "|" ";" fields "${rule}")
  list(GET fields 0 folder)
  list(GET fields 1 prefix)
  list(GET fields 2 rooms)
  string(REPLACE "," ";" rooms "${rooms}")
  set(lines "")
  source_files(${folder} files)
  foreach(file ${files})
    file(STRINGS ${SOURCE_DIR}/${file} includes
         REGEX "^[ \t]*#[ \t]*include[ \t]*[<\"]${prefix}/")
    foreach(include ${includes})
      string(REGEX REPLACE "^[^<\"]*[<\"]${prefix}/([^>\"]*)[>\"].*$" "\\1" header "${include}")
      if(header MATCHES "/")
        string(REGEX REPLACE "/.*$" "" room "${header}")
      else()
        set(room ".")
      endif()
      if(NOT room IN_LIST rooms)
        string(STRIP "${include}" include)
        list(APPEND lines "${file}: ${include}")
      endif()
    endforeach()
  endforeach()
  if(lines)
    set(said "")
    foreach(room ${rooms})
      if(room STREQUAL ".")
        list(APPEND said "the headers at ${prefix}/'s root")
      else()
        list(APPEND said "${prefix}/${room}/")
      endif()
    endforeach()
    list(JOIN said ", " said)
    list(JOIN lines "\n  " text)
    message("${folder}/ includes a room not below it (it may include ${said}):\n  ${text}")
    set(failed TRUE)
  endif()
endforeach()

# tools/prof's root.
file(GLOB root_entries RELATIVE ${SOURCE_DIR}/tools/prof ${SOURCE_DIR}/tools/prof/*)
set(strays "")
foreach(entry ${root_entries})
  if(NOT IS_DIRECTORY ${SOURCE_DIR}/tools/prof/${entry} AND NOT entry IN_LIST kProfRootFiles)
    list(APPEND strays "tools/prof/${entry}")
  endif()
endforeach()
if(strays)
  list(JOIN strays "\n  " text)
  message("tools/prof's root holds main.cpp and what every command shares; put these in "
    "the room of their command (cli, capture, sessions, reports, stats):\n  ${text}")
  set(failed TRUE)
endif()

if(failed)
  message(FATAL_ERROR "include rules broken")
endif()
