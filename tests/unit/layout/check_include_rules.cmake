# The layout's arrows (tools -> core -> sdk; plugins -> sdk): no file under
# core/ includes a tools/ header, no file under sdk/ includes a core/ or a
# tools/ one (the SDK stands alone: vendors build against it only), and no
# file under plugins/ includes a core/ header. Plugin files named in ALLOWED, known offenders being moved off
# core/, are reported without failing; any other offender fails.
#
#   cmake -DSOURCE_DIR=<tree> [-DALLOWED=<file;...>] -P check_include_rules.cmake

cmake_minimum_required(VERSION 3.20)

if(NOT SOURCE_DIR)
  message(FATAL_ERROR "check_include_rules: give -DSOURCE_DIR=<source tree>")
endif()

# Returns in `out` the files under `folder` that include a header under
# `target`, and in `out`_lines "<file>: <include line>" for each.
function(files_including folder target out)
  set(found "")
  set(lines "")
  file(GLOB_RECURSE files RELATIVE ${SOURCE_DIR} ${SOURCE_DIR}/${folder}/*.h
       ${SOURCE_DIR}/${folder}/*.hpp ${SOURCE_DIR}/${folder}/*.c ${SOURCE_DIR}/${folder}/*.cpp
       ${SOURCE_DIR}/${folder}/*.cc)
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

if(failed)
  message(FATAL_ERROR "include rules broken")
endif()
