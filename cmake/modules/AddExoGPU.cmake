#===- AddExoGPU.cmake - declare installed libraries and tools -*- cmake -*-===#
#
# Part of ExoGPU. add_exogpu_library and add_exogpu_tool wrap MLIR's and
# LLVM's declarations (add_mlir_library, add_llvm_executable) and install
# what they declare into the ExoGPUTargets export set, which
# ExoGPUConfig.cmake imports (cmake/modules/CMakeLists.txt), the way CIRCT's
# add_circt_library does for CIRCTTargets. Test-only libraries use
# add_mlir_library with DISABLE_INSTALL instead.
#
#===----------------------------------------------------------------------===#

include(GNUInstallDirs)

# add_exogpu_library(name sources... [add_mlir_library arguments])
#
# An MLIR library installed into lib/ and exported; its imported target
# carries the installed include directory.
function(add_exogpu_library name)
  add_mlir_library(${ARGV} DISABLE_INSTALL)
  install(TARGETS ${name}
    EXPORT ExoGPUTargets
    COMPONENT ${name}
    ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR}
    LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR}
    RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR}
    INCLUDES DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}
    )
  set_property(GLOBAL APPEND PROPERTY EXOGPU_INSTALLED_TARGETS ${name})
endfunction()

# add_exogpu_tool(name sources... [add_llvm_executable arguments])
#
# A tool installed into bin/ and exported (for custom commands of consumers:
# $<TARGET_FILE:exogpu-opt>). Installed tools find the shared LLVM/MLIR
# libraries in LLVM's library directory: LLVM's install RPATH assumes that
# LLVM is installed in the same prefix.
function(add_exogpu_tool name)
  add_llvm_executable(${ARGV})
  llvm_update_compile_flags(${name})
  set_property(TARGET ${name} APPEND PROPERTY INSTALL_RPATH
    "${LLVM_LIBRARY_DIR}")
  install(TARGETS ${name}
    EXPORT ExoGPUTargets
    COMPONENT ${name}
    RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR}
    )
  set_property(GLOBAL APPEND PROPERTY EXOGPU_INSTALLED_TARGETS ${name})
endfunction()
