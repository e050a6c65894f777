# install: what `cmake --install build --prefix P` puts under P: the command (and grundy-mpi when
# it is built), the shared and static libraries, include/grundy.h, a pkg-config file, a CMake
# package (grundy::grundy), the man pages, the docs and the examples.
include(GNUInstallDirs)
include(CMakePackageConfigHelpers)

install(TARGETS grundy RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
if(TARGET grundy-mpi)
  install(TARGETS grundy-mpi RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
  install(FILES ${CMAKE_SOURCE_DIR}/docs/man/grundy-mpi.1 DESTINATION ${CMAKE_INSTALL_MANDIR}/man1)
endif()
install(TARGETS grundy_shared grundy_lib EXPORT grundyTargets
        LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR}
        ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR}
        RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR}
        INCLUDES DESTINATION ${CMAKE_INSTALL_INCLUDEDIR})
install(FILES ${CMAKE_SOURCE_DIR}/include/grundy.h DESTINATION ${CMAKE_INSTALL_INCLUDEDIR})

set(GRUNDY_CMAKE_DIR ${CMAKE_INSTALL_LIBDIR}/cmake/grundy)
install(EXPORT grundyTargets NAMESPACE grundy:: DESTINATION ${GRUNDY_CMAKE_DIR})
configure_package_config_file(${CMAKE_SOURCE_DIR}/cmake/grundyConfig.cmake.in
                              ${CMAKE_BINARY_DIR}/grundyConfig.cmake
                              INSTALL_DESTINATION ${GRUNDY_CMAKE_DIR})
# Before 1.0 a minor release may change the interface.
write_basic_package_version_file(${CMAKE_BINARY_DIR}/grundyConfigVersion.cmake
                                 VERSION ${PROJECT_VERSION} COMPATIBILITY SameMinorVersion)
install(FILES ${CMAKE_BINARY_DIR}/grundyConfig.cmake ${CMAKE_BINARY_DIR}/grundyConfigVersion.cmake
        DESTINATION ${GRUNDY_CMAKE_DIR})

# The .pc file finds the prefix from its own place, so --prefix at install time is honoured.
file(RELATIVE_PATH GRUNDY_PC_TO_PREFIX /${CMAKE_INSTALL_LIBDIR}/pkgconfig /)
string(REGEX REPLACE "/$" "" GRUNDY_PC_TO_PREFIX "${GRUNDY_PC_TO_PREFIX}")
# Libs carries the library's directory as an rpath, so a program linked from any prefix runs
# without LD_LIBRARY_PATH. cairo is named by its libraries only (for static links), never as a
# Requires: its include paths are not what grundy.h needs, and --cflags would drag them in.
list(TRANSFORM CAIRO_LIBRARIES PREPEND "-l" OUTPUT_VARIABLE GRUNDY_PC_CAIRO)
list(JOIN GRUNDY_PC_CAIRO " " GRUNDY_PC_PRIVATE_LIBS)
configure_file(${CMAKE_SOURCE_DIR}/cmake/grundy.pc.in ${CMAKE_BINARY_DIR}/grundy.pc @ONLY)
install(FILES ${CMAKE_BINARY_DIR}/grundy.pc DESTINATION ${CMAKE_INSTALL_LIBDIR}/pkgconfig)

install(FILES ${CMAKE_SOURCE_DIR}/docs/man/grundy.1 DESTINATION ${CMAKE_INSTALL_MANDIR}/man1)
install(FILES ${CMAKE_SOURCE_DIR}/docs/man/grundy-game.5 DESTINATION ${CMAKE_INSTALL_MANDIR}/man5)
# Every doc of docs/ (the README and the man pages name them; tests/run_install.sh checks that
# each one named is installed).
file(GLOB GRUNDY_DOCS ${CMAKE_SOURCE_DIR}/docs/*.md)
install(FILES ${CMAKE_SOURCE_DIR}/README.md ${GRUNDY_DOCS} DESTINATION ${CMAKE_INSTALL_DOCDIR})
install(DIRECTORY ${CMAKE_SOURCE_DIR}/examples/ DESTINATION ${CMAKE_INSTALL_DOCDIR}/examples)
# The tutorial's pictures (its links are relative: tutorial/NAME.png beside tutorial.md).
install(DIRECTORY ${CMAKE_SOURCE_DIR}/docs/tutorial/ DESTINATION ${CMAKE_INSTALL_DOCDIR}/tutorial
        FILES_MATCHING PATTERN "*.png" PATTERN "*.game" PATTERN "*.dot")
# The web page's pictures (docs/web.md links img/NAME.png).
install(DIRECTORY ${CMAKE_SOURCE_DIR}/docs/img/ DESTINATION ${CMAKE_INSTALL_DOCDIR}/img FILES_MATCHING PATTERN "*.png")
