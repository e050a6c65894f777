# python: builds the Python binding (python/, the package `grundy`) into build/python, so the
# tests import it from there with no install, when a Python 3 with its headers and numpy is
# found. The interpreter is the first of $Python3_EXECUTABLE, `python3` on the PATH and
# /usr/bin/python3 that imports numpy and has Python.h (a pyenv or venv python without numpy
# is passed over for the system's). Not under the sanitizers: Python would need their
# runtimes preloaded.
option(GRUNDY_PYTHON "Build the Python binding when Python 3 (headers, numpy) is found" ON)
set(GRUNDY_PYTHON_NOTE "not built: off (GRUNDY_PYTHON=OFF, or a sanitizer build)")
if(NOT GRUNDY_PYTHON OR GRUNDY_SANITIZE OR GRUNDY_TSAN)
  return()
endif()

if(NOT Python3_EXECUTABLE)
  find_program(GRUNDY_PATH_PYTHON3 NAMES python3)
  foreach(candidate ${GRUNDY_PATH_PYTHON3} /usr/bin/python3)
    if(EXISTS "${candidate}")
      execute_process(COMMAND "${candidate}" -c
        "import numpy, os, sysconfig; assert os.path.exists(os.path.join(sysconfig.get_paths()['include'], 'Python.h'))"
        RESULT_VARIABLE ok OUTPUT_QUIET ERROR_QUIET)
      if(ok EQUAL 0)
        set(Python3_EXECUTABLE "${candidate}" CACHE FILEPATH "The Python of the binding")
        break()
      endif()
    endif()
  endforeach()
endif()
if(NOT Python3_EXECUTABLE)
  set(GRUNDY_PYTHON_NOTE "not built: no Python 3 with numpy and its headers (apt-get install python3-dev python3-numpy)")
  return()
endif()
find_package(Python3 3.10 COMPONENTS Interpreter Development.Module)
if(NOT Python3_Development.Module_FOUND)
  set(GRUNDY_PYTHON_NOTE "not built: no headers for ${Python3_EXECUTABLE} (apt-get install python3-dev)")
  return()
endif()
set(GRUNDY_PYTHON_NOTE "built: the package grundy in build/python, for ${Python3_EXECUTABLE} (${Python3_VERSION})")

set(GRUNDY_PYTHON_DIR ${CMAKE_BINARY_DIR}/python)
Python3_add_library(grundy_python MODULE WITH_SOABI ${CMAKE_SOURCE_DIR}/python/src/_grundy.c)
set_target_properties(grundy_python PROPERTIES OUTPUT_NAME _grundy
                      LIBRARY_OUTPUT_DIRECTORY ${GRUNDY_PYTHON_DIR}/grundy)
# Python's headers are not written for -Wpedantic and friends: the usual set without those.
target_compile_options(grundy_python PRIVATE -Wall -Wextra -Werror -Wshadow -Wstrict-prototypes
                       -Wmissing-prototypes -Wformat=2 -Wvla)
target_link_libraries(grundy_python PRIVATE grundy_lib Threads::Threads)
# The package's Python files beside the extension, copied again whenever one changes.
file(GLOB GRUNDY_PYTHON_FILES CONFIGURE_DEPENDS ${CMAKE_SOURCE_DIR}/python/grundy/*)
set(GRUNDY_PYTHON_COPIES)
foreach(f ${GRUNDY_PYTHON_FILES})
  get_filename_component(name ${f} NAME)
  set(copy ${GRUNDY_PYTHON_DIR}/grundy/${name})
  add_custom_command(OUTPUT ${copy} DEPENDS ${f} COMMAND ${CMAKE_COMMAND} -E copy ${f} ${copy})
  list(APPEND GRUNDY_PYTHON_COPIES ${copy})
endforeach()
add_custom_target(grundy_python_files ALL DEPENDS ${GRUNDY_PYTHON_COPIES})
add_dependencies(grundy_python grundy_python_files)
set(GRUNDY_PYTHON_BUILT ON)
