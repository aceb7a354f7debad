//===- Passes.td - Hidet graph-to-kernel passes ------------*- tablegen -*-===//
//
// Part of the Hidet-MLIR project.
//
//===----------------------------------------------------------------------===//
//
// The passes, one file per stage of the pipeline: the graph before
// scheduling, scheduling, the lowering of kernels, and buffers and weights.
//
//===----------------------------------------------------------------------===//

#ifndef HIDET_TRANSFORMS_PASSES_TD
#define HIDET_TRANSFORMS_PASSES_TD

include "Hidet/Transforms/GraphPasses.td"
include "Hidet/Transforms/SchedulePasses.td"
include "Hidet/Transforms/KernelPasses.td"
include "Hidet/Transforms/MemoryPasses.td"

#endif // HIDET_TRANSFORMS_PASSES_TD
