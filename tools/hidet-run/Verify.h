//===- Verify.h - Running a function and checking its outputs ---*- C++ -*-===//
//
// Part of the Hidet-MLIR project.
//
//===----------------------------------------------------------------------===//
//
// One checked run of a function: inputs from files or a seeded generator,
// outputs poisoned with 0xFF bytes (NaN for floats) so that unwritten
// elements fail, the library run once, the reference run on the same
// inputs, and every output compared with the reference's and with its
// expected file. A library runs on host buffers or device buffers as its
// target says.
//
//===----------------------------------------------------------------------===//

#ifndef HIDET_RUN_VERIFY_H
#define HIDET_RUN_VERIFY_H

#include "ArgFiles.h"
#include "Library.h"
#include "Report.h"

#include "hidet/Model.h"
#include "hidet/Runtime.h"

namespace hidet::run {

struct Options;

/// Host buffers, one per arg of a function.
using HostBuffers = std::vector<std::vector<unsigned char>>;

/// A function of a library, run through the model runtime (hidet/Model.h),
/// and where its buffers live.
struct Entry {
  std::string library;
  std::string func;
  Target target = Target::Gpu;
  bool valid() const { return !library.empty(); }
};

/// One library's function loaded as a model, with buffers of its target,
/// ready to be run again on the same buffers: a CPU library reads host
/// inputs and writes host outputs, a GPU library gets device buffers.
struct PreparedCall {
  Entry entry;
  hidetModel_t model = nullptr;
  hidetStream_t stream = nullptr;
  /// The inputs on the host; a CPU library reads them in place.
  HostBuffers hostInputs;
  HostBuffers hostOutputs;
  DeviceBuffers deviceBuffers;
  /// Per arg of the function, the buffer passed for it (null for weights,
  /// which the model holds).
  std::vector<void *> buffers;
  std::vector<void *> inputs, outputs;

  PreparedCall() = default;
  PreparedCall(const PreparedCall &) = delete;
  PreparedCall &operator=(const PreparedCall &) = delete;
  ~PreparedCall() { hidetModelUnload(model); }

  /// Enqueues one run; false on an error (recorded by the runtime).
  bool call() const {
    return hidetModelRun(model, inputs.data(), outputs.data(), stream) ==
           HIDET_RUNTIME_OK;
  }
};

/// Runs `main` once, on the inputs that `files` holds (moved out of it) and
/// generated ones for the rest, and `ref` (when valid) on the
/// same inputs; compares every output with the reference's and with its
/// expected file. Keeps the outputs of `main` in `outputs` and leaves
/// `call` ready to be made again. Returns false on a CUDA error (reported).
bool runAndVerify(const FuncSpec &func, const Entry &main, const Entry &ref,
                  ArgFiles &files, const Options &options, hidetStream_t stream,
                  PreparedCall &call, HostBuffers &outputs, FuncResult &result);

} // namespace hidet::run

#endif // HIDET_RUN_VERIFY_H
