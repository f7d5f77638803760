# Installation and the Debian packages (scripts/package; docs/release.md).
#
# Two components, one Debian package each:
#
# tidy: the package cublas-tidy, everything but the language server
#   bin/cublas-tidy
#   lib/cublas-tidy/<LLVM major>/libCublasTidy.so   the clang-tidy plugin
#   lib/cublas-tidy/<other major>/libCublasTidy.so   plugins built for
#                        older clang-tidy releases (CUBLAS_TIDY_EXTRA_PLUGINS)
#   share/cublas-tidy/torch-include/   the stand-in header --torch adds for
#                        a CPU build of libtorch
#   share/cublas-tidy/   the pre-commit hook and the CI action's script, to
#                        run by hand (pre-commit and GitHub use this
#                        repository's copies)
#   share/doc/cublas-tidy/copyright, LICENSE   Apache-2.0 WITH LLVM-exception
#   share/doc/cublas-tidy/html/   the check pages and guides, with an index
#                                 (cublas-clangd links findings to them)
#   share/man/man1/cublas-tidy.1.gz   the manual page, made from --help
#                                 (help2man)
# clangd: the package cublas-clangd, which depends on cublas-tidy of the
#   same version (the pages its findings link to)
#   bin/cublas-clangd
#   share/doc/cublas-clangd/copyright
#   share/man/man1/cublas-clangd.1.gz
#
# cublas-clangd links Debian's clangd, built with the remote index: it alone
# needs gRPC, protobuf, abseil, c-ares, RE2 and OpenSSL at run time, so the
# package a CI job installs (cublas-tidy) depends on none of them.
#
# The packages depend on the runtime libraries only (dpkg-shlibdeps), and on
# clang's builtin headers (stddef.h, the CUDA wrappers), which every clang
# tool parses with and Debian ships as libclang-common-NN-dev (its
# clang-tidy-NN depends on them too): a CI image installs it without LLVM's
# development packages. The tarball (cpack -G TGZ) holds both components.
include(GNUInstallDirs)

install(TARGETS cublas-tidy RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR}
  COMPONENT tidy)
if(TARGET cublas-clangd)
  install(TARGETS cublas-clangd RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR}
    COMPONENT clangd)
  install(FILES cmake/copyright
    DESTINATION ${CMAKE_INSTALL_DATADIR}/doc/cublas-clangd COMPONENT clangd)
endif()
if(TARGET CublasTidyPlugin)
  install(TARGETS CublasTidyPlugin
    LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR}/cublas-tidy/${LLVM_VERSION_MAJOR}
    COMPONENT tidy)
endif()
# Plugins built against other clang-tidy releases (a build with
# -DLLVM_ROOT=/usr/lib/llvm-19 makes one): "19=/path/libCublasTidy.so;...".
set(CUBLAS_TIDY_EXTRA_PLUGINS "" CACHE STRING
  "Plugins for other clang-tidy releases to install: MAJOR=PATH;...")
foreach(_entry ${CUBLAS_TIDY_EXTRA_PLUGINS})
  if(NOT _entry MATCHES "^([0-9]+)=(.+)$")
    message(FATAL_ERROR "CUBLAS_TIDY_EXTRA_PLUGINS: '${_entry}' is not MAJOR=PATH")
  endif()
  list(APPEND _extra_clang_tidy "clang-tidy-${CMAKE_MATCH_1}")
  install(FILES ${CMAKE_MATCH_2}
    DESTINATION ${CMAKE_INSTALL_LIBDIR}/cublas-tidy/${CMAKE_MATCH_1}
    COMPONENT tidy
    PERMISSIONS OWNER_READ OWNER_WRITE OWNER_EXECUTE GROUP_READ GROUP_EXECUTE
                WORLD_READ WORLD_EXECUTE)
endforeach()
install(PROGRAMS scripts/pre-commit-hook scripts/ci-action
  DESTINATION ${CMAKE_INSTALL_DATADIR}/cublas-tidy COMPONENT tidy)
