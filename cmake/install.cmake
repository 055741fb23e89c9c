# Install rules and packages (docs/library.md): headers under include/warpreg, the
# libraries (one per layer, static and shared), the warpreg program, the data files
# under share/warpreg with their source-tree paths, a CMake package
# (find_package(warpreg CONFIG), targets warpreg::LAYER and warpreg::LAYER_static) and
# pkg-config files (warpreg, and warpreg-cores without SystemC).
include(CMakePackageConfigHelpers)

set(WARPREG_CMAKE_DIR ${CMAKE_INSTALL_LIBDIR}/cmake/warpreg)

# Headers keep their repository paths: sources include "modules/bdi/bdi_core.h".
foreach(dir common power modules designs platforms stimuli apps/sweep)
  get_filename_component(parent ${dir} DIRECTORY)
  install(DIRECTORY ${PROJECT_SOURCE_DIR}/${dir}
    DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}/warpreg/${parent}
    COMPONENT development FILES_MATCHING PATTERN "*.h")
endforeach()

# The SystemC-free libraries export on their own, so that find_package(warpreg
# COMPONENTS cores) needs no SystemC.
set(core_layers "")
set(simulation_layers "")
foreach(target IN LISTS WARPREG_LAYERS)
  if(target MATCHES "^warpreg_(common|power|cores)(_shared)?$")
    list(APPEND core_layers ${target})
  else()
    list(APPEND simulation_layers ${target})
  endif()
endforeach()
install(TARGETS ${core_layers} EXPORT warpregCoresTargets
  ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR} COMPONENT development
  LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR} COMPONENT runtime)
install(TARGETS ${simulation_layers} warpreg_all warpreg_all_static EXPORT warpregTargets
  ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR} COMPONENT development
  LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR} COMPONENT runtime)
install(TARGETS warpreg RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR} COMPONENT runtime)
install(EXPORT warpregCoresTargets NAMESPACE warpreg:: DESTINATION ${WARPREG_CMAKE_DIR}
  COMPONENT development)
install(EXPORT warpregTargets NAMESPACE warpreg:: DESTINATION ${WARPREG_CMAKE_DIR}
  COMPONENT development)

# Data: the paths below share/warpreg are the source tree's (common/data_dir.h), so the
# experiments' relative paths (../stimuli/profiles/...) hold in both.
set(data ${WARPREG_INSTALL_DATA_DIR})
install(DIRECTORY ${PROJECT_SOURCE_DIR}/platforms/presets DESTINATION ${data}/platforms
  COMPONENT runtime FILES_MATCHING PATTERN "*.json")
install(DIRECTORY ${PROJECT_SOURCE_DIR}/power/tech DESTINATION ${data}/power
  COMPONENT runtime FILES_MATCHING PATTERN "*.json")
install(DIRECTORY ${PROJECT_SOURCE_DIR}/stimuli/profiles DESTINATION ${data}/stimuli
  COMPONENT runtime FILES_MATCHING PATTERN "*.json")
install(FILES ${PROJECT_SOURCE_DIR}/stimuli/benchmarks/benchmarks.json
  ${PROJECT_SOURCE_DIR}/stimuli/benchmarks/address_mixes.json
  DESTINATION ${data}/stimuli/benchmarks COMPONENT runtime)
install(DIRECTORY ${PROJECT_SOURCE_DIR}/experiments DESTINATION ${data} COMPONENT runtime
  FILES_MATCHING PATTERN "*.json" PATTERN "*.py")
install(DIRECTORY ${PROJECT_SOURCE_DIR}/scripts DESTINATION ${data} COMPONENT runtime
  FILE_PERMISSIONS OWNER_READ OWNER_WRITE OWNER_EXECUTE GROUP_READ GROUP_EXECUTE WORLD_READ
  WORLD_EXECUTE FILES_MATCHING PATTERN "*.py" PATTERN "*.sh"
  PATTERN "check_install.sh" EXCLUDE)
# The examples, to copy and build against this installation (docs/library.md).
install(DIRECTORY ${PROJECT_SOURCE_DIR}/examples DESTINATION ${data} COMPONENT development)

configure_package_config_file(${CMAKE_CURRENT_LIST_DIR}/warpregConfig.cmake.in
  ${PROJECT_BINARY_DIR}/warpregConfig.cmake INSTALL_DESTINATION ${WARPREG_CMAKE_DIR}
  PATH_VARS WARPREG_INSTALL_DATA_DIR CMAKE_INSTALL_BINDIR)
write_basic_package_version_file(${PROJECT_BINARY_DIR}/warpregConfigVersion.cmake
  COMPATIBILITY SameMinorVersion)
install(FILES ${PROJECT_BINARY_DIR}/warpregConfig.cmake
  ${PROJECT_BINARY_DIR}/warpregConfigVersion.cmake DESTINATION ${WARPREG_CMAKE_DIR}
  COMPONENT development)

# pkg-config: the prefix is found from the .pc file's place, so any --prefix works.
file(RELATIVE_PATH WARPREG_PC_TO_PREFIX ${CMAKE_INSTALL_FULL_LIBDIR}/pkgconfig
  ${CMAKE_INSTALL_PREFIX})
string(REGEX REPLACE "/$" "" WARPREG_PC_TO_PREFIX "${WARPREG_PC_TO_PREFIX}")
foreach(pc warpreg warpreg-cores)
  configure_file(${CMAKE_CURRENT_LIST_DIR}/${pc}.pc.in ${PROJECT_BINARY_DIR}/${pc}.pc @ONLY)
  install(FILES ${PROJECT_BINARY_DIR}/${pc}.pc DESTINATION ${CMAKE_INSTALL_LIBDIR}/pkgconfig
    COMPONENT development)
endforeach()
