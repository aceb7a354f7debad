//===- ScalarRanges.cpp - Integer ranges of a linalg body's scalars -------===//
//
// Part of the Hidet-MLIR project.
//
//===----------------------------------------------------------------------===//

#include "ScalarRanges.h"

#include "Hidet/Runtime/ManifestTypes.h"

#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/DialectResourceBlobManager.h"
#include "mlir/IR/Matchers.h"

#include <cstring>

using namespace mlir;
using namespace hidet::kernel;

/// The range of the elements of `operand` when it is an integer constant.
static std::optional<ConstantIntRanges> constantElements(Value operand,
                                                         unsigned width) {
  ElementsAttr attr;
  if (!matchPattern(operand, m_Constant(&attr)) ||
      !attr.getElementType().isIntOrIndex() || attr.empty())
    return std::nullopt;
  std::optional<APInt> lo, hi;
  auto add = [&](const APInt &raw) {
    APInt value = raw.sextOrTrunc(width);
    if (!lo || value.slt(*lo))
      lo = value;
    if (!hi || value.sgt(*hi))
      hi = value;
  };
  if (auto dense = dyn_cast<DenseIntElementsAttr>(attr)) {
    for (const APInt &value : dense.getValues<APInt>())
      add(value);
  } else if (auto resource = dyn_cast<DenseResourceElementsAttr>(attr)) {
    // A blob of host-order integers (the ONNX importer's constants).
    auto type = dyn_cast<IntegerType>(resource.getElementType());
    unsigned bits = type ? type.getWidth() : 0;
    std::optional<ArrayRef<char>> bytes = hidet::constantBytes(resource);
    if (bits == 0 || bits > 64 || !bytes)
      return std::nullopt;
    ArrayRef<char> data = *bytes;
    for (size_t at = 0; at < data.size(); at += bits / 8) {
      uint64_t word = 0;
      std::memcpy(&word, data.data() + at, bits / 8);
      add(APInt(bits, word).sext(64));
    }
  }
  if (!lo)
    return std::nullopt;
  return ConstantIntRanges::fromSigned(*lo, *hi);
}

ScalarRanges::ScalarRanges(linalg::LinalgOp op) : op(op) {
  if (op)
    loopSizes = op.getStaticLoopRanges();
}

ConstantIntRanges ScalarRanges::get(Value v) {
  unsigned width = ConstantIntRanges::getStorageBitwidth(v.getType());
  if (width == 0)
    return ConstantIntRanges::maxRange(0);
  if (auto it = ranges.find(v); it != ranges.end())
    return it->second;
  ConstantIntRanges range = compute(v, width);
  ranges.try_emplace(v, range);
  return range;
}

bool ScalarRanges::dependsOnData(Value v) {
  if (isa<BlockArgument>(v))
    return true;
  Operation *def = v.getDefiningOp();
  if (matchPattern(v, m_Constant()) || isa<linalg::IndexOp>(def) ||
      isa<tensor::DimOp>(def))
    return false;
  if (isa<tensor::ExtractOp>(def) || def->getNumRegions() != 0)
    return true;
  return llvm::any_of(def->getOperands(),
                      [&](Value operand) { return dependsOnData(operand); });
}

ConstantIntRanges ScalarRanges::compute(Value v, unsigned width) {
  ConstantIntRanges range = ConstantIntRanges::maxRange(width);
  if (auto arg = dyn_cast<BlockArgument>(v)) {
    if (op && arg.getOwner() == op.getBlock())
      if (std::optional<ConstantIntRanges> known =
              constantElements(op->getOperand(arg.getArgNumber()), width))
        return *known;
    return range;
  }
  Operation *def = v.getDefiningOp();
  if (auto index = dyn_cast<linalg::IndexOp>(def)) {
    int64_t size = op && index->getParentOp() == op.getOperation()
                       ? loopSizes[index.getDim()]
                       : ShapedType::kDynamic;
    APInt zero(width, 0);
    return ShapedType::isDynamic(size) || size <= 0
               ? ConstantIntRanges::fromSigned(zero,
                                               APInt::getSignedMaxValue(width))
               : ConstantIntRanges::fromSigned(zero, APInt(width, size - 1));
  }
  auto infer = dyn_cast<InferIntRangeInterface>(def);
  if (!infer || def->getNumRegions() != 0)
    return range;
  SmallVector<ConstantIntRanges> operands;
  for (Value operand : def->getOperands())
    operands.push_back(get(operand));
  infer.inferResultRanges(operands,
                          [&](Value result, const ConstantIntRanges &r) {
                            if (result == v)
                              range = r;
                          });
  return range;
}
