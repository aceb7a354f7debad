//===- TaskMappingOps.cpp - TaskMapping operations ------------------------===//
//
// Part of the Hidet-MLIR project.
//
//===----------------------------------------------------------------------===//
//
// This file implements the tm ops: syntax, verifiers, folders and
// canonicalization patterns.
//
//===----------------------------------------------------------------------===//

#include "Hidet/Dialect/TaskMapping/IR/TaskMapping.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/Matchers.h"
#include "mlir/IR/OpImplementation.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Interfaces/InferIntRangeInterface.h"

using namespace mlir;
using namespace hidet;
using namespace hidet::tm;

#define GET_OP_CLASSES
#include "Hidet/Dialect/TaskMapping/IR/TaskMappingOps.cpp.inc"

//===----------------------------------------------------------------------===//
// Shared helpers
//===----------------------------------------------------------------------===//

/// Parses `(%a, %b, ...)` as `index` block arguments.
static ParseResult
parseTaskIndices(OpAsmParser &parser,
                 SmallVectorImpl<OpAsmParser::Argument> &indices) {
  if (parser.parseArgumentList(indices, OpAsmParser::Delimiter::Paren))
    return failure();
  Type indexType = parser.getBuilder().getIndexType();
  for (OpAsmParser::Argument &arg : indices)
    arg.type = indexType;
  return success();
}

static void printTaskIndices(OpAsmPrinter &p, Block::BlockArgListType args) {
  p << "(";
  llvm::interleaveComma(args, p, [&](BlockArgument a) { p << a; });
  p << ")";
}

/// Parses the body region of a task loop and adds the implicit terminator.
static ParseResult
parseTaskBody(OpAsmParser &parser, OperationState &result,
              ArrayRef<OpAsmParser::Argument> indices) {
  Region *body = result.addRegion();
  if (parser.parseRegion(*body, indices))
    return failure();
  if (body->empty())
    body->emplaceBlock();
  OpBuilder builder(parser.getContext());
  Block &block = body->front();
  if (block.empty() || !block.back().hasTrait<OpTrait::IsTerminator>()) {
    builder.setInsertionPointToEnd(&block);
    YieldOp::create(builder, result.location);
  }
  return success();
}

/// Checks that a task loop's body takes one `index` per task dimension.
static LogicalResult verifyTaskIndices(Operation *op, Block &body,
                                       size_t rank) {
  if (body.getNumArguments() != rank)
    return op->emitOpError("body has ")
           << body.getNumArguments()
           << " task indices but the mapping's task shape has rank " << rank;
  for (BlockArgument arg : body.getArguments())
    if (!arg.getType().isIndex())
      return op->emitOpError("task index #")
             << arg.getArgNumber() << " must have type 'index', got "
             << arg.getType();
  return success();
}

/// Replaces every use of `arg` by the constant 0 (created before `op`).
static void replaceByZero(RewriterBase &rewriter, Operation *op,
                          BlockArgument arg) {
  OpBuilder::InsertionGuard guard(rewriter);
  rewriter.setInsertionPoint(op);
  Value zero = arith::ConstantIndexOp::create(rewriter, op->getLoc(), 0);
  rewriter.replaceAllUsesWith(arg, zero);
}

//===----------------------------------------------------------------------===//
// Worker bounds
//===----------------------------------------------------------------------===//

/// Exclusive upper bound of the value an op with no operands produces, by its
/// integer-range inference (constants, gpu.thread_id with a known block
/// size, gpu.lane_id, ...).
std::optional<int64_t> hidet::tm::getStaticIndexBound(Value v) {
  // A constant names one worker, not a range of workers: folding a worker
  // to a constant must not make the IR invalid.
  if (matchPattern(v, m_Constant()))
    return std::nullopt;
  auto infer = v.getDefiningOp<InferIntRangeInterface>();
  if (!infer || infer->getNumOperands() != 0)
    return std::nullopt;
  std::optional<int64_t> bound;
  infer.inferResultRanges({}, [&](Value result, const ConstantIntRanges &r) {
    if (result != v || r.smin().isNegative())
      return;
    APInt umax = r.umax();
    if (umax.getActiveBits() < 62)
      bound = umax.getZExtValue() + 1;
  });
  return bound;
}

