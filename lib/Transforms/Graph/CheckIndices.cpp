//===- CheckIndices.cpp - Run-time checks of data-dependent indices -------===//
//
// Part of the Hidet-MLIR project.
//
//===----------------------------------------------------------------------===//
//
// This file implements `hidet-check-indices`: every tensor.extract index
// that comes from data and is not known to be in range is clamped for the
// read, and a status result of the function says whether it was in range
// (the pass's description in GraphPasses.td gives the encoding).
//
//===----------------------------------------------------------------------===//

#include "Hidet/Transforms/Passes.h"

#include "../Utils/KernelBuilder.h"
#include "../Utils/ScalarRanges.h"

#include "mlir/Analysis/SliceAnalysis.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Arith/Utils/Utils.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/Interfaces/CastInterfaces.h"
#include "llvm/ADT/SmallBitVector.h"

namespace hidet {
#define GEN_PASS_DEF_CHECKINDICES
#include "Hidet/Transforms/Passes.h.inc"
} // namespace hidet

using namespace mlir;
using hidet::kernel::ScalarRanges;

namespace {

constexpr llvm::StringLiteral kPass = "hidet-check-indices";

bool isScalar(Type t) { return t.isIntOrIndexOrFloat(); }

/// An index of a read that depends on data and is not known to be in range.
struct CheckedIndex {
  tensor::ExtractOp read;
  unsigned dim;
  /// The index as computed, before the clamp.
  Value raw;
  /// The extent of the dimension: static, or a tensor.dim that dominates the
  /// op holding the read.
  OpFoldResult extent;
};

/// The reads of one linalg op's body (or of the function's top level, `op`
/// null) whose indices are checked.
struct Site {
  linalg::LinalgOp op;
  Location loc;
  SmallVector<CheckedIndex> indices;
};

/// Whether `generic` only casts its one input elementwise: its result holds
/// a value of the input at each of the input's positions.
bool isElementwiseCast(linalg::GenericOp generic) {
  if (generic.getNumDpsInputs() != 1 || generic.getNumDpsInits() != 1 ||
      generic.getNumParallelLoops() != generic.getNumLoops() ||
      !llvm::all_of(generic.getIndexingMapsArray(),
                    [](AffineMap map) { return map.isIdentity(); }))
    return false;
  Value current = generic.getBlock()->getArgument(0);
  for (Operation &op : generic.getBlock()->without_terminator()) {
    if (!isa<CastOpInterface>(op) || op.getNumOperands() != 1 ||
        op.getOperand(0) != current)
      return false;
    current = op.getResult(0);
  }
  return generic.getBlock()->getTerminator()->getOperand(0) == current;
}

/// The argument of `func` whose elements `v` holds at the same row-major
/// positions (seen through reshapes and elementwise casts), if any.
std::optional<unsigned> traceToArgument(Value v, func::FuncOp func) {
  while (true) {
    if (auto arg = dyn_cast<BlockArgument>(v)) {
      // A weight is no input of the caller's: indices that an exporter
      // computed into a constant, which external weights pass as an
      // argument (BERT's attention mask gathered at [b * s + i]).
      if (arg.getOwner() == &func.getBody().front() &&
          !func.getArgAttr(arg.getArgNumber(), "hidet.weight"))
        return arg.getArgNumber();
      return std::nullopt;
    }
    Operation *def = v.getDefiningOp();
    if (isa<tensor::CollapseShapeOp, tensor::ExpandShapeOp, tensor::CastOp,
            tensor::ReshapeOp>(def)) {
      v = def->getOperand(0);
      continue;
    }
    auto generic = dyn_cast<linalg::GenericOp>(def);
    if (!generic || !isElementwiseCast(generic))
      return std::nullopt;
    v = generic.getDpsInputOperand(0)->get();
  }
}

/// The checked reads of `func`, grouped by the op that holds them. Fails
/// (with an error) on a data-dependent index that cannot be checked.
LogicalResult collectSites(func::FuncOp func, SmallVector<Site> &sites) {
  // The holders in the order of their first read.
  llvm::MapVector<Operation *, SmallVector<tensor::ExtractOp>> reads;
  func.walk([&](tensor::ExtractOp read) {
    reads[read->getParentOp()].push_back(read);
  });
  OpBuilder b(func.getContext());
  for (auto &[holder, holderReads] : reads) {
    auto op = dyn_cast<linalg::LinalgOp>(holder);
    bool topLevel = holder == func.getOperation();
    ScalarRanges ranges(op);
    Site site{op, op ? holder->getLoc() : holderReads.front().getLoc(), {}};
    for (tensor::ExtractOp read : holderReads) {
      RankedTensorType type = read.getTensor().getType();
      for (auto [dim, index] : llvm::enumerate(read.getIndices())) {
        if (!ranges.dependsOnData(index))
          continue;
        int64_t extent = type.getDimSize(dim);
        if (!ShapedType::isDynamic(extent)) {
          ConstantIntRanges r = ranges.get(index);
          unsigned width = r.smin().getBitWidth();
          if (r.smin().sge(APInt(width, 0)) &&
              r.smax().slt(APInt(width, extent, /*isSigned=*/true)))
            continue;
          if (extent == 0)
            return read.emitError(kPass)
                   << ": reads a dimension of extent 0 at an index from "
                      "data; no index is in range";
        }
        // The status is computed beside the op that reads, which must be
        // at the function's top level to return it.
        Operation *outer = op && !topLevel ? holder->getParentOp() : holder;
        if (!topLevel && (!op || outer != func.getOperation()))
          return read.emitError(kPass)
                 << ": cannot check an index that depends on data inside '"
                 << (op ? outer : holder)->getName() << "'";
        // A dynamic extent where the op holding the read can see it; a
        // static one is a constant in each body (which elementwise fusion
        // takes along, where it would not take a value from above).
        OpFoldResult extentValue = b.getIndexAttr(extent);
        if (ShapedType::isDynamic(extent)) {
          b.setInsertionPoint(topLevel ? read.getOperation() : holder);
          extentValue =
              tensor::DimOp::create(b, read.getLoc(), read.getTensor(), dim)
                  .getResult();
        }
        site.indices.push_back(
            {read, static_cast<unsigned>(dim), index, extentValue});
      }
    }
    if (!site.indices.empty())
      sites.push_back(std::move(site));
  }
  return success();
}

/// Replaces each checked index of `site` in its read with the index clamped
/// into [0, extent).
void clampReads(OpBuilder &b, Site &site) {
  for (CheckedIndex &checked : site.indices) {
    Location loc = checked.read.getLoc();
    b.setInsertionPoint(checked.read);
    Value zero = arith::ConstantIndexOp::create(b, loc, 0);
    std::optional<int64_t> extent = getConstantIntValue(checked.extent);
    Value last =
        extent
            ? arith::ConstantIndexOp::create(b, loc, *extent - 1).getResult()
            : arith::SubIOp::create(b, loc, cast<Value>(checked.extent),
                                    arith::ConstantIndexOp::create(b, loc, 1))
                  .getResult();
    Value clamped = arith::MinSIOp::create(
        b, loc, arith::MaxSIOp::create(b, loc, checked.raw, zero), last);
    checked.read->setOperand(1 + checked.dim, clamped);
  }
}

/// What the status of a site describes, for the manifest.
struct SiteInfo {
  std::optional<unsigned> input;
  std::optional<int64_t> extent;
};

/// Builds the status of one site: the index computations of its reads
/// (with the reads they depend on already clamped) cloned into a
/// linalg.generic over the loops they use, which gives each position p the
/// code ~p (-1 - p) where an index is out of range and 0 elsewhere, and the
/// `maxui` of the codes, which is 0 when every index is in range and else
/// ~p of the first p that is not. One reduction kernel reads the index
/// operand when it is the only one and is read in loop order (a gather's
/// indices); otherwise an elementwise op writes the codes and a reduction
/// follows.
class StatusBuilder {
public:
  StatusBuilder(func::FuncOp func, Site &site)
      : func(func), site(site),
        block(site.op ? site.op.getBlock() : &func.getBody().front()),
        numLoops(site.op ? site.op.getNumLoops() : 0), usedLoops(numLoops),
        usedOperands(site.op ? site.op->getNumOperands() : 0) {}

