//===- HidetPlugin.cpp - Hidet-MLIR plugin for mlir-opt -------------------===//
//
// Part of the Hidet-MLIR project.
//
//===----------------------------------------------------------------------===//
//
// Lets stock mlir-opt load the project's dialects and passes:
//   mlir-opt --load-dialect-plugin=HidetPlugin.so \
//            --load-pass-plugin=HidetPlugin.so ...
//
//===----------------------------------------------------------------------===//

#include "Hidet/InitAllDialects.h"

#include "mlir/IR/DialectRegistry.h"
#include "mlir/Tools/Plugins/DialectPlugin.h"
#include "mlir/Tools/Plugins/PassPlugin.h"
#include "llvm/Config/llvm-config.h"
#include "llvm/Support/Compiler.h"

extern "C" LLVM_ATTRIBUTE_WEAK mlir::DialectPluginLibraryInfo
mlirGetDialectPluginInfo() {
  return {MLIR_PLUGIN_API_VERSION, "Hidet", LLVM_VERSION_STRING,
          [](mlir::DialectRegistry *registry) {
            hidet::registerHidetDialects(*registry);
          }};
}

extern "C" LLVM_ATTRIBUTE_WEAK mlir::PassPluginLibraryInfo
mlirGetPassPluginInfo() {
  return {MLIR_PLUGIN_API_VERSION, "Hidet", LLVM_VERSION_STRING,
          []() { hidet::registerHidetPasses(); }};
}