/// Known launch size along `dim` for `op`'s position: a `gpu.func` or
/// function-like op with known block/grid sizes, or a `gpu.launch` with
/// constant sizes.
static std::optional<int64_t> getKnownLaunchSize(Operation *op, bool block,
                                                 unsigned dim) {
  for (Operation *p = op->getParentOp(); p; p = p->getParentOp()) {
    if (auto launch = dyn_cast<gpu::LaunchOp>(p)) {
      Value size = block ? launch.getBlockSizeOperandValues().x
                         : launch.getGridSizeOperandValues().x;
      if (dim == 1)
        size = block ? launch.getBlockSizeOperandValues().y
                     : launch.getGridSizeOperandValues().y;
      if (dim == 2)
        size = block ? launch.getBlockSizeOperandValues().z
                     : launch.getGridSizeOperandValues().z;
      APInt c;
      if (matchPattern(size, m_ConstantInt(&c)) && !c.isNegative())
        return c.getSExtValue();
      return std::nullopt;
    }
    if (auto func = dyn_cast<gpu::GPUFuncOp>(p)) {
      std::optional<ArrayRef<int32_t>> sizes =
          block ? func.getKnownBlockSize() : func.getKnownGridSize();
      if (sizes && sizes->size() > dim && (*sizes)[dim] >= 0)
        return (*sizes)[dim];
      return std::nullopt;
    }
  }
  return std::nullopt;
}

/// Exclusive upper bound of a GPU worker id at `op`, when the launch sizes
/// it depends on are known.
static std::optional<int64_t> getGPUWorkerBound(Operation *op, GPUWorker w) {
  switch (w) {
  case GPUWorker::thread_x:
  case GPUWorker::thread_y:
  case GPUWorker::thread_z:
    return getKnownLaunchSize(op, /*block=*/true,
                              static_cast<unsigned>(w) -
                                  static_cast<unsigned>(GPUWorker::thread_x));
  case GPUWorker::block_x:
  case GPUWorker::block_y:
  case GPUWorker::block_z:
    return getKnownLaunchSize(op, /*block=*/false,
                              static_cast<unsigned>(w) -
                                  static_cast<unsigned>(GPUWorker::block_x));
  case GPUWorker::lane:
    // The warp size of every NVIDIA GPU.
    return 32;
  case GPUWorker::warp:
    if (auto n = getKnownLaunchSize(op, /*block=*/true, 0))
      return *n / 32 + (*n % 32 != 0);
    return std::nullopt;
  case GPUWorker::global_x: {
    auto b = getKnownLaunchSize(op, /*block=*/true, 0);
    auto g = getKnownLaunchSize(op, /*block=*/false, 0);
    // No bound when the product overflows.
    if (b && g && (*g == 0 || *b <= INT64_MAX / *g))
      return *b * *g;
    return std::nullopt;
  }
  }
  return std::nullopt;
}

//===----------------------------------------------------------------------===//
// ForEachOp
//===----------------------------------------------------------------------===//

static void buildTaskLoopBody(OpBuilder &builder, OperationState &result,
                              size_t rank) {
  OpBuilder::InsertionGuard guard(builder);
  Region *body = result.addRegion();
  Block *block = builder.createBlock(body);
  for (size_t i = 0; i < rank; ++i)
    block->addArgument(builder.getIndexType(), result.location);
  YieldOp::create(builder, result.location);
}

void ForEachOp::build(OpBuilder &builder, OperationState &result,
                      TaskMappingAttrInterface mapping, Value worker,
                      std::optional<int64_t> upperBound) {
  result.addOperands(worker);
  result.addAttribute(getMappingAttrName(result.name), mapping);
  if (upperBound)
    result.addAttribute(getUpperBoundAttrName(result.name),
                        builder.getI64IntegerAttr(*upperBound));
  buildTaskLoopBody(builder, result, mapping.getTaskRank());
}

void ForEachOp::build(OpBuilder &builder, OperationState &result,
                      TaskMappingAttrInterface mapping, GPUWorker gpuWorker) {
  result.addAttribute(getMappingAttrName(result.name), mapping);
  result.addAttribute(getGpuWorkerAttrName(result.name),
                      GPUWorkerAttr::get(builder.getContext(), gpuWorker));
  buildTaskLoopBody(builder, result, mapping.getTaskRank());
}

