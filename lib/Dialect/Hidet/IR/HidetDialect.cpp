//===- HidetDialect.cpp - Hidet schedule dialect --------------------------===//
//
// Part of the Hidet-MLIR project.
//
//===----------------------------------------------------------------------===//
//
// This file implements the `hidet` dialect and the verifiers of its schedule
// attributes: a schedule that no template can run is rejected here, naming
// the field, rather than when the kernel is built.
//
//===----------------------------------------------------------------------===//

#include "Hidet/Dialect/Hidet/IR/Hidet.h"

#include "mlir/IR/Builders.h"
#include "llvm/ADT/TypeSwitch.h"

using namespace mlir;
using namespace hidet;

#include "Hidet/Dialect/Hidet/IR/HidetDialect.cpp.inc"

#define GET_ATTRDEF_CLASSES
#include "Hidet/Dialect/Hidet/IR/HidetAttrs.cpp.inc"

void HidetDialect::initialize() {
  addAttributes<
#define GET_ATTRDEF_LIST
#include "Hidet/Dialect/Hidet/IR/HidetAttrs.cpp.inc"
      >();
}

FailureOr<SmallVector<int64_t>> hidet::parseIntList(AsmParser &p) {
  SmallVector<int64_t> values;
  if (p.parseCommaSeparatedList(AsmParser::Delimiter::Square, [&]() {
        int64_t v;
        if (p.parseInteger(v))
          return failure();
        values.push_back(v);
        return success();
      }))
    return failure();
  return values;
}

void hidet::printIntList(AsmPrinter &p, ArrayRef<int64_t> values) {
  p << "[";
  llvm::interleaveComma(values, p);
  p << "]";
}

//===----------------------------------------------------------------------===//
// SimtMatmulAttr
//===----------------------------------------------------------------------===//

LogicalResult
SimtMatmulAttr::verify(function_ref<InFlightDiagnostic()> emitError,
                       ArrayRef<int64_t> blockWarps, ArrayRef<int64_t> warpOuter,
                       ArrayRef<int64_t> warpMid, ArrayRef<int64_t> warpInner,
                       int64_t blockK) {
  for (auto [name, list] :
       {std::pair<StringRef, ArrayRef<int64_t>>{"block_warps", blockWarps},
        {"warp_outer", warpOuter},
        {"warp_mid", warpMid},
        {"warp_inner", warpInner}}) {
    if (list.size() != 2)
      return emitError() << name << " must have 2 entries (rows, columns), got "
                         << list.size();
    for (int64_t v : list)
      if (v <= 0 || v > 1024)
        return emitError() << name << " entries must be in [1, 1024], got "
                           << v;
  }
  if (warpMid[0] * warpMid[1] != 32)
    return emitError() << "warp_mid must cover the 32 lanes of a warp, got "
                       << warpMid[0] << " x " << warpMid[1];
  int64_t threads = blockWarps[0] * blockWarps[1] * 32;
  if (threads > 1024)
    return emitError() << "block_warps gives " << threads
                       << " threads per block; at most 1024";
  if (blockK <= 0 || blockK > 64)
    return emitError() << "block_k must be in [1, 64], got " << blockK;
  int64_t bm = blockWarps[0] * warpOuter[0] * warpMid[0] * warpInner[0];
  int64_t bn = blockWarps[1] * warpOuter[1] * warpMid[1] * warpInner[1];
  // The tile loads distribute BM x block_k and block_k x BN elements over
  // the threads (auto_map needs an exact split).
  if ((bm * blockK) % threads != 0 || (bn * blockK) % threads != 0)
    return emitError() << "block_k = " << blockK << ": the " << bm << " x "
                       << blockK << " and " << blockK << " x " << bn
                       << " tiles cannot be split evenly over " << threads
                       << " threads";
  int64_t perThread = warpOuter[0] * warpInner[0] * warpOuter[1] * warpInner[1];
  if (perThread > 256)
    return emitError() << "warp_outer * warp_inner gives " << perThread
                       << " accumulators per thread; at most 256";
  return success();
}

int64_t SimtMatmulAttr::getNumThreads() const {
  return getBlockWarps()[0] * getBlockWarps()[1] * 32;
}
int64_t SimtMatmulAttr::getBlockM() const {
  return getBlockWarps()[0] * getWarpOuter()[0] * getWarpMid()[0] *
         getWarpInner()[0];
}
int64_t SimtMatmulAttr::getBlockN() const {
  return getBlockWarps()[1] * getWarpOuter()[1] * getWarpMid()[1] *
         getWarpInner()[1];
}
