//===- Manifest.h - The manifest and weights of a compiled library -*- C++
//-*-===//
//
// Part of the Hidet-MLIR project.
//
//===----------------------------------------------------------------------===//
//
// What hidet-compile reads from the module for a library's manifest
// (runtime/include/hidet/Manifest.h) and weights image (hidet/Weights.h).
//
//===----------------------------------------------------------------------===//

#ifndef HIDET_TOOLS_HIDET_COMPILE_MANIFEST_H
#define HIDET_TOOLS_HIDET_COMPILE_MANIFEST_H

#include "mlir/IR/BuiltinOps.h"
#include "mlir/Support/LLVM.h"

#include <string>

namespace hidet::compile {

/// Moves the values of the weight inputs that hidet-constants-to-weights
/// made (`hidet.weight_value`) into a weights image (hidet/Weights.h),
/// returned empty when there are none unless `always` (an image of no
/// weights, for an external weights file).
std::string takeWeightValues(mlir::ModuleOp module, bool always = false);

/// Adds `workspace <bytes> <intermediates>` after each `func` statement of
/// `manifest` whose function took a workspace (hidet-plan-device-memory),
/// as the lowered module's `hidet.workspace` attributes say.
std::string addWorkspaces(llvm::StringRef manifest, mlir::ModuleOp module);

/// Describes the public functions of `module` for a library of `target`
/// (gpu or cpu) whose external weights file the manifest names
/// `weightsReference` (empty: none), and marks them for C interface
/// emission. Fails, with an error on the function, on signatures the
/// libraries cannot expose.
mlir::FailureOr<std::string> buildManifest(mlir::ModuleOp module,
                                           llvm::StringRef target,
                                           llvm::StringRef weightsReference);

/// Removes the project's argument and result annotations (hidet.name,
/// hidet.weight, hidet.workspace) from the LLVM functions: the manifest
/// holds what they said, and the translation to LLVM IR would warn about
/// each as an unknown parameter attribute.
void dropArgumentAnnotations(mlir::ModuleOp module);

} // namespace hidet::compile

#endif // HIDET_TOOLS_HIDET_COMPILE_MANIFEST_H
