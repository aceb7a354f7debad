# Helpers shared by the project's CMake files.

# add_hidet_library(name sources... [DEPENDS targets...] [LINK_LIBS libs...]
#                   [MLIR_LIBS mlir-libs...])
# A static project library whose MLIR dependencies resolve to libMLIR.so
# (mlir_target_link_libraries with MLIR_LINK_MLIR_DYLIB=ON). The target is
# exported as Hidet::<name> for find_package(Hidet).
function(add_hidet_library name)
  cmake_parse_arguments(ARG "" "" "DEPENDS;LINK_LIBS;MLIR_LIBS" ${ARGN})
  add_mlir_library(${name} ${ARG_UNPARSED_ARGUMENTS}
    EXCLUDE_FROM_LIBMLIR
    DISABLE_INSTALL
    DEPENDS ${ARG_DEPENDS}
    LINK_LIBS PUBLIC ${ARG_LINK_LIBS})
  if(ARG_MLIR_LIBS)
    mlir_target_link_libraries(${name} PUBLIC ${ARG_MLIR_LIBS})
  endif()
  target_include_directories(${name} PUBLIC
    $<BUILD_INTERFACE:${HIDET_SOURCE_DIR}/include>
    $<BUILD_INTERFACE:${HIDET_BINARY_DIR}/include>
    $<INSTALL_INTERFACE:include>)
  set_property(GLOBAL APPEND PROPERTY HIDET_EXPORTED_LIBS ${name})
  install(TARGETS ${name} EXPORT HidetTargets
    ARCHIVE DESTINATION lib LIBRARY DESTINATION lib)
endfunction()

# add_hidet_doc(td_file output_name gen_flags...)
# Generates Markdown from TableGen into ${HIDET_BINARY_DIR}/docs/<output_name>.md
# and hangs it on the `hidet-doc` target.
function(add_hidet_doc td_file output_name)
  set(LLVM_TARGET_DEFINITIONS ${td_file}.td)
  mlir_tablegen(${output_name}.md ${ARGN})
  set(out ${HIDET_BINARY_DIR}/docs/${output_name}.md)
  add_custom_command(OUTPUT ${out}
    COMMAND ${CMAKE_COMMAND} -E copy ${CMAKE_CURRENT_BINARY_DIR}/${output_name}.md ${out}
    DEPENDS ${CMAKE_CURRENT_BINARY_DIR}/${output_name}.md)
  add_custom_target(hidet-doc-${output_name} DEPENDS ${out})
  set_property(GLOBAL APPEND PROPERTY HIDET_DOC_TARGETS hidet-doc-${output_name})
  set_property(GLOBAL APPEND PROPERTY HIDET_DOC_FILES ${output_name}.md)
endfunction()

# add_hidet_plain_library(name sources...)
# A static library of plain C++ (no MLIR): the task-mapping algebra and the
# schedule spaces, usable by tuners and unit tests alone. PIC, so that the
# plugin can link it; exported as Hidet::<name>.
function(add_hidet_plain_library name)
  add_library(${name} STATIC ${ARGN})
  llvm_update_compile_flags(${name})
  set_target_properties(${name} PROPERTIES POSITION_INDEPENDENT_CODE ON)
  target_include_directories(${name} PUBLIC
    $<BUILD_INTERFACE:${HIDET_SOURCE_DIR}/include>
    $<INSTALL_INTERFACE:include>)
  set_property(GLOBAL APPEND PROPERTY HIDET_EXPORTED_LIBS ${name})
  install(TARGETS ${name} EXPORT HidetTargets ARCHIVE DESTINATION lib)
endfunction()

# hidet_precompile_headers(target header...)
# Precompiles the `header`s (in angle brackets, found on the include path)
# once for `target`, whose sources then load them instead of parsing them.
# Most of the compile time of a pass is parsing MLIR's dialect headers:
# about 15 of the 17 CPU seconds of a 40-line pass with clang 22 at -O3,
# about 1.5 seconds with them precompiled. HIDET_PRECOMPILED_HEADERS=OFF
# compiles each source alone, which checks that it includes what it uses.
option(HIDET_PRECOMPILED_HEADERS
  "Precompile the MLIR headers of the largest libraries" ON)
function(hidet_precompile_headers target)
  if(HIDET_PRECOMPILED_HEADERS)
    target_precompile_headers(${target} PRIVATE ${ARGN})
    # No timestamps in the header, so that ccache can reuse its compiles
    # (utils/build.sh); the build's dependencies already rebuild it.
    if(CMAKE_CXX_COMPILER_ID MATCHES "Clang")
      target_compile_options(${target} PRIVATE
        "SHELL:-Xclang -fno-pch-timestamp")
    endif()
  endif()
endfunction()
