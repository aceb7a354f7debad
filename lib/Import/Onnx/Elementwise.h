//===- Elementwise.h - Elementwise ops as scalar bodies ---------*- C++ -*-===//
//
// Part of the Hidet-MLIR project.
//
//===----------------------------------------------------------------------===//
//
// An elementwise ONNX op is a scalar body for the linalg.generic that
// buildElementwise makes and, where shape subgraphs can meet it, a host
// function that folds it. Elementwise.cpp converts them all;
// Activations.cpp adds the activation functions.
//
//===----------------------------------------------------------------------===//

#ifndef HIDET_LIB_IMPORT_ONNX_ELEMENTWISE_H
#define HIDET_LIB_IMPORT_ONNX_ELEMENTWISE_H

#include "Builders.h"
#include "Importer.h"

#include <functional>

namespace hidet::onnx_import {

using llvm::ArrayRef;
using mlir::Location;
using mlir::OpBuilder;
using mlir::Type;
using mlir::Value;
using mlir::ValueRange;

/// What a scalar body knows of its operands.
struct ElemInfo {
  Type elem;        // The element type of the (first) operands.
  bool isUnsigned;  // Whether they are ONNX unsigned integers.
  NodeContext *ctx; // For attributes.
};

using ScalarBuilder =
    std::function<Value(OpBuilder &, Location, ValueRange, const ElemInfo &)>;
using HostFn = std::function<double(ArrayRef<double>, const NodeContext &)>;

enum class ResultKind { SameAsInput, Bool };

struct ElementwiseSpec {
  ScalarBuilder build;
  HostFn host; // Empty: not folded.
  ResultKind result = ResultKind::SameAsInput;
  unsigned minInputs = 1, maxInputs = 1;
  bool floatOnly = false;
};

inline Value cst(OpBuilder &b, Location loc, Type t, double v) {
  return scalarConstant(b, loc, t, v);
}

inline bool isF(Type t) { return mlir::isa<mlir::FloatType>(t); }

/// A unary op (float-only unless said otherwise).
inline ElementwiseSpec unary(ScalarBuilder build, HostFn host = {},
                             bool floatOnly = true) {
  ElementwiseSpec s;
  s.build = std::move(build);
  s.host = std::move(host);
  s.floatOnly = floatOnly;
  return s;
}

void registerActivations(llvm::StringMap<ElementwiseSpec> &ops);

} // namespace hidet::onnx_import

#endif // HIDET_LIB_IMPORT_ONNX_ELEMENTWISE_H
