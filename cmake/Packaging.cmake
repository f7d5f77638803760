# Installation and the Debian package (scripts/package; docs/install.md).
#
#   bin/cublas-tidy, bin/cublas-clangd
#   lib/cublas-tidy/<LLVM major>/libCublasTidy.so   the clang-tidy plugin
#   share/cublas-tidy/torch-include/   the stand-in header --torch adds for
#                        a CPU build of libtorch
#   share/cublas-tidy/   the pre-commit hook and the CI action's script, to
#                        run by hand (pre-commit and GitHub use this
#                        repository's copies)
#   share/doc/cublas-tidy/copyright, LICENSE   Apache-2.0 WITH LLVM-exception
#   share/doc/cublas-tidy/html/   the check pages and guides, with an index
#                                 (cublas-clangd links findings to them)
#   share/man/man1/cublas-tidy.1, cublas-clangd.1  the manual pages, made
#                                 from --help
#                                 (help2man)
#   lib/cublas-tidy/<other major>/libCublasTidy.so   plugins built for
#                        older clang-tidy releases (CUBLAS_TIDY_EXTRA_PLUGINS)
#
# The package depends on the runtime libraries only (dpkg-shlibdeps), and on
# clang's builtin headers (stddef.h, the CUDA wrappers), which every clang
# tool parses with and Debian ships as libclang-common-NN-dev (its
# clang-tidy-NN depends on them too): a CI image installs it without LLVM's
# development packages.
include(GNUInstallDirs)

install(TARGETS cublas-tidy RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
if(TARGET cublas-clangd)
  install(TARGETS cublas-clangd RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
endif()
if(TARGET CublasTidyPlugin)
  install(TARGETS CublasTidyPlugin
    LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR}/cublas-tidy/${LLVM_VERSION_MAJOR})
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
    PERMISSIONS OWNER_READ OWNER_WRITE OWNER_EXECUTE GROUP_READ GROUP_EXECUTE
                WORLD_READ WORLD_EXECUTE)
endforeach()
install(PROGRAMS scripts/pre-commit-hook scripts/ci-action
  DESTINATION ${CMAKE_INSTALL_DATADIR}/cublas-tidy)
# The header a CUDA build of libtorch generates, for --torch with a CPU
# build (Debian's libtorch-dev).
install(DIRECTORY test/torch-include/c10
  DESTINATION ${CMAKE_INSTALL_DATADIR}/cublas-tidy/torch-include)

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
  DESTINATION ${CMAKE_INSTALL_DOCDIR}/html)
install(FILES README.md LICENSE DESTINATION ${CMAKE_INSTALL_DOCDIR})
# The Debian copyright file (machine-readable: the license and its exceptions).
install(FILES cmake/copyright DESTINATION ${CMAKE_INSTALL_DOCDIR})

# The manual page: --help and --version through help2man.
find_program(CUBLAS_TIDY_HELP2MAN help2man)
if(CUBLAS_TIDY_HELP2MAN)
  # The manual page of the tool `_tool`, from its --help and `_h2m`.
  # help2man makes an OPTIONS section of an "Options:" line; LLVM's --help
  # says "OPTIONS:". A wrapper of the same name says it help2man's way.
  set(_man_targets)
  foreach(_entry "cublas-tidy|checks for cuBLAS and cuBLASLt API misuse"
                 "cublas-clangd|clangd with the cublas-* checks")
    string(REPLACE "|" ";" _entry "${_entry}")
    list(GET _entry 0 _tool)
    list(GET _entry 1 _what)
    if(NOT TARGET ${_tool})
      continue()
    endif()
    set(_wrapper ${PROJECT_BINARY_DIR}/man/bin/${_tool})
    file(GENERATE OUTPUT ${_wrapper}
      CONTENT "#!/bin/sh\nif [ \"$1\" = --help ]; then \"$<TARGET_FILE:${_tool}>\" --help | sed 's/^OPTIONS:$/Options:/'; else exec \"$<TARGET_FILE:${_tool}>\" \"$@\"; fi\n"
      FILE_PERMISSIONS OWNER_READ OWNER_WRITE OWNER_EXECUTE GROUP_READ
                       GROUP_EXECUTE WORLD_READ WORLD_EXECUTE)
    set(_man ${PROJECT_BINARY_DIR}/man/${_tool}.1)
    add_custom_command(
      OUTPUT ${_man}
      COMMAND ${CMAKE_COMMAND} -E make_directory ${PROJECT_BINARY_DIR}/man
      COMMAND ${CUBLAS_TIDY_HELP2MAN} --no-info --output=${_man}
              "--name=${_what}"
              --include=${PROJECT_SOURCE_DIR}/docs/${_tool}.h2m ${_wrapper}
      DEPENDS ${_tool} ${PROJECT_SOURCE_DIR}/docs/${_tool}.h2m
      COMMENT "Making the manual page of ${_tool}")
    list(APPEND _man_targets ${_man})
    install(FILES ${_man} DESTINATION ${CMAKE_INSTALL_MANDIR}/man1)
  endforeach()
  add_custom_target(cublas-tidy-man ALL DEPENDS ${_man_targets})
else()
  message(STATUS "help2man not found: no manual page")
endif()

# `cpack` makes the Debian package; `cpack -G TGZ` the tarball of the same
# files (scripts/release makes both).
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
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)
set(CPACK_DEBIAN_PACKAGE_SECTION devel)
set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS ON)
set(CPACK_DEBIAN_PACKAGE_DEPENDS "libclang-common-${LLVM_VERSION_MAJOR}-dev")
# The plugin's clang and clang-tidy symbols come from the clang-tidy that
# loads it; the hook runs under pre-commit.
set(_suggests "clang-tidy-${LLVM_VERSION_MAJOR}" ${_extra_clang_tidy})
list(JOIN _suggests " | " _suggests)
set(CPACK_DEBIAN_PACKAGE_SUGGESTS "${_suggests}, pre-commit, python3")
set(CPACK_DEBIAN_COMPRESSION_TYPE gzip)
string(TOLOWER "${CMAKE_SYSTEM_NAME}-${CMAKE_SYSTEM_PROCESSOR}" _platform)
set(CPACK_PACKAGE_FILE_NAME "cublas-tidy-${PROJECT_VERSION}-${_platform}")
include(CPack)
