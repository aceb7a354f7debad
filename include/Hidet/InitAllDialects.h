//===- InitAllDialects.h - Register Hidet dialects --------------*- C++ -*-===//
//
// Part of the Hidet-MLIR project.
//
//===----------------------------------------------------------------------===//
//
// One registration entry point shared by hidet-opt, the mlir-opt plugin and
// any compiler that embeds the project.
//
//===----------------------------------------------------------------------===//

#ifndef HIDET_INITALLDIALECTS_H
#define HIDET_INITALLDIALECTS_H

namespace mlir {
class DialectRegistry;
} // namespace mlir

namespace hidet {

/// Adds the project's dialects (and the dialects their ops create) to
/// `registry`.
void registerHidetDialects(mlir::DialectRegistry &registry);

/// Registers the project's passes and pass pipelines with the global
/// registry used by `*-opt` drivers.
void registerHidetPasses();

} // namespace hidet

#endif // HIDET_INITALLDIALECTS_H
