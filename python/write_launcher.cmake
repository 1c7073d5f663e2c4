# Writes the launcher mbdae-python and mbdae/_build.py (python/CMakeLists.txt): included at
# configure time for the build tree, run as an install script for the install.  In:
#   MBDAE_LAUNCHER_SOURCE      python/ of the source tree (the templates)
#   MBDAE_LAUNCHER_PYTHON      the interpreter the module is built for
#   MBDAE_LAUNCHER_MODULE_DIR  the folder holding the package mbdae (relative: to the prefix)
#   MBDAE_LAUNCHER_BIN_DIR     where the launcher goes (relative: to the prefix)
#   MBDAE_LAUNCHER_WORK        a scratch folder for the configured files
#   MBDAE_LAUNCHER_INSTALL     ON at install time: file(INSTALL) into the prefix (DESTDIR honoured)
foreach(dir MBDAE_LAUNCHER_MODULE_DIR MBDAE_LAUNCHER_BIN_DIR)
  if(NOT IS_ABSOLUTE "${${dir}}")
    set(${dir} "${CMAKE_INSTALL_PREFIX}/${${dir}}")
  endif()
endforeach()
# Inside the sh script the paths are in single quotes: a quote in them is written '\''.
string(REPLACE "'" "'\\''" mbdae_launcher_path "${MBDAE_LAUNCHER_MODULE_DIR}")
string(REPLACE "'" "'\\''" mbdae_launcher_python "${MBDAE_LAUNCHER_PYTHON}")
configure_file(${MBDAE_LAUNCHER_SOURCE}/mbdae-python.in ${MBDAE_LAUNCHER_WORK}/mbdae-python @ONLY)
set(mbdae_launcher_python "${MBDAE_LAUNCHER_PYTHON}")
set(mbdae_launcher "${MBDAE_LAUNCHER_BIN_DIR}/mbdae-python")
configure_file(${MBDAE_LAUNCHER_SOURCE}/mbdae/_build.py.in ${MBDAE_LAUNCHER_WORK}/_build.py @ONLY)
set(mbdae_launcher_mode OWNER_READ OWNER_WRITE OWNER_EXECUTE GROUP_READ GROUP_EXECUTE WORLD_READ
  WORLD_EXECUTE)
if(MBDAE_LAUNCHER_INSTALL)
  file(INSTALL DESTINATION "${MBDAE_LAUNCHER_BIN_DIR}" TYPE PROGRAM
    FILES "${MBDAE_LAUNCHER_WORK}/mbdae-python")
  file(INSTALL DESTINATION "${MBDAE_LAUNCHER_MODULE_DIR}/mbdae" TYPE FILE
    FILES "${MBDAE_LAUNCHER_WORK}/_build.py")
else()
  file(COPY "${MBDAE_LAUNCHER_WORK}/mbdae-python" DESTINATION "${MBDAE_LAUNCHER_BIN_DIR}"
    FILE_PERMISSIONS ${mbdae_launcher_mode})
  file(COPY "${MBDAE_LAUNCHER_WORK}/_build.py" DESTINATION "${MBDAE_LAUNCHER_MODULE_DIR}/mbdae")
endif()
