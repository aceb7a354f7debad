//===- Verify.h - Checking a GPU build against its reference ----*- C++ -*-===//
//
// Part of the Hidet-MLIR project.
//
//===----------------------------------------------------------------------===//
//
// One checked run of a function: inputs from a seeded generator, outputs
// poisoned with 0xFF bytes (NaN for floats) so that unwritten elements
// fail, the GPU build run once, the reference run on the same inputs, and
// every output compared within its bounds.
//
//===----------------------------------------------------------------------===//

#ifndef HIDET_RUN_VERIFY_H
#define HIDET_RUN_VERIFY_H

#include "Library.h"
#include "Report.h"

#include "hidet/Runtime.h"

namespace hidet::run {

struct Options;

/// A GPU build's call of one function, with the device buffers it reads
/// and writes.
struct GpuCall {
  void *entry = nullptr;
  DeviceBuffers buffers;
  CallArgs args;
};

/// Runs `gpuEntry` once and, when `refEntry` is not null, the reference on
/// the same inputs, then compares every output into `result`. Leaves `call`
/// ready to be called again on the same buffers. Returns false on a CUDA
/// error (reported).
bool runAndVerify(const FuncSpec &func, void *gpuEntry, void *refEntry,
                  const Options &options, hidetStream_t stream,
                  GpuCall &call, FuncResult &result);

} // namespace hidet::run

#endif // HIDET_RUN_VERIFY_H
