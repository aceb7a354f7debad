//===- hidet-opt.cpp - Hidet-MLIR optimizer driver ------------------------===//
//
// Part of the Hidet-MLIR project.
//
//===----------------------------------------------------------------------===//
//
// An mlir-opt style driver with the project's dialects and passes plus all
// upstream dialects, passes and GPU-to-LLVM-IR translations: the later stages
// of the Hidet flow run upstream passes (bufferization, gpu outlining, NVVM
// lowering, gpu-module-to-binary) on the same module, so the driver registers
// all of them rather than a hand-picked subset that would drift.
//
//===----------------------------------------------------------------------===//

#include "Hidet/InitAllDialects.h"

#include "mlir/IR/DialectRegistry.h"
#include "mlir/InitAllDialects.h"
#include "mlir/InitAllExtensions.h"
#include "mlir/InitAllPasses.h"
#include "mlir/Target/LLVMIR/Dialect/All.h"
#include "mlir/Tools/mlir-opt/MlirOptMain.h"

int main(int argc, char **argv) {
  mlir::registerAllPasses();
  hidet::registerHidetPasses();

  mlir::DialectRegistry registry;
  mlir::registerAllDialects(registry);
  mlir::registerAllExtensions(registry);
  // gpu-module-to-binary needs the LLVM IR translations of the GPU dialects.
  mlir::registerAllGPUToLLVMIRTranslations(registry);
  hidet::registerHidetDialects(registry);

  return mlir::asMainReturnCode(mlir::MlirOptMain(
      argc, argv, "Hidet-MLIR optimizer driver\n", registry));
}