std::optional<int64_t> ForEachOp::getStaticWorkerBound() {
  std::optional<int64_t> bound;
  auto tighten = [&](std::optional<int64_t> b) {
    if (b && (!bound || *b < *bound))
      bound = b;
  };
  if (auto ub = getUpperBound())
    tighten(static_cast<int64_t>(*ub));
  if (getWorker())
    tighten(getStaticIndexBound(getWorker()));
  if (auto w = getGpuWorker())
    tighten(getGPUWorkerBound(*this, *w));
  return bound;
}

ParseResult ForEachOp::parse(OpAsmParser &parser, OperationState &result) {
  SmallVector<OpAsmParser::Argument> indices;
  Attribute mappingAttr;
  SMLoc mappingLoc;
  if (parseTaskIndices(parser, indices) || parser.parseKeyword("in"))
    return failure();
  mappingLoc = parser.getCurrentLocation();
  if (parser.parseAttribute(mappingAttr))
    return failure();
  if (!isa<TaskMappingAttrInterface>(mappingAttr))
    return parser.emitError(mappingLoc)
           << "expected a task mapping attribute, got " << mappingAttr;
  result.addAttribute(getMappingAttrName(result.name), mappingAttr);
  if (parser.parseKeyword("on"))
    return failure();

  OpAsmParser::UnresolvedOperand worker;
  OptionalParseResult hasWorker = parser.parseOptionalOperand(worker);
  if (hasWorker.has_value()) {
    if (failed(*hasWorker) ||
        parser.resolveOperand(worker, parser.getBuilder().getIndexType(),
                              result.operands))
      return failure();
  } else {
    SMLoc loc = parser.getCurrentLocation();
    StringRef keyword;
    if (parser.parseKeyword(&keyword))
      return failure();
    std::optional<GPUWorker> w = symbolizeGPUWorker(keyword);
    if (!w)
      return parser.emitError(loc)
             << "expected an SSA worker or a GPU worker (thread_x, thread_y, "
                "thread_z, block_x, block_y, block_z, lane, warp, global_x), "
                "got '"
             << keyword << "'";
    result.addAttribute(getGpuWorkerAttrName(result.name),
                        GPUWorkerAttr::get(parser.getContext(), *w));
  }
  if (succeeded(parser.parseOptionalKeyword("upper_bound"))) {
    int64_t bound;
    if (parser.parseInteger(bound))
      return failure();
    result.addAttribute(getUpperBoundAttrName(result.name),
                        parser.getBuilder().getI64IntegerAttr(bound));
  }
  if (parser.parseOptionalAttrDictWithKeyword(result.attributes))
    return failure();
  return parseTaskBody(parser, result, indices);
}

void ForEachOp::print(OpAsmPrinter &p) {
  p << " ";
  printTaskIndices(p, getTaskIndices());
  p << " in ";
  p.printAttribute(getMapping());
  p << " on ";
  if (getWorker())
    p << getWorker();
  else
    p << stringifyGPUWorker(*getGpuWorker());
  if (auto ub = getUpperBound())
    p << " upper_bound " << *ub;
  p.printOptionalAttrDictWithKeyword(
      (*this)->getAttrs(), {getMappingAttrName(), getGpuWorkerAttrName(),
                            getUpperBoundAttrName()});
  p << " ";
  p.printRegion(getBody(), /*printEntryBlockArgs=*/false,
                /*printBlockTerminators=*/false);
}

LogicalResult ForEachOp::verify() {
  if (static_cast<bool>(getWorker()) == getGpuWorker().has_value())
    return emitOpError("needs exactly one worker: an SSA value or a GPU "
                       "worker");
  TaskMappingAttrInterface mapping = getMapping();
  if (failed(verifyTaskIndices(*this, getBody().front(),
                               mapping.getTaskRank())))
    return failure();
  int64_t numWorkers = mapping.getNumWorkers();
  if (std::optional<int64_t> bound = getStaticWorkerBound();
      bound && *bound < numWorkers)
    return emitOpError("mapping needs ")
           << numWorkers << " workers but the worker range has only "
           << *bound << "; the tasks of workers " << *bound << ".."
           << numWorkers - 1 << " would never run";
  return success();
}

