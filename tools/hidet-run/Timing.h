//===- Timing.h - Timing compiled functions ---------------------*- C++ -*-===//
//
// Part of the Hidet-MLIR project.
//
//===----------------------------------------------------------------------===//
//
// Times repeated calls: untimed warm-up calls, then timed ones. A GPU
// library's calls go to one stream, each bracketed by CUDA events and,
// unless --no-spin, queued behind a spin kernel so that host launch gaps
// stay out; a CPU library's are timed with the host's steady clock.
//
//===----------------------------------------------------------------------===//

#ifndef HIDET_RUN_TIMING_H
#define HIDET_RUN_TIMING_H

#include "Report.h"
#include "Verify.h"

#include "hidet/Runtime.h"

namespace hidet::run {

struct Options;

/// Times `call` (options.warmup untimed calls, then options.reps timed
/// ones) and records the median, min and mean in `result`. Returns false on
/// a CUDA error (reported).
bool timeCalls(const FuncSpec &func, const PreparedCall &call,
               const Options &options, hidetStream_t stream,
               FuncResult &result);

/// --profile: options.profileRuns runs of a GPU `call` through
/// hidetModelProfile; records each launch's median time in `result`.
/// Returns false on a CUDA error (reported).
bool profileKernels(const FuncSpec &func, const PreparedCall &call,
                    const Options &options, FuncResult &result);

} // namespace hidet::run

#endif // HIDET_RUN_TIMING_H
