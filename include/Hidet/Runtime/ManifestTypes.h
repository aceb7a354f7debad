//===- ManifestTypes.h - Element types in manifests and weights -*- C++ -*-===//
//
// Part of the Hidet-MLIR project.
//
//===----------------------------------------------------------------------===//
//
// How the files that runners read (runtime/include/hidet/Manifest.h and
// Weights.h) spell MLIR element types; shared by hidet-compile, which writes
// manifests, and the ONNX importer, which writes weights files.
//
//===----------------------------------------------------------------------===//

#ifndef HIDET_RUNTIME_MANIFESTTYPES_H
#define HIDET_RUNTIME_MANIFESTTYPES_H

#include "mlir/IR/BuiltinTypes.h"
#include "llvm/ADT/StringRef.h"

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

} // namespace hidet

#endif // HIDET_RUNTIME_MANIFESTTYPES_H
