//===- Builders.h - linalg and tensor building blocks -----------*- C++ -*-===//
//
// Part of the Hidet-MLIR project.
//
//===----------------------------------------------------------------------===//
//
// The shapes of IR that the converters share: elementwise ops with NumPy
// broadcasting, reductions, reshapes and transposes, written the way the
// pipelines' fusion and schedules read them (broadcast operands reach a
// linalg.generic through projected-permutation maps, their unit dimensions
// collapsed away first).
//
//===----------------------------------------------------------------------===//

#ifndef HIDET_LIB_IMPORT_ONNX_BUILDERS_H
#define HIDET_LIB_IMPORT_ONNX_BUILDERS_H

#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinTypes.h"

#include <optional>

namespace hidet::onnx_import {

/// An operand of an elementwise op: a tensor, or a scalar inlined into the
/// body (a splat constant).
struct Operand {
  mlir::Value tensor;
  mlir::Value scalar;
};

using BodyFn = llvm::function_ref<mlir::Value(mlir::OpBuilder &, mlir::Location,
                                              mlir::ValueRange)>;

/// NumPy's broadcast of `shapes`, or nothing when they are incompatible.
std::optional<llvm::SmallVector<int64_t>>
broadcastShapes(llvm::ArrayRef<llvm::SmallVector<int64_t>> shapes);

mlir::Value emptyTensor(mlir::OpBuilder &b, mlir::Location loc,
                        llvm::ArrayRef<int64_t> shape, mlir::Type elem);
mlir::Value scalarConstant(mlir::OpBuilder &b, mlir::Location loc,
                           mlir::Type type, double value);
/// A tensor of `shape` filled with `scalar` (linalg.fill).
/// A tensor of zeros of `elem`.
mlir::Value zeroFilled(mlir::OpBuilder &b, mlir::Location loc,
                       llvm::ArrayRef<int64_t> shape, mlir::Type elem);
mlir::Value filledTensor(mlir::OpBuilder &b, mlir::Location loc,
                         llvm::ArrayRef<int64_t> shape, mlir::Value scalar);

/// A linalg.generic over `outShape` whose body is `body` applied to one
/// scalar per operand (in order). Tensor operands are broadcast to
/// `outShape`, aligned at the right.
mlir::Value buildElementwise(mlir::OpBuilder &b, mlir::Location loc,
                             llvm::ArrayRef<Operand> operands,
                             llvm::ArrayRef<int64_t> outShape,
                             mlir::Type outElem, BodyFn body);

/// A linalg.generic that reduces `input` over `axes` (sorted, unique) into
/// a tensor without them, starting from `init`; `combine(x, acc)` is the
/// body.
mlir::Value buildReduction(mlir::OpBuilder &b, mlir::Location loc,
                           mlir::Value input, llvm::ArrayRef<int64_t> axes,
                           mlir::Value init, BodyFn combine);

/// The i64 index of the largest (`isMax`) or smallest element along
/// `axis`, the first one of equals unless `last`; the axis is dropped.
mlir::Value buildArgReduce(mlir::OpBuilder &b, mlir::Location loc,
                           mlir::Value input, int64_t axis, bool isMax,
                           bool last);

/// `value` under another static shape of the same element count, as a
/// collapse, an expand, or a collapse to 1-D followed by an expand.
mlir::Value reshape(mlir::OpBuilder &b, mlir::Location loc, mlir::Value value,
                    llvm::ArrayRef<int64_t> shape);
/// linalg.transpose by `perm` (result dim i is input dim perm[i]).
mlir::Value transpose(mlir::OpBuilder &b, mlir::Location loc, mlir::Value value,
                      llvm::ArrayRef<int64_t> perm);
/// `value` converted elementwise to `elem`.
mlir::Value convertTensor(mlir::OpBuilder &b, mlir::Location loc,
                          mlir::Value value, mlir::Type elem, bool srcUnsigned);

/// A scalar conversion with ONNX Cast semantics (bool is 0 or 1; to bool is
/// "not zero").
mlir::Value convertScalar(mlir::OpBuilder &b, mlir::Location loc,
                          mlir::Value value, mlir::Type to, bool srcUnsigned,
                          bool dstUnsigned);

/// x + y and x * y on floats or integers, by the operands' type.
mlir::Value addValues(mlir::OpBuilder &b, mlir::Location loc, mlir::Value x,
                      mlir::Value y);
mlir::Value mulValues(mlir::OpBuilder &b, mlir::Location loc, mlir::Value x,
                      mlir::Value y);
/// max and min (NaN-propagating on floats; unsigned integers when said).
mlir::Value maxValues(mlir::OpBuilder &b, mlir::Location loc, mlir::Value x,
                      mlir::Value y, bool isUnsigned);
mlir::Value minValues(mlir::OpBuilder &b, mlir::Location loc, mlir::Value x,
                      mlir::Value y, bool isUnsigned);

/// Normalizes an axis in [-rank, rank) to [0, rank); nothing when out of
/// range.
std::optional<int64_t> normalizeAxis(int64_t axis, int64_t rank);

mlir::RankedTensorType tensorTypeOf(mlir::Value value);

} // namespace hidet::onnx_import

#endif // HIDET_LIB_IMPORT_ONNX_BUILDERS_H
