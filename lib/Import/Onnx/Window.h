//===- Window.h - Convolution and pooling windows ---------------*- C++ -*-===//
//
// Part of the Hidet-MLIR project.
//
//===----------------------------------------------------------------------===//
//
// The window attributes that Conv, MaxPool and AveragePool share (kernel,
// strides, dilations, pads or auto_pad, ceil_mode), resolved once into
// explicit pads and output extents, and the convolution that Conv and
// ConvTranspose both build.
//
//===----------------------------------------------------------------------===//

#ifndef HIDET_LIB_IMPORT_ONNX_WINDOW_H
#define HIDET_LIB_IMPORT_ONNX_WINDOW_H

#include "Importer.h"

namespace hidet::onnx_import {

/// Pads, strides and dilations of a convolution or pooling window over the
/// spatial dims, and the output extents they give.
struct Window {
  llvm::SmallVector<int64_t> kernel, strides, dilations, padBegin, padEnd, out;
};

/// The largest kernel extent, stride, dilation or pad a window takes:
/// 2^31, so that the window's sizes (a stride times an extent, a dilation
/// times a kernel extent) stay in int64.
inline constexpr int64_t kMaxWindowValue = int64_t(1) << 31;

/// Fails with a message unless every kernel extent, stride and dilation is
/// positive, every pad non-negative, and none above kMaxWindowValue.
mlir::LogicalResult checkWindowValues(NodeContext &ctx,
                                      llvm::ArrayRef<int64_t> kernel,
                                      llvm::ArrayRef<int64_t> strides,
                                      llvm::ArrayRef<int64_t> dilations,
                                      llvm::ArrayRef<int64_t> pads);

/// Reads the node's window attributes for an input of `spatial` extents.
/// With `ceilMode`, the trailing pad grows so that the last window fits.
mlir::FailureOr<Window> windowOf(NodeContext &ctx,
                                 llvm::ArrayRef<int64_t> spatial,
                                 llvm::ArrayRef<int64_t> kernel, bool ceilMode);

/// `x` padded with `value` in the dims that `w`'s pads cover, from dim
/// `firstSpatial` on: the spatial dims of [N, C, spatial...] by default,
/// those of [N, spatial..., C] with 1 (and its channels, given a third pad).
mlir::Value padSpatial(mlir::OpBuilder &b, mlir::Location loc, mlir::Value x,
                       const Window &w, double value,
                       unsigned firstSpatial = 2);

/// Fails with a message unless input 0 and the filters (input 1) are float
/// tensors of one rank from 3 to 5 (1- to 3-D convolutions).
mlir::LogicalResult checkConvOperands(NodeContext &ctx);

/// `y` [N, C, spatial...] plus a per-channel vector `bias` [C].
mlir::Value addChannelBias(mlir::OpBuilder &b, mlir::Location loc,
                           mlir::Value y, mlir::Value bias);

/// linalg's channels-first convolution of `input` [N, C, spatial...] with
/// `weights` [F, C, k...] into `init` [N, F, out...], for 1 to 3 spatial
/// dims.
mlir::Value buildConvolution(mlir::OpBuilder &b, mlir::Location loc,
                             mlir::Value input, mlir::Value weights,
                             mlir::Value init,
                             mlir::DenseIntElementsAttr strides,
                             mlir::DenseIntElementsAttr dilations);

} // namespace hidet::onnx_import

#endif // HIDET_LIB_IMPORT_ONNX_WINDOW_H
