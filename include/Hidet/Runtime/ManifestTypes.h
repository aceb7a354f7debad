//===- ManifestTypes.h - Elements in manifests and weights ------*- C++ -*-===//
//
// Part of the Hidet-MLIR project.
//
//===----------------------------------------------------------------------===//
//
// How the files that runners read (runtime/include/hidet/Manifest.h and
// Weights.h) spell MLIR element types, and the bytes of a constant's
// elements as a weights image stores them; shared by hidet-compile, which
// writes manifests and weights, the ONNX importer, which writes weights
// files, and the passes that read constants' values.
//
//===----------------------------------------------------------------------===//

#ifndef HIDET_RUNTIME_MANIFESTTYPES_H
#define HIDET_RUNTIME_MANIFESTTYPES_H

#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/DialectResourceBlobManager.h"
#include "mlir/IR/BuiltinTypes.h"
#include "llvm/ADT/StringRef.h"

#include <optional>

namespace hidet {

/// The spelling of `t` (f32 f16 bf16 f64 i1 i8 i32 i64), or empty for types
/// that entry points and weights files do not take.
inline llvm::StringRef manifestDTypeName(mlir::Type t) {
  if (t.isF32())
    return "f32";
  if (t.isF16())
    return "f16";
  if (t.isBF16())
    return "bf16";
  if (t.isF64())
    return "f64";
  if (t.isInteger(1))
    return "i1";
  if (t.isInteger(8))
    return "i8";
  if (t.isInteger(32))
    return "i32";
  if (t.isInteger(64))
    return "i64";
  return "";
}

/// The bytes of `value`'s elements one after the other in row-major order,
/// host order, as a weights image stores them: a resource blob's, or a
/// dense attribute's raw data. None for a splat (one element stored), for
/// i1 (an attribute packs it in bits), or for a blob whose size is not its
/// elements'.
inline std::optional<llvm::ArrayRef<char>>
constantBytes(mlir::ElementsAttr value) {
  auto type = llvm::cast<mlir::ShapedType>(value.getType());
  unsigned bits = type.getElementTypeBitWidth();
  if (bits % 8 != 0)
    return std::nullopt;
  llvm::ArrayRef<char> data;
  if (auto resource = llvm::dyn_cast<mlir::DenseResourceElementsAttr>(value)) {
    mlir::AsmResourceBlob *blob = resource.getRawHandle().getBlob();
    if (!blob)
      return std::nullopt;
    data = blob->getData();
  } else if (auto dense = llvm::dyn_cast<mlir::DenseElementsAttr>(value)) {
    if (dense.isSplat())
      return std::nullopt;
    data = dense.getRawData();
  } else {
    return std::nullopt;
  }
  if (static_cast<int64_t>(data.size()) != type.getNumElements() * (bits / 8))
    return std::nullopt;
  return data;
}

} // namespace hidet

#endif // HIDET_RUNTIME_MANIFESTTYPES_H
