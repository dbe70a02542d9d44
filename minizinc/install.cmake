# MiniZinc integration of fzn-bamboo: the solver configuration (bamboo.msc.in), the solver
# library (mznlib/) and the decomposition for other solvers (decomposition/).
#
# include()d from minizinc/CMakeLists.txt, after add_executable(fzn-bamboo ...).
#
# Build tree: ${BAMBOO_MZN_SOLVER_PATH}/bamboo.msc names the built fzn-bamboo and the
#   source mznlib, so tests can run the solver without installing:
#     MZN_SOLVER_PATH=${BAMBOO_MZN_SOLVER_PATH} minizinc --solver bamboo model.mzn
#   (MiniZinc searches MZN_SOLVER_PATH before its own folders, so this config wins over
#   an installed one.) BAMBOO_MZN_DECOMPOSITION_DIR is the decomposition folder for -I.
# Install (paths under the prefix given at install time, `cmake --install --prefix` too):
#   bin/fzn-bamboo
#   share/bamboo/mznlib/           the solver library (the msc's "mznlib")
#   share/bamboo/decomposition/    stable_matching.mzn for other solvers (-I this folder)
#   share/minizinc/solvers/bamboo.msc
#   With the default prefix /usr/local, MiniZinc 2.6.4 finds the config by itself
#   (/usr/local/share/minizinc/solvers is on its search path); for another prefix, set
#   MZN_SOLVER_PATH=<prefix>/share/minizinc/solvers.

include_guard(GLOBAL)

if(NOT TARGET fzn-bamboo)
  message(FATAL_ERROR "minizinc/install.cmake: include it after add_executable(fzn-bamboo ...)")
endif()

include(GNUInstallDirs)

set(_bamboo_mzn_src "${CMAKE_CURRENT_LIST_DIR}")

# --- Build-tree solver configuration ----------------------------------------------------
# configure_file fills in the version and the library; file(GENERATE) then resolves the
# executable's path, which is only known per configuration.
set(BAMBOO_MSC_EXECUTABLE "$<TARGET_FILE:fzn-bamboo>")
set(BAMBOO_MSC_MZNLIB "${_bamboo_mzn_src}/mznlib")
configure_file("${_bamboo_mzn_src}/bamboo.msc.in" "${CMAKE_CURRENT_BINARY_DIR}/bamboo-build.msc.in" @ONLY)
get_property(_bamboo_multi_config GLOBAL PROPERTY GENERATOR_IS_MULTI_CONFIG)
if(_bamboo_multi_config)
  set(_bamboo_solvers_dir "${CMAKE_CURRENT_BINARY_DIR}/solvers/$<CONFIG>")
else()
  set(_bamboo_solvers_dir "${CMAKE_CURRENT_BINARY_DIR}/solvers")
endif()
file(GENERATE OUTPUT "${_bamboo_solvers_dir}/bamboo.msc"
     INPUT "${CMAKE_CURRENT_BINARY_DIR}/bamboo-build.msc.in")
set(BAMBOO_MZN_SOLVER_PATH "${_bamboo_solvers_dir}" CACHE INTERNAL
    "Folder holding the build-tree bamboo.msc (for MZN_SOLVER_PATH; has $<CONFIG> with multi-config generators)")
set(BAMBOO_MZN_DECOMPOSITION_DIR "${_bamboo_mzn_src}/decomposition" CACHE INTERNAL
    "Folder holding the stable_matching decomposition for other solvers (for minizinc -I)")
unset(BAMBOO_MSC_EXECUTABLE)
unset(BAMBOO_MSC_MZNLIB)

# --- Installation ------------------------------------------------------------------------
install(TARGETS fzn-bamboo RUNTIME DESTINATION "${CMAKE_INSTALL_BINDIR}")
install(DIRECTORY "${_bamboo_mzn_src}/mznlib/" DESTINATION "${CMAKE_INSTALL_DATADIR}/bamboo/mznlib"
        FILES_MATCHING PATTERN "*.mzn")
install(DIRECTORY "${_bamboo_mzn_src}/decomposition/" DESTINATION "${CMAKE_INSTALL_DATADIR}/bamboo/decomposition"
        FILES_MATCHING PATTERN "*.mzn")

# The installed msc needs absolute paths under the prefix actually used, which
# `cmake --install --prefix` may change after configuration: it is written at install time.
# file(INSTALL) adds $DESTDIR, while the paths inside the file stay the final ones.
set(_bamboo_msc_install_code [=[
  set(_bindir "@CMAKE_INSTALL_BINDIR@")
  set(_datadir "@CMAKE_INSTALL_DATADIR@")
  if(NOT IS_ABSOLUTE "${_bindir}")
    set(_bindir "${CMAKE_INSTALL_PREFIX}/${_bindir}")
  endif()
  if(NOT IS_ABSOLUTE "${_datadir}")
    set(_datadir "${CMAKE_INSTALL_PREFIX}/${_datadir}")
  endif()
  set(PROJECT_VERSION "@PROJECT_VERSION@")
  set(BAMBOO_MSC_EXECUTABLE "${_bindir}/$<TARGET_FILE_NAME:fzn-bamboo>")
  set(BAMBOO_MSC_MZNLIB "${_datadir}/bamboo/mznlib")
  configure_file("@_bamboo_mzn_src@/bamboo.msc.in" "@CMAKE_CURRENT_BINARY_DIR@/install/bamboo.msc" @ONLY)
  file(INSTALL DESTINATION "${_datadir}/minizinc/solvers" TYPE FILE
       FILES "@CMAKE_CURRENT_BINARY_DIR@/install/bamboo.msc")
]=])
string(CONFIGURE "${_bamboo_msc_install_code}" _bamboo_msc_install_code @ONLY)
install(CODE "${_bamboo_msc_install_code}")
