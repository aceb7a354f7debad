//===- KernelBuilder.cpp - Helpers that build GPU kernels -----------------===//
//
// Part of the Hidet-MLIR project.
//
//===----------------------------------------------------------------------===//
//
// Index constants and comparisons, launches whose grid comes from a task
// mapping, and the alignment of vector accesses.
//
//===----------------------------------------------------------------------===//

#include "KernelBuilder.h"

#include "mlir/Dialect/Arith/IR/Arith.h"

using namespace mlir;

namespace hidet {
namespace kernel {

Value cst(OpBuilder &b, Location loc, int64_t v) {
  return arith::ConstantIndexOp::create(b, loc, v);
}

Value lessThan(OpBuilder &b, Location loc, Value v, int64_t bound) {
  return arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ult, v,
                               cst(b, loc, bound));
}

/// Creates a 1-D `gpu.launch` of ceil(num_workers(mapping) / perBlock)
/// blocks of `blockSize` threads and calls `body` inside it. The grid size is
/// computed from the mapping in the IR, so it cannot drift from it.
void createLaunch(OpBuilder &b, Location loc,
                  hidet::tm::TaskMappingAttrInterface mapping,
                  int64_t workersPerBlock, int64_t blockSize,
                  function_ref<void(OpBuilder &, gpu::LaunchOp)> body,
                  TypeRange workgroupBuffers) {
  Value workers =
      hidet::tm::NumWorkersOp::create(b, loc, b.getIndexType(), mapping);
  Value block = cst(b, loc, blockSize);
  Value perBlock =
      workersPerBlock == blockSize ? block : cst(b, loc, workersPerBlock);
  Value grid = arith::CeilDivUIOp::create(b, loc, workers, perBlock);
  Value one = cst(b, loc, 1);
  auto launch = gpu::LaunchOp::create(
      b, loc, grid, one, one, block, one, one,
      /*dynamicSharedMemorySize=*/nullptr, /*asyncTokenType=*/nullptr,
      /*asyncDependencies=*/{}, workgroupBuffers);
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPointToStart(&launch.getBody().front());
  body(b, launch);
  gpu::TerminatorOp::create(b, loc);
}

llvm::MaybeAlign vectorAlign(Type elt, int64_t width) {
  return llvm::MaybeAlign(width * ((elt.getIntOrFloatBitWidth() + 7) / 8));
}

bool isVectorizableElement(Type t) {
  return t.isIntOrFloat() && t.getIntOrFloatBitWidth() >= 8;
}

} // namespace kernel
} // namespace hidet