  FailureOr<Value> build(OpBuilder &b, SiteInfo &info) {
    if (failed(collect()))
      return failure();
    Location loc = site.loc;
    if (site.op)
      b.setInsertionPointAfter(site.op);
    else
      b.setInsertionPoint(func.getBody().front().getTerminator());
    llvm::SmallBitVector unusedLoops = ~usedLoops;
    SmallVector<AffineMap> operandMaps;
    if (site.op) {
      operandMaps = site.op.getIndexingMapsArray();
      SmallVector<Range> loopRanges = site.op.createLoopRanges(b, loc);
      for (unsigned d : usedLoops.set_bits()) {
        sizes.push_back(loopRanges[d].size);
        loopOfDim.push_back(d);
      }
    }
    SmallVector<Value> inputs;
    SmallVector<AffineMap> maps;
    for (unsigned operand : usedOperands.set_bits()) {
      inputs.push_back(site.op->getOperand(operand));
      maps.push_back(compressDims(operandMaps[operand], unusedLoops));
    }
    // Positions are those of the one operand read, when it is read in loop
    // order: then the status can name the argument it comes from.
    bool inLoopOrder = inputs.size() == 1 && maps.front().isIdentity() &&
                       maps.front().getNumDims() == sizes.size();
    if (inLoopOrder)
      info.input = traceToArgument(inputs.front(), func);
    if (site.indices.size() == 1)
      if (std::optional<int64_t> extent =
              getConstantIntValue(site.indices.front().extent))
        info.extent = *extent;

    unsigned rank = sizes.size();
    if (rank == 0)
      return codes(b, loc, inputs, maps);
    if (inLoopOrder) {
      Value rows = inputs.front();
      if (rank > 1)
        rows = tensor::CollapseShapeOp::create(b, loc, rows, allDims(rank));
      return reduce(
          b, loc, rows, [&](OpBuilder &nb, Location l, ValueRange args) {
            // A loop's index from the one that walks the collapsed rows.
            Value flat = linalg::IndexOp::create(nb, l, 0);
            auto loopIndex = [&](unsigned d) {
              auto size = [&](unsigned e) {
                return getValueOrCreateConstantIndexOp(nb, l, sizes[e]);
              };
              Value rest = flat;
              for (unsigned e = rank - 1; e > d; --e)
                rest = arith::DivUIOp::create(nb, l, rest, size(e));
              return d ? arith::RemUIOp::create(nb, l, rest, size(d))
                             .getResult()
                       : rest;
            };
            return emitCode(nb, l, args, loopIndex, flat);
          });
    }
    Value flags = codes(b, loc, inputs, maps);
    if (rank > 1)
      flags = tensor::CollapseShapeOp::create(b, loc, flags, allDims(rank));
    return reduce(b, loc, flags, [](OpBuilder &, Location, ValueRange args) {
      return args[0];
    });
  }

private:
  /// The ops that compute the checked indices, in order, with the operands
  /// and loops they read. Fails when an index is computed by an op that
  /// cannot be cloned.
  LogicalResult collect() {
    SetVector<Operation *> slice;
    BackwardSliceOptions options;
    options.omitBlockArguments = true;
    options.inclusive = true;
    options.filter = [&](Operation *op) {
      return op->getBlock() == block && op->getNumRegions() == 0 &&
             llvm::all_of(op->getResultTypes(), isScalar);
    };
    for (CheckedIndex &checked : site.indices)
      if (failed(getBackwardSlice(checked.raw, &slice, options)))
        return failure();
    ordered.assign(slice.begin(), slice.end());
    llvm::sort(ordered, [](Operation *x, Operation *y) {
      return x->isBeforeInBlock(y);
    });
    auto use = [&](Value v) -> LogicalResult {
      if (auto arg = dyn_cast<BlockArgument>(v)) {
        if (arg.getOwner() == block)
          usedOperands.set(arg.getArgNumber());
        return success();
      }
      Operation *def = v.getDefiningOp();
      if (def->getBlock() == block && !slice.contains(def))
        return def->emitError(kPass) << ": cannot check an index computed by '"
                                     << def->getName() << "'";
      return success();
    };
    for (Operation *op : ordered) {
      if (auto index = dyn_cast<linalg::IndexOp>(op))
        usedLoops.set(index.getDim());
      for (Value operand : op->getOperands())
        if (failed(use(operand)))
          return failure();
    }
    for (CheckedIndex &checked : site.indices)
      if (failed(use(checked.raw)))
        return failure();
    if (site.op) {
      SmallVector<AffineMap> maps = site.op.getIndexingMapsArray();
      for (unsigned operand : usedOperands.set_bits())
        for (unsigned d = 0; d < numLoops; ++d)
          if (maps[operand].isFunctionOfDim(d))
            usedLoops.set(d);
    }
    return success();
  }

