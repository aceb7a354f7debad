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

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/IR/Builders.h"
#include "mlir/Interfaces/LoopLikeInterface.h"
#include "llvm/ADT/TypeSwitch.h"

using namespace mlir;
using namespace hidet;

#include "Hidet/Dialect/Hidet/IR/HidetDialect.cpp.inc"
#include "Hidet/Dialect/Hidet/IR/HidetEnums.cpp.inc"

#define GET_ATTRDEF_CLASSES
#include "Hidet/Dialect/Hidet/IR/HidetAttrs.cpp.inc"

#include "Hidet/Dialect/Hidet/IR/ScheduleAttrInterface.cpp.inc"

#define GET_OP_CLASSES
#include "Hidet/Dialect/Hidet/IR/HidetOps.cpp.inc"

void HidetDialect::initialize() {
  addAttributes<
#define GET_ATTRDEF_LIST
#include "Hidet/Dialect/Hidet/IR/HidetAttrs.cpp.inc"
      >();
  addOperations<
#define GET_OP_LIST
#include "Hidet/Dialect/Hidet/IR/HidetOps.cpp.inc"
      >();
  // The templates implement it (registerScheduleAttrInterfaceModels).
  declarePromisedInterfaces<ScheduleAttrInterface, SimtMatmulAttr,
                            MmaMatmulAttr, WgmmaMatmulAttr>();
}

/// The `hidet.kernel` dictionary of a gpu.launch: the keys and value kinds
/// kKernelAttrName lists.
static LogicalResult verifyKernelDescription(Operation *op, Attribute value) {
  auto fail = [&]() {
    return op->emitError("'") << kKernelAttrName << "' ";
  };
  if (op->getName().getStringRef() != "gpu.launch")
    return fail() << "must be on a gpu.launch, not on '" << op->getName()
                  << "'";
  auto dict = dyn_cast<DictionaryAttr>(value);
  if (!dict)
    return fail() << "must be a dictionary, got " << value;
  if (!dict.getAs<StringAttr>("kind"))
    return fail() << "needs a string 'kind'";
  for (NamedAttribute entry : dict) {
    StringRef key = entry.getName().strref();
    Attribute v = entry.getValue();
    if (key == "kind" || key == "anchor" || key == "loads") {
      if (!isa<StringAttr>(v))
        return fail() << "'" << key << "' must be a string, got " << v;
    } else if (key == "prologue" || key == "epilogue" || key == "scores" ||
               key == "softmax") {
      auto list = dyn_cast<ArrayAttr>(v);
      if (!list || !llvm::all_of(list, llvm::IsaPred<StringAttr>))
        return fail() << "'" << key << "' must be an array of strings, got "
                      << v;
    } else if (key == "gemm") {
      auto gemm = dyn_cast<DenseI64ArrayAttr>(v);
      if (!gemm || gemm.size() != 5 ||
          llvm::any_of(gemm.asArrayRef(), [](int64_t e) { return e < 0; }))
        return fail() << "'gemm' must be array<i64: batch, M, N, K, taps> of "
                         "non-negative values, got "
                      << v;
    } else {
      return fail() << "has an unknown key '" << key
                    << "' (kind, anchor, gemm, prologue, epilogue, scores, "
                       "softmax, loads)";
    }
  }
  return success();
}

