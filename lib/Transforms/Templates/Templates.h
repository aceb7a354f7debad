//===- Templates.h - Anchor-op templates ------------------------*- C++ -*-===//
//
// Part of the Hidet-MLIR project.
//
//===----------------------------------------------------------------------===//
//
// Templates that instantiate a scheduled anchor op as a GPU kernel written
// with task mappings. Each reads its schedule attribute and decides nothing
// else.
//
//===----------------------------------------------------------------------===//

#ifndef HIDET_LIB_TRANSFORMS_TEMPLATES_TEMPLATES_H
#define HIDET_LIB_TRANSFORMS_TEMPLATES_TEMPLATES_H

#include "Hidet/Dialect/Hidet/IR/Hidet.h"

#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/IR/Builders.h"

namespace hidet {
namespace templates {

/// Emits, before `op`, the SIMT kernel computing C += A * B for a static f32
/// linalg.matmul on row-major buffers, as `schedule` says.
void buildSimtMatmul(mlir::OpBuilder &b, mlir::linalg::MatmulOp op,
                     SimtMatmulAttr schedule);

} // namespace templates
} // namespace hidet

#endif // HIDET_LIB_TRANSFORMS_TEMPLATES_TEMPLATES_H
