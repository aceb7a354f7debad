//===- Registration.cpp - Register Hidet dialects and passes --------------===//
//
// Part of the Hidet-MLIR project.
//
//===----------------------------------------------------------------------===//

#include "Hidet/InitAllDialects.h"

#include "Hidet/Conversion/Passes.h"
#include "Hidet/Dialect/Hidet/IR/Hidet.h"
#include "Hidet/Dialect/TaskMapping/IR/TaskMapping.h"
#include "Hidet/Dialect/TaskMapping/Transforms/Passes.h"
#include "Hidet/Interfaces/FusibleOpInterface.h"
#include "Hidet/Pipelines/Pipelines.h"
#include "Hidet/Transforms/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/DialectRegistry.h"

void hidet::registerHidetDialects(mlir::DialectRegistry &registry) {
  registry.insert<hidet::tm::TaskMappingDialect, hidet::HidetDialect, mlir::arith::ArithDialect,
                  mlir::gpu::GPUDialect, mlir::scf::SCFDialect,
                  mlir::linalg::LinalgDialect, mlir::memref::MemRefDialect,
                  mlir::vector::VectorDialect, mlir::affine::AffineDialect>();
  hidet::registerFusibleOpInterfaceExternalModels(registry);
  hidet::registerScheduleAttrInterfaceModels(registry);
}

void hidet::registerHidetPasses() {
  hidet::tm::registerTaskMappingPasses();
  hidet::registerHidetConversionPasses();
  hidet::registerHidetTransformsPasses();
  hidet::registerHidetPipelines();
}