namespace {
/// Replaces the mapping by its algebraic simplification (nested compositions
/// flattened, unit factors dropped, mergeable neighbours merged).
struct SimplifyForEachMapping : public OpRewritePattern<ForEachOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(ForEachOp op,
                                PatternRewriter &rewriter) const override {
    algebra::TaskMapping m = op.getMapping().toAlgebra();
    algebra::TaskMapping s = m.simplify();
    if (s == m)
      return failure();
    rewriter.modifyOpInPlace(op, [&] {
      op.setMappingAttr(getMappingAttr(op.getContext(), s));
    });
    return success();
  }
};

/// Drops task dimensions of extent 1: their index is always 0.
struct DropUnitTaskDims : public OpRewritePattern<ForEachOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(ForEachOp op,
                                PatternRewriter &rewriter) const override {
    algebra::TaskMapping m = op.getMapping().toAlgebra();
    // Keep one dimension: a task shape has rank >= 1.
    for (size_t dim = m.getRank(); dim-- > 0 && m.getRank() > 1;) {
      if (m.getTaskShape()[dim] != 1)
        continue;
      // Inside a projection a pinned dimension may still be iterated (its
      // tasks repeat); dropping it is exact only when every factor has
      // extent 1 there.
      bool allUnit = true;
      for (const algebra::Leaf &leaf : m.flatten())
        allUnit &= leaf.shape[dim] == 1;
      if (!allUnit)
        continue;
      replaceByZero(rewriter, op, op.getTaskIndices()[dim]);
      rewriter.modifyOpInPlace(op, [&] {
        op.getBody().front().eraseArgument(dim);
      });
      m = m.dropUnitDim(dim);
      rewriter.modifyOpInPlace(op, [&] {
        op.setMappingAttr(getMappingAttr(op.getContext(), m));
      });
      return success();
    }
    return failure();
  }
};
} // namespace

void ForEachOp::getCanonicalizationPatterns(RewritePatternSet &results,
                                            MLIRContext *context) {
  results.add<SimplifyForEachMapping, DropUnitTaskDims>(context);
}

//===----------------------------------------------------------------------===//
// RepeatOp
//===----------------------------------------------------------------------===//

ParseResult RepeatOp::parse(OpAsmParser &parser, OperationState &result) {
  SmallVector<OpAsmParser::Argument> indices;
  if (parseTaskIndices(parser, indices) || parser.parseKeyword("in"))
    return failure();
  Attribute mapping = RepeatAttr::parse(parser, Type());
  if (!mapping)
    return failure();
  result.addAttribute(getMappingAttrName(result.name), mapping);
  if (parser.parseOptionalAttrDictWithKeyword(result.attributes))
    return failure();
  return parseTaskBody(parser, result, indices);
}

void RepeatOp::print(OpAsmPrinter &p) {
  p << " ";
  printTaskIndices(p, getTaskIndices());
  p << " in ";
  getMapping().print(p);
  p.printOptionalAttrDictWithKeyword((*this)->getAttrs(),
                                     {getMappingAttrName()});
  p << " ";
  p.printRegion(getBody(), /*printEntryBlockArgs=*/false,
                /*printBlockTerminators=*/false);
}

LogicalResult RepeatOp::verify() {
  return verifyTaskIndices(*this, getBody().front(),
                           getMapping().getShape().size());
}

namespace {
/// A repeat over a single task is its body with indices 0.
struct InlineSingleTaskRepeat : public OpRewritePattern<RepeatOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(RepeatOp op,
                                PatternRewriter &rewriter) const override {
    if (algebra::product(op.getMapping().toAlgebra().getTaskShape()) != 1)
      return failure();
    Block &body = op.getBody().front();
    for (BlockArgument arg : body.getArguments())
      replaceByZero(rewriter, op, arg);
    rewriter.eraseOp(body.getTerminator());
    // The indices have no uses left; inline the remaining ops.
    rewriter.inlineBlockBefore(&body, op, ValueRange(body.getArguments()));
    rewriter.eraseOp(op);
    return success();
  }
};
} // namespace

