//===- MergeProjections.h - Sibling MatMul + Add into one -------*- C++ -*-===//
//
// Part of the Hidet-MLIR project.
//
//===----------------------------------------------------------------------===//

#ifndef HIDET_LIB_IMPORT_ONNX_MERGEPROJECTIONS_H
#define HIDET_LIB_IMPORT_ONNX_MERGEPROJECTIONS_H

namespace onnx {
class ModelProto;
} // namespace onnx

namespace hidet::onnx_import {

/// Merges the `MatMul (x, W_i)` + `Add (b_i)` pairs of the same x, with
/// known 2-D weights and 1-D biases of one element type, into one MatMul
/// with the weights side by side, one Add, and a Slice per pair that
/// produces the pair's value (see MergeProjections.cpp). Returns how many
/// groups were merged.
int mergeProjections(onnx::ModelProto &model);

} // namespace hidet::onnx_import

#endif // HIDET_LIB_IMPORT_ONNX_MERGEPROJECTIONS_H