  static SmallVector<ReassociationIndices> allDims(unsigned rank) {
    SmallVector<ReassociationIndices> all(1);
    for (unsigned d = 0; d < rank; ++d)
      all.front().push_back(d);
    return all;
  }

  /// Clones the index computations with `elements` for the used operands'
  /// block arguments and `loopIndex(d)` for the d-th used loop's index, and
  /// returns the code of this position: ~position where an index is out of
  /// range, else 0.
  Value emitCode(OpBuilder &nb, Location l, ValueRange elements,
                 function_ref<Value(unsigned)> loopIndex, Value position) {
    IRMapping mapping;
    for (auto [k, operand] : llvm::enumerate(usedOperands.set_bits()))
      mapping.map(block->getArgument(operand), elements[k]);
    for (Operation *op : ordered) {
      if (auto index = dyn_cast<linalg::IndexOp>(op)) {
        unsigned dim =
            llvm::find(loopOfDim, static_cast<int64_t>(index.getDim())) -
            loopOfDim.begin();
        mapping.map(index.getResult(), loopIndex(dim));
        continue;
      }
      nb.clone(*op, mapping);
    }
    // Unsigned: a negative index is a large one.
    Value bad;
    for (CheckedIndex &checked : site.indices) {
      Value outside = arith::CmpIOp::create(
          nb, l, arith::CmpIPredicate::uge,
          mapping.lookupOrDefault(checked.raw),
          getValueOrCreateConstantIndexOp(nb, l, checked.extent));
      bad =
          bad ? arith::OrIOp::create(nb, l, bad, outside).getResult() : outside;
    }
    Type i64 = nb.getI64Type();
    Value code = arith::XOrIOp::create(
        nb, l, arith::IndexCastOp::create(nb, l, i64, position),
        arith::ConstantOp::create(nb, l, nb.getI64IntegerAttr(-1)));
    return arith::SelectOp::create(
        nb, l, bad, code,
        arith::ConstantOp::create(nb, l, nb.getI64IntegerAttr(0)));
  }

