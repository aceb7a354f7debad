//===- Passes.h - Hidet conversion passes -----------------------*- C++ -*-===//
//
// Part of the Hidet-MLIR project.
//
//===----------------------------------------------------------------------===//

#ifndef HIDET_CONVERSION_PASSES_H
#define HIDET_CONVERSION_PASSES_H

#include "Hidet/Conversion/TaskMappingToSCF/TaskMappingToSCF.h"

namespace hidet {

#define GEN_PASS_REGISTRATION
#include "Hidet/Conversion/Passes.h.inc"

} // namespace hidet

#endif // HIDET_CONVERSION_PASSES_H
