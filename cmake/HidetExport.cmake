# Exports the project's libraries so that another MLIR compiler can
#   find_package(Hidet CONFIG REQUIRED)
#   target_link_libraries(my-compiler PRIVATE Hidet::HidetRegistration)
# from the build tree (HIDET_DIR=<build>/lib/cmake/hidet) or an install.

include(CMakePackageConfigHelpers)

get_property(HIDET_EXPORTED_LIBS GLOBAL PROPERTY HIDET_EXPORTED_LIBS)
set(HIDET_CMAKE_BUILD_DIR ${HIDET_BINARY_DIR}/lib/cmake/hidet)
set(HIDET_CONFIG_TEMPLATE ${HIDET_SOURCE_DIR}/cmake/HidetConfig.cmake.in)

export(EXPORT HidetTargets NAMESPACE Hidet::
       FILE ${HIDET_CMAKE_BUILD_DIR}/HidetTargets.cmake)
configure_package_config_file(${HIDET_CONFIG_TEMPLATE}
  ${HIDET_CMAKE_BUILD_DIR}/HidetConfig.cmake
  INSTALL_DESTINATION lib/cmake/hidet)

install(EXPORT HidetTargets NAMESPACE Hidet:: DESTINATION lib/cmake/hidet)
install(FILES ${HIDET_CMAKE_BUILD_DIR}/HidetConfig.cmake
        DESTINATION lib/cmake/hidet)
install(DIRECTORY ${HIDET_SOURCE_DIR}/include/Hidet DESTINATION include
        FILES_MATCHING PATTERN "*.h" PATTERN "*.td")
install(DIRECTORY ${HIDET_BINARY_DIR}/include/Hidet DESTINATION include
        FILES_MATCHING PATTERN "*.inc")
