//===- Einsum.cpp - Einsum as one linalg.generic --------------------------===//
//
// Part of the Hidet-MLIR project.
//
//===----------------------------------------------------------------------===//
//
// An Einsum equation names the loops of a linalg.generic: each letter is a
// dimension, each operand's subscripts are its indexing map, letters absent
// from the output are reductions, and the body multiplies the operands'
// elements into the accumulator. Contractions written this way are GEMMs
// the anchor templates recognize. `...` stands for the same leading
// dimensions in every operand; a letter repeated in one operand reads its
// diagonal.
//
//===----------------------------------------------------------------------===//

#include "Builders.h"
#include "Importer.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"

#include <map>

using namespace mlir;

namespace hidet::onnx_import {
namespace {

/// Subscripts as labels: letters are themselves, the k-th dimension of an
/// ellipsis is label 256 + k.
using Labels = SmallVector<int>;

/// Expands one operand's subscripts for an operand of `rank` dims; fails
/// on characters that are not letters or a single ellipsis.
FailureOr<Labels> expand(StringRef subscripts, int64_t rank,
                         int64_t &ellipsisRank) {
  Labels labels;
  size_t dots = subscripts.find("...");
  StringRef before = subscripts.substr(0, dots);
  StringRef after =
      dots == StringRef::npos ? StringRef() : subscripts.substr(dots + 3);
  for (StringRef part : {before, after})
    for (char c : part)
      if (!llvm::isAlpha(c))
        return failure();
  int64_t letters = before.size() + after.size();
  if (dots == StringRef::npos) {
    if (letters != rank)
      return failure();
  } else {
    int64_t e = rank - letters;
    if (e < 0 || (ellipsisRank >= 0 && ellipsisRank != e))
      return failure();
    ellipsisRank = e;
  }
  for (char c : before)
    labels.push_back(c);
  if (dots != StringRef::npos)
    for (int64_t k = 0; k < ellipsisRank; ++k)
      labels.push_back(256 + k);
  for (char c : after)
    labels.push_back(c);
  return labels;
}

LogicalResult convertEinsum(NodeContext &ctx) {
  std::string equation;
  for (char c : ctx.attrString("equation", ""))
    if (c != ' ')
      equation += c;
  auto [lhs, rhs] = StringRef(equation).split("->");
  bool explicitOutput = StringRef(equation).contains("->");
  SmallVector<StringRef> inputs;
  lhs.split(inputs, ',');
  if (inputs.size() != ctx.numInputs())
    return ctx.emitError() << "Einsum equation '" << equation << "' names "
                           << inputs.size() << " operands, the node has "
                           << ctx.numInputs();
  DType dtype = ctx.input(0).dtype;
  int64_t ellipsisRank = -1;
  SmallVector<Labels> operandLabels;
  std::map<int, int64_t> extent;
  std::map<int, int> count;
  for (auto [i, subscripts] : llvm::enumerate(inputs)) {
    const TensorValue &in = ctx.input(i);
    if (in.dtype != dtype)
      return ctx.emitError() << "Einsum operands of different types";
    FailureOr<Labels> labels = expand(subscripts, in.rank(), ellipsisRank);
    if (failed(labels))
      return ctx.emitError() << "Einsum subscripts '" << subscripts
                             << "' do not fit an operand of rank " << in.rank();
    for (auto [d, label] : llvm::enumerate(*labels)) {
      auto [it, inserted] = extent.try_emplace(label, in.shape[d]);
      if (!inserted && it->second != in.shape[d])
        return ctx.unsupported("with operands that disagree on a dimension "
                               "(or broadcast one)");
      ++count[label];
    }
    operandLabels.push_back(*labels);
  }
  Labels outLabels;
  if (explicitOutput) {
    bool dots = rhs.contains("...");
    int64_t rank = static_cast<int64_t>(rhs.size()) - (dots ? 3 : 0) +
                   (dots ? std::max<int64_t>(ellipsisRank, 0) : 0);
    FailureOr<Labels> labels = expand(rhs, rank, ellipsisRank);
    if (failed(labels))
      return ctx.emitError()
             << "Einsum output subscripts '" << rhs << "' are malformed";
    outLabels = *labels;
  } else {
    // Implicit output: the ellipsis, then letters used once, in order.
    for (int64_t k = 0; k < std::max<int64_t>(ellipsisRank, 0); ++k)
      outLabels.push_back(256 + k);
    for (auto [label, n] : count)
      if (label < 256 && n == 1)
        outLabels.push_back(label);
  }
  // Loops: output labels first (parallel), then the reduced ones.
  SmallVector<int> loops(outLabels.begin(), outLabels.end());
  for (auto &entry : extent)
    if (!llvm::is_contained(loops, entry.first))
      loops.push_back(entry.first);
  for (int label : outLabels)
    if (!extent.count(label))
      return ctx.emitError() << "Einsum output names a letter no operand has";
  OpBuilder &b = ctx.builder();
  Location loc = ctx.getLoc();
  auto dimOf = [&](int label) {
    return b.getAffineDimExpr(llvm::find(loops, label) - loops.begin());
  };
  SmallVector<AffineMap> maps;
  for (const Labels &labels : operandLabels) {
    SmallVector<AffineExpr> exprs;
    for (int label : labels)
      exprs.push_back(dimOf(label));
    maps.push_back(AffineMap::get(loops.size(), 0, exprs, b.getContext()));
  }
  SmallVector<AffineExpr> outExprs;
  SmallVector<int64_t> outShape;
  for (int label : outLabels) {
    outExprs.push_back(dimOf(label));
    outShape.push_back(extent[label]);
  }
  maps.push_back(AffineMap::get(loops.size(), 0, outExprs, b.getContext()));
  SmallVector<utils::IteratorType> iterators;
  for (int label : loops)
    iterators.push_back(llvm::is_contained(outLabels, label)
                            ? utils::IteratorType::parallel
                            : utils::IteratorType::reduction);
  Type elem = ctx.getImporter().elementType(dtype);
  // Without reductions (a transpose, a product of broadcasts) nothing
  // accumulates: the output is written once.
  bool reduces = loops.size() > outLabels.size();
  Value init =
      reduces ? filledTensor(b, loc, outShape, scalarConstant(b, loc, elem, 0))
              : emptyTensor(b, loc, outShape, elem);
  SmallVector<Value> operands;
  for (unsigned i = 0; i < ctx.numInputs(); ++i)
    operands.push_back(ctx.value(i));
  Value result =
      linalg::GenericOp::create(
          b, loc, init.getType(), operands, ValueRange{init}, maps, iterators,
          [&](OpBuilder &nb, Location l, ValueRange args) {
            Value product = args[0];
            for (Value v : args.drop_front().drop_back())
              product = mulValues(nb, l, product, v);
            linalg::YieldOp::create(
                nb, l,
                reduces ? addValues(nb, l, args.back(), product) : product);
          })
          .getResult(0);
  ctx.setOutput(0, result, dtype);
  return success();
}

} // namespace

void registerEinsumConverters(ConverterTable &table) {
  table["Einsum"] = convertEinsum;
}

} // namespace hidet::onnx_import
