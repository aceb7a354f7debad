//===- FusibleOpInterface.h - Post-scheduling fusion legality ---*- C++ -*-===//
//
// Part of the Hidet-MLIR project.
//
//===----------------------------------------------------------------------===//

#ifndef HIDET_INTERFACES_FUSIBLEOPINTERFACE_H
#define HIDET_INTERFACES_FUSIBLEOPINTERFACE_H

#include "mlir/IR/AffineMap.h"
#include "mlir/IR/OpDefinition.h"

namespace mlir {
class DialectRegistry;
} // namespace mlir

#include "Hidet/Interfaces/FusibleOpInterface.h.inc"

namespace hidet {
/// Attaches FusibleOpInterface to the linalg structured ops and to the
/// tensor reshapes, pads and slices.
void registerFusibleOpInterfaceExternalModels(mlir::DialectRegistry &registry);
} // namespace hidet

#endif // HIDET_INTERFACES_FUSIBLEOPINTERFACE_H