# The header a CUDA build of libtorch generates, for --torch with a CPU
# build (Debian's libtorch-dev).
install(DIRECTORY test/torch-include/c10
  DESTINATION ${CMAKE_INSTALL_DATADIR}/cublas-tidy/torch-include COMPONENT tidy)

# The HTML pages, made at build time from docs/.
set(CUBLAS_TIDY_HTML_DIR ${PROJECT_BINARY_DIR}/html)
file(GLOB _doc_sources CONFIGURE_DEPENDS
  ${PROJECT_SOURCE_DIR}/docs/*.md ${PROJECT_SOURCE_DIR}/docs/checks/*.md)
add_custom_command(
  OUTPUT ${CUBLAS_TIDY_HTML_DIR}/index.html
  COMMAND ${Python3_EXECUTABLE} ${PROJECT_SOURCE_DIR}/scripts/render-docs
          ${PROJECT_SOURCE_DIR} ${CUBLAS_TIDY_HTML_DIR}
  DEPENDS ${_doc_sources} ${PROJECT_SOURCE_DIR}/scripts/render-docs
  COMMENT "Rendering the documentation to HTML")
add_custom_target(cublas-tidy-docs ALL DEPENDS ${CUBLAS_TIDY_HTML_DIR}/index.html)
install(DIRECTORY ${CUBLAS_TIDY_HTML_DIR}/
  DESTINATION ${CMAKE_INSTALL_DOCDIR}/html COMPONENT tidy)
install(FILES README.md LICENSE DESTINATION ${CMAKE_INSTALL_DOCDIR}
  COMPONENT tidy)
# The Debian copyright file (machine-readable: the license and its exceptions).
install(FILES cmake/copyright DESTINATION ${CMAKE_INSTALL_DOCDIR}
  COMPONENT tidy)

# The manual pages: --help through help2man, gzipped as Debian installs
# them. cmake/man-help.py gives help2man the --help it can read (an OPTIONS
# section, each option apart from its description, no banner), with the
# page address an installed cublas-clangd uses as its default; the version
# is the project's (the footer's), the title the tool's name.
find_program(CUBLAS_TIDY_HELP2MAN help2man)
find_program(CUBLAS_TIDY_GZIP gzip)
if(CUBLAS_TIDY_HELP2MAN AND CUBLAS_TIDY_GZIP)
  set(_man_targets)
  # Where the Debian package puts the pages (CPACK_PACKAGING_INSTALL_PREFIX).
  set(_installed_docs "file:///usr/${CMAKE_INSTALL_DOCDIR}/html/checks")
  foreach(_entry "cublas-tidy|checks for cuBLAS and cuBLASLt API misuse|tidy"
                 "cublas-clangd|clangd with the cublas-* checks|clangd")
    string(REPLACE "|" ";" _entry "${_entry}")
    list(GET _entry 0 _tool)
    list(GET _entry 1 _what)
    list(GET _entry 2 _component)
    if(NOT TARGET ${_tool})
      continue()
    endif()
    # help2man names the page after the program it runs: a wrapper of the
    # tool's name.
    set(_wrapper ${PROJECT_BINARY_DIR}/man/bin/${_tool})
    file(GENERATE OUTPUT ${_wrapper}
      CONTENT "#!/bin/sh\nexec \"${Python3_EXECUTABLE}\" \"${PROJECT_SOURCE_DIR}/cmake/man-help.py\" \"$<TARGET_FILE:${_tool}>\" \"${_installed_docs}\"\n"
      FILE_PERMISSIONS OWNER_READ OWNER_WRITE OWNER_EXECUTE GROUP_READ
                       GROUP_EXECUTE WORLD_READ WORLD_EXECUTE)
    set(_man ${PROJECT_BINARY_DIR}/man/${_tool}.1)
    add_custom_command(
      OUTPUT ${_man}.gz
      COMMAND ${CMAKE_COMMAND} -E make_directory ${PROJECT_BINARY_DIR}/man
      COMMAND ${CUBLAS_TIDY_HELP2MAN} --no-info --output=${_man}
              "--name=${_what}" --version-string=${PROJECT_VERSION}
              --include=${PROJECT_SOURCE_DIR}/docs/${_tool}.h2m ${_wrapper}
      COMMAND ${CUBLAS_TIDY_GZIP} -9nf ${_man}
      DEPENDS ${_tool} ${PROJECT_SOURCE_DIR}/docs/${_tool}.h2m
              ${PROJECT_SOURCE_DIR}/cmake/man-help.py
      COMMENT "Making the manual page of ${_tool}")
    list(APPEND _man_targets ${_man}.gz)
    install(FILES ${_man}.gz DESTINATION ${CMAKE_INSTALL_MANDIR}/man1
      COMPONENT ${_component})
  endforeach()
  add_custom_target(cublas-tidy-man ALL DEPENDS ${_man_targets})
else()
  message(STATUS "help2man or gzip not found: no manual page")
endif()

# `cpack` makes the Debian packages, one per component; `cpack -G TGZ` the
# tarball of all their files (scripts/release makes both).
set(CPACK_GENERATOR DEB)
set(CPACK_PROJECT_CONFIG_FILE ${PROJECT_SOURCE_DIR}/cmake/CPackOptions.cmake)
set(CPACK_PACKAGE_NAME cublas-tidy)
set(CPACK_PACKAGE_VENDOR "cublas-tidy")
set(CPACK_PACKAGE_CONTACT "cublas-tidy maintainers <cublas-tidy@example.invalid>")
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY
  "clang-tidy checks for cuBLAS and cuBLASLt API misuse")
set(CPACK_PACKAGE_VERSION ${PROJECT_VERSION})
set(CPACK_RESOURCE_FILE_LICENSE ${PROJECT_SOURCE_DIR}/LICENSE)
set(CPACK_PACKAGING_INSTALL_PREFIX /usr)
set(CPACK_DEB_COMPONENT_INSTALL ON)
set(CPACK_COMPONENTS_ALL tidy)
if(TARGET cublas-clangd)
  list(APPEND CPACK_COMPONENTS_ALL clangd)
endif()
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)
set(CPACK_DEBIAN_PACKAGE_SECTION devel)
set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS ON)
set(CPACK_DEBIAN_TIDY_PACKAGE_NAME cublas-tidy)
# Each description follows the summary line.
set(CPACK_DEBIAN_TIDY_DESCRIPTION
  "cublas-tidy (clang-tidy with the cublas-* checks built in), the plugin
for clang-tidy --load, the pre-commit hook, the CI action's script, the
manual page and the check pages.")
set(CPACK_DEBIAN_TIDY_PACKAGE_DEPENDS
  "libclang-common-${LLVM_VERSION_MAJOR}-dev")
# The plugin's clang and clang-tidy symbols come from the clang-tidy that
# loads it; the hook runs under pre-commit.
set(_suggests "clang-tidy-${LLVM_VERSION_MAJOR}" ${_extra_clang_tidy})
list(JOIN _suggests " | " _suggests)
set(CPACK_DEBIAN_TIDY_PACKAGE_SUGGESTS "${_suggests}, pre-commit, python3")
set(CPACK_DEBIAN_CLANGD_PACKAGE_NAME cublas-clangd)
set(CPACK_DEBIAN_CLANGD_DESCRIPTION
  "cublas-clangd, clangd with the cublas-* checks built in: a language
server for editors that shows cuBLAS findings as the code is typed, linked
to the check pages of cublas-tidy. Debian's clangd, which it links, brings
the remote index's libraries (gRPC, protobuf, abseil, OpenSSL).")
set(CPACK_DEBIAN_CLANGD_PACKAGE_DEPENDS
  "cublas-tidy (= ${PROJECT_VERSION}), libclang-common-${LLVM_VERSION_MAJOR}-dev")
set(CPACK_DEBIAN_CLANGD_PACKAGE_SECTION devel)
set(CPACK_DEBIAN_COMPRESSION_TYPE gzip)
string(TOLOWER "${CMAKE_SYSTEM_NAME}-${CMAKE_SYSTEM_PROCESSOR}" _platform)
set(CPACK_PACKAGE_FILE_NAME "cublas-tidy-${PROJECT_VERSION}-${_platform}")
include(CPack)
