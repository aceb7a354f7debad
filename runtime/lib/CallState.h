//===- CallState.h - The model runtime's hold on compiled code --*- C++ -*-===//
//
// Part of the Hidet-MLIR project.
//
//===----------------------------------------------------------------------===//
//
// While the model runtime runs a compiled function on a thread, the mgpu*
// functions that the function calls on that thread consult this state: the
// function's stream is the caller's, the wait at its end is skipped (runs
// are asynchronous and may be captured in a CUDA graph), and allocations,
// host copies and launches are counted.
//
//===----------------------------------------------------------------------===//

#ifndef HIDET_RUNTIME_LIB_CALLSTATE_H
#define HIDET_RUNTIME_LIB_CALLSTATE_H

#include "hidet/Runtime.h"

#include <vector>

namespace hidet::runtime {

/// One kernel launch of a profiled run: the kernel and the events recorded
/// on the run's stream just before and just after it (the handle types of
/// hidet/Runtime.h are cuda.h's CUfunction and CUevent).
struct LaunchEvents {
  hidetFunction_t function = nullptr;
  hidetEvent_t start = nullptr;
  hidetEvent_t end = nullptr;
};

struct CallState {
  hidetStream_t stream = nullptr;
  unsigned allocations = 0;
  unsigned hostCopies = 0;
  unsigned launches = 0;
  /// Where launches are recorded with their events; null: not profiled.
  std::vector<LaunchEvents> *profile = nullptr;
};

/// The state of the run on this thread, or null outside model runs.
extern thread_local CallState *activeCall;

} // namespace hidet::runtime

#endif // HIDET_RUNTIME_LIB_CALLSTATE_H