/// `hidet.pipeline_stages` must be a stage count on a loop, `hidet.fusion` a
/// #hidet.fusion of a non-negative group, `hidet.target` a #hidet.target,
/// `hidet.kernel` a kernel's description on a gpu.launch.
/// (`hidet.schedule` is checked by the passes that read it: which schedule
/// kind is right depends on the op's element types and the target.)
LogicalResult HidetDialect::verifyOperationAttribute(Operation *op,
                                                     NamedAttribute attr) {
  if (attr.getName() == kTargetAttrName) {
    if (!isa<TargetAttr>(attr.getValue()))
      return op->emitError("'")
             << kTargetAttrName << "' must be a #hidet.target, got "
             << attr.getValue();
    return success();
  }
  if (attr.getName() == kFusionAttrName) {
    auto fusion = dyn_cast<FusionAttr>(attr.getValue());
    if (!fusion)
      return op->emitError("'")
             << kFusionAttrName << "' must be a #hidet.fusion, got "
             << attr.getValue();
    if (fusion.getGroup() < 0)
      return op->emitError("'")
             << kFusionAttrName << "' group must be non-negative, got "
             << fusion.getGroup();
    return success();
  }
  if (attr.getName() == kKernelAttrName)
    return verifyKernelDescription(op, attr.getValue());
  if (attr.getName() == kAttentionAttrName) {
    if (!isa<AttentionAttr>(attr.getValue()))
      return op->emitError("'")
             << kAttentionAttrName << "' must be a #hidet.attention, got "
             << attr.getValue();
    // The attention's Q K^T, or the kernel built from it.
    StringRef name = op->getName().getStringRef();
    if (name != "linalg.batch_matmul" && name != "gpu.launch")
      return op->emitError("'")
             << kAttentionAttrName
             << "' must be on a linalg.batch_matmul (the attention's Q K^T) "
                "or the gpu.launch of its kernel, not on '"
             << op->getName() << "'";
    return success();
  }
  if (attr.getName() != kPipelineStagesAttrName)
    return success();
  auto stages = dyn_cast<IntegerAttr>(attr.getValue());
  if (!stages || stages.getInt() < 2 || stages.getInt() > 8)
    return op->emitError("'")
           << kPipelineStagesAttrName << "' must be an integer in [2, 8], got "
           << attr.getValue();
  if (!isa<LoopLikeOpInterface>(op))
    return op->emitError("'")
           << kPipelineStagesAttrName << "' must be on a loop, not on '"
           << op->getName() << "'";
  return success();
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
                       ArrayRef<int64_t> blockWarps,
                       ArrayRef<int64_t> warpOuter, ArrayRef<int64_t> warpMid,
                       ArrayRef<int64_t> warpInner, int64_t blockK,
                       int64_t swizzle, int64_t splitK, int64_t stages) {
  for (auto [name, list] :
       {std::pair<StringRef, ArrayRef<int64_t>>{"block_warps", blockWarps},
        {"warp_outer", warpOuter},
        {"warp_mid", warpMid},
        {"warp_inner", warpInner}})
    if (list.size() != 2)
      return emitError() << name << " must have 2 entries (rows, columns), got "
                         << list.size();
  // The schedule space's own checks: valid in the IR iff in the space
  // (target limits aside).
  schedule::SimtMatmulSchedule s{{blockWarps[0], blockWarps[1]},
                                 {warpOuter[0], warpOuter[1]},
                                 {warpMid[0], warpMid[1]},
                                 {warpInner[0], warpInner[1]},
                                 blockK,
                                 {swizzle, splitK},
                                 stages};
  if (std::string error = schedule::checkSimtSchedule(s); !error.empty())
    return emitError() << error;
  return success();
}

SimtMatmulAttr SimtMatmulAttr::get(MLIRContext *ctx,
                                   const schedule::SimtMatmulSchedule &s) {
  return get(ctx, s.blockWarps, s.warpOuter, s.warpMid, s.warpInner, s.blockK,
             s.grid.swizzle, s.grid.splitK, s.stages);
}