  /// An elementwise linalg.generic over the used loops that writes each
  /// position's code.
  Value codes(OpBuilder &b, Location loc, ValueRange inputs,
              SmallVector<AffineMap> maps) {
    unsigned rank = sizes.size();
    Value init = tensor::EmptyOp::create(b, loc, sizes, b.getI64Type());
    maps.push_back(b.getMultiDimIdentityMap(rank));
    SmallVector<utils::IteratorType> iterators(rank,
                                               utils::IteratorType::parallel);
    return linalg::GenericOp::create(
               b, loc, init.getType(), inputs, ValueRange{init}, maps,
               iterators,
               [&](OpBuilder &nb, Location l, ValueRange args) {
                 // The row-major position of this element among the loops.
                 Value position =
                     rank ? Value(linalg::IndexOp::create(nb, l, 0))
                          : Value(arith::ConstantIndexOp::create(nb, l, 0));
                 for (unsigned d = 1; d < rank; ++d) {
                   Value size =
                       getValueOrCreateConstantIndexOp(nb, l, sizes[d]);
                   position = arith::AddIOp::create(
                       nb, l, arith::MulIOp::create(nb, l, position, size),
                       linalg::IndexOp::create(nb, l, d));
                 }
                 Value code = emitCode(
                     nb, l, args.drop_back(),
                     [&](unsigned d) -> Value {
                       return linalg::IndexOp::create(nb, l, d);
                     },
                     position);
                 linalg::YieldOp::create(nb, l, code);
               })
        .getResult(0);
  }

