# Read by cpack for each generator (CPACK_PROJECT_CONFIG_FILE). The Debian
# package installs under /usr; the tarball, for other distributions, holds
# bin/, lib/ and share/ under one folder, to be unpacked anywhere.
if(CPACK_GENERATOR STREQUAL "TGZ")
  set(CPACK_PACKAGING_INSTALL_PREFIX "")
  set(CPACK_INCLUDE_TOPLEVEL_DIRECTORY ON)
endif()