schedule::SimtMatmulSchedule SimtMatmulAttr::toSchedule() const {
  auto pair = [](ArrayRef<int64_t> v) {
    return std::array<int64_t, 2>{v[0], v[1]};
  };
  return {pair(getBlockWarps()),
          pair(getWarpOuter()),
          pair(getWarpMid()),
          pair(getWarpInner()),
          getBlockK(),
          {getSwizzle(), getSplitK()},
          getStages()};
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

//===----------------------------------------------------------------------===//
// MmaMatmulAttr
//===----------------------------------------------------------------------===//

LogicalResult
MmaMatmulAttr::verify(function_ref<InFlightDiagnostic()> emitError,
                      ArrayRef<int64_t> block, ArrayRef<int64_t> warp,
                      ArrayRef<int64_t> mma, int64_t stages, int64_t swizzle,
                      int64_t splitK, int64_t tf32Terms) {
  for (auto [name, list, size] :
       {std::tuple<StringRef, ArrayRef<int64_t>, size_t>{"block", block, 3},
        {"warp", warp, 2},
        {"mma", mma, 3}})
    if (list.size() != size)
      return emitError() << name << " must have " << size << " entries, got "
                         << list.size();
  schedule::MmaMatmulSchedule s{{block[0], block[1], block[2]},
                                {warp[0], warp[1]},
                                {mma[0], mma[1], mma[2]},
                                {swizzle, splitK},
                                stages,
                                tf32Terms};
  if (std::string error = schedule::checkMmaSchedule(s); !error.empty())
    return emitError() << error;
  return success();
}

MmaMatmulAttr MmaMatmulAttr::get(MLIRContext *ctx,
                                 const schedule::MmaMatmulSchedule &s) {
  return get(ctx, s.block, s.warp, s.mma, s.stages, s.grid.swizzle,
             s.grid.splitK, s.tf32Terms);
}

schedule::MmaMatmulSchedule MmaMatmulAttr::toSchedule() const {
  ArrayRef<int64_t> block = getBlock(), warp = getWarp(), mma = getMma();
  return {{block[0], block[1], block[2]},
          {warp[0], warp[1]},
          {mma[0], mma[1], mma[2]},
          {getSwizzle(), getSplitK()},
          getStages(),
          getTf32Terms()};
}

//===----------------------------------------------------------------------===//
// WgmmaMatmulAttr
//===----------------------------------------------------------------------===//

LogicalResult
WgmmaMatmulAttr::verify(function_ref<InFlightDiagnostic()> emitError,
                        ArrayRef<int64_t> block, int64_t stages,
                        int64_t swizzle, int64_t splitK, bool persistent,
                        bool pingpong) {
  if (block.size() != 2)
    return emitError() << "block must have 2 entries, got " << block.size();
  schedule::WgmmaMatmulSchedule s{
      {block[0], block[1]}, stages, {swizzle, splitK}, persistent, pingpong};
  if (std::string error = schedule::checkWgmmaSchedule(s); !error.empty())
    return emitError() << error;
  return success();
}

WgmmaMatmulAttr WgmmaMatmulAttr::get(MLIRContext *ctx,
                                     const schedule::WgmmaMatmulSchedule &s) {
  return get(ctx, s.block, s.stages, s.grid.swizzle, s.grid.splitK,
             s.persistent, s.pingpong);
}

schedule::WgmmaMatmulSchedule WgmmaMatmulAttr::toSchedule() const {
  ArrayRef<int64_t> block = getBlock();
  return {{block[0], block[1]},
          getStages(),
          {getSwizzle(), getSplitK()},
          getPersistent(),
          getPingpong()};
}

//===----------------------------------------------------------------------===//
// TargetAttr
//===----------------------------------------------------------------------===//

LogicalResult TargetAttr::verify(function_ref<InFlightDiagnostic()> emitError,
                                 StringRef chip, int64_t numSMs) {
  if (!schedule::targetForChip(chip.str())) {
    InFlightDiagnostic d = emitError();
    d << "unknown chip '" << chip << "'; known chips: ";
    llvm::interleaveComma(schedule::knownChips(), d);
    return d;
  }
  if (numSMs < 0 || numSMs > 1024)
    return emitError() << "num_sms must be in [0, 1024] (0: the chip's), got "
                       << numSMs;
  return success();
}

schedule::TargetLimits TargetAttr::getLimits() const {
  schedule::TargetLimits limits = *schedule::targetForChip(getChip().str());
  if (getNumSms() > 0)
    limits.numSMs = getNumSms();
  return limits;
}

TargetAttr TargetAttr::lookup(Operation *op) {
  MLIRContext *ctx = op->getContext();
  for (; op; op = op->getParentOp())
    if (auto target = op->getAttrOfType<TargetAttr>(kTargetAttrName))
      return target;
  return TargetAttr::get(ctx, schedule::kDefaultChip, 0);
}

//===----------------------------------------------------------------------===//
// AttentionAttr
//===----------------------------------------------------------------------===//

LogicalResult
AttentionAttr::verify(function_ref<InFlightDiagnostic()> emitError,
                      int64_t blockQ, int64_t blockKV) {
  // A warp owns 16 query rows (an mma.m16n8k16 row tile); the key tile is
  // the k extent of P V's mma steps and the n extent of S's.
  if (blockQ < 16 || blockQ > 128 || blockQ % 16 != 0)
    return emitError() << "block_q must be a multiple of 16 in [16, 128] "
                          "(16 query rows a warp), got "
                       << blockQ;
  if (blockKV < 16 || blockKV > 128 || blockKV % 16 != 0)
    return emitError() << "block_kv must be a multiple of 16 in [16, 128], "
                          "got "
                       << blockKV;
  return success();
}

//===----------------------------------------------------------------------===//
// PersistentCountersOp
//===----------------------------------------------------------------------===//

LogicalResult PersistentCountersOp::verify() {
  if (getType().getRank() != 1)
    return emitOpError("counts in a 1-D memref, got ") << getType();
  if (getType().getMemorySpace())
    return emitOpError("counts in global memory (no memory space), got ")
           << getType();
  if (!(*this)->getParentOfType<gpu::LaunchOp>() &&
      !(*this)->getParentOfType<gpu::GPUFuncOp>())
    return emitOpError("belongs to a kernel: it must be inside a gpu.launch "
                       "or a gpu.func");
  return success();
}