  /// The `maxui` over the 1-D `rows` of the code that `code` computes from
  /// each row's element, as a tensor<i64>.
  Value reduce(OpBuilder &b, Location loc, Value rows,
               function_ref<Value(OpBuilder &, Location, ValueRange)> code) {
    Type i64 = b.getI64Type();
    Value start = linalg::FillOp::create(b, loc,
                                         ValueRange{arith::ConstantOp::create(
                                             b, loc, b.getI64IntegerAttr(0))},
                                         ValueRange{tensor::EmptyOp::create(
                                             b, loc, ArrayRef<int64_t>{}, i64)})
                      .getResult(0);
    AffineMap row = AffineMap::get(1, 0, b.getAffineDimExpr(0));
    AffineMap scalar = AffineMap::get(1, 0, {}, b.getContext());
    return linalg::GenericOp::create(
               b, loc, start.getType(), ValueRange{rows}, ValueRange{start},
               ArrayRef<AffineMap>{row, scalar},
               ArrayRef<utils::IteratorType>{utils::IteratorType::reduction},
               [&](OpBuilder &nb, Location l, ValueRange args) {
                 Value value = code(nb, l, args.drop_back());
                 linalg::YieldOp::create(
                     nb, l,
                     arith::MaxUIOp::create(nb, l, value, args.back())
                         .getResult());
               })
        .getResult(0);
  }

  func::FuncOp func;
  Site &site;
  Block *block;
  unsigned numLoops;
  llvm::SmallBitVector usedLoops, usedOperands;
  SmallVector<Operation *> ordered;
  SmallVector<OpFoldResult> sizes;
  SmallVector<int64_t> loopOfDim;
};

/// The `hidet.check` annotation of a status result.
DictionaryAttr describe(Builder &b, const Site &site, const SiteInfo &info) {
  SmallVector<NamedAttribute> fields;
  if (std::optional<int64_t> extent = info.extent)
    fields.push_back(b.getNamedAttr("extent", b.getI64IntegerAttr(*extent)));
  if (info.input)
    fields.push_back(b.getNamedAttr("input", b.getI64IntegerAttr(*info.input)));
  StringRef node = hidet::kernel::locationName(site.loc);
  if (!node.empty())
    fields.push_back(b.getNamedAttr("node", b.getStringAttr(node)));
  return b.getDictionaryAttr(fields);
}

struct CheckIndicesPass
    : public hidet::impl::CheckIndicesBase<CheckIndicesPass> {
  void runOnOperation() final {
    ModuleOp module = getOperation();
    WalkResult result = module.walk([&](func::FuncOp func) {
      if (func.isExternal())
        return WalkResult::advance();
      return succeeded(checkFunction(func)) ? WalkResult::advance()
                                            : WalkResult::interrupt();
    });
    if (result.wasInterrupted())
      signalPassFailure();
  }

  LogicalResult checkFunction(func::FuncOp func) {
    SmallVector<Site> sites;
    if (failed(collectSites(func, sites)))
      return failure();
    if (sites.empty())
      return success();
    std::optional<SymbolTable::UseRange> uses =
        SymbolTable::getSymbolUses(func, getOperation());
    if (func.isPrivate() || !uses || !uses->empty() ||
        !func.getBody().hasOneBlock())
      return func.emitError(kPass)
             << ": reads at indices that depend on data, which only a public "
                "function of one block that nothing calls can check";
    OpBuilder b(func.getContext());
    auto ret = cast<func::ReturnOp>(func.getBody().front().getTerminator());
    SmallVector<Value> statuses;
    SmallVector<DictionaryAttr> descriptions;
    for (Site &site : sites) {
      clampReads(b, site);
      SiteInfo info;
      FailureOr<Value> status = StatusBuilder(func, site).build(b, info);
      if (failed(status))
        return failure();
      statuses.push_back(*status);
      descriptions.push_back(describe(b, site, info));
    }
    for (auto [status, description] : llvm::zip(statuses, descriptions)) {
      unsigned index = func.getNumResults();
      if (failed(func.insertResult(
              index, status.getType(),
              b.getDictionaryAttr(b.getNamedAttr("hidet.check", description)))))
        return failure();
      ret.getOperandsMutable().append(status);
    }
    return success();
  }
};

} // namespace