void RepeatOp::getCanonicalizationPatterns(RewritePatternSet &results,
                                           MLIRContext *context) {
  results.add<InlineSingleTaskRepeat>(context);
}

//===----------------------------------------------------------------------===//
// SpatialOp
//===----------------------------------------------------------------------===//

ParseResult SpatialOp::parse(OpAsmParser &parser, OperationState &result) {
  SMLoc loc = parser.getCurrentLocation();
  Attribute mapping = SpatialAttr::parse(parser, Type());
  if (!mapping)
    return failure();
  result.addAttribute(getMappingAttrName(result.name), mapping);
  OpAsmParser::UnresolvedOperand worker;
  Type indexType = parser.getBuilder().getIndexType();
  if (parser.parseKeyword("on") || parser.parseOperand(worker) ||
      parser.resolveOperand(worker, indexType, result.operands) ||
      parser.parseOptionalAttrDict(result.attributes))
    return failure();
  (void)loc;
  result.addTypes(SmallVector<Type>(
      cast<SpatialAttr>(mapping).getShape().size(), indexType));
  return success();
}

void SpatialOp::print(OpAsmPrinter &p) {
  p << " ";
  getMapping().print(p);
  p << " on " << getWorker();
  p.printOptionalAttrDict((*this)->getAttrs(), {getMappingAttrName()});
}

LogicalResult SpatialOp::verify() {
  size_t rank = getMapping().getShape().size();
  if (getIndices().size() != rank)
    return emitOpError("has ") << getIndices().size()
                               << " results but the mapping's task shape has "
                                  "rank "
                               << rank;
  return success();
}

LogicalResult SpatialOp::fold(FoldAdaptor adaptor,
                              SmallVectorImpl<OpFoldResult> &results) {
  algebra::TaskMapping m = getMapping().toAlgebra();
  Builder b(getContext());
  // A constant worker has a constant task.
  if (auto worker = dyn_cast_if_present<IntegerAttr>(adaptor.getWorker())) {
    if (worker.getValue().isNegative())
      return failure();
    std::vector<algebra::Task> tasks = m.tasksOf(worker.getInt());
    for (int64_t t : tasks.front())
      results.push_back(b.getIndexAttr(t));
    return success();
  }
  // A mapping of one worker gives every worker the task (0, ..., 0).
  if (m.getNumWorkers() != 1)
    return failure();
  for (size_t i = 0; i < m.getRank(); ++i)
    results.push_back(b.getIndexAttr(0));
  return success();
}

//===----------------------------------------------------------------------===//
// Queries
//===----------------------------------------------------------------------===//

OpFoldResult NumWorkersOp::fold(FoldAdaptor) {
  return IntegerAttr::get(IndexType::get(getContext()),
                          getMapping().getNumWorkers());
}

ParseResult TaskShapeOp::parse(OpAsmParser &parser, OperationState &result) {
  SMLoc loc = parser.getCurrentLocation();
  Attribute attr;
  if (parser.parseAttribute(attr) ||
      parser.parseOptionalAttrDict(result.attributes))
    return failure();
  auto mapping = dyn_cast<TaskMappingAttrInterface>(attr);
  if (!mapping)
    return parser.emitError(loc)
           << "expected a task mapping attribute, got " << attr;
  result.addAttribute(getMappingAttrName(result.name), attr);
  result.addTypes(SmallVector<Type>(mapping.getTaskRank(),
                                    parser.getBuilder().getIndexType()));
  return success();
}

void TaskShapeOp::print(OpAsmPrinter &p) {
  p << " ";
  p.printAttribute(getMapping());
  p.printOptionalAttrDict((*this)->getAttrs(), {getMappingAttrName()});
}

LogicalResult TaskShapeOp::verify() {
  size_t rank = getMapping().getTaskRank();
  if (getExtents().size() != rank)
    return emitOpError("has ") << getExtents().size()
                               << " results but the mapping's task shape has "
                                  "rank "
                               << rank;
  return success();
}

LogicalResult TaskShapeOp::fold(FoldAdaptor,
                                SmallVectorImpl<OpFoldResult> &results) {
  Builder b(getContext());
  for (int64_t e : getMapping().getTaskShape())
    results.push_back(b.getIndexAttr(e));
  return success();
}
