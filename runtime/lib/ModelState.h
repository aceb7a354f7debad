//===- ModelState.h - A loaded model, shared by the runtime -----*- C++ -*-===//
//
// Part of the Hidet-MLIR project.
//
//===----------------------------------------------------------------------===//
//
// The state behind a hidetModel_t (hidet/Model.h): the library and its
// manifest, the descriptors of its arguments, weights, workspace, CUDA
// graph and index checks. Model.cpp loads and describes models,
// ModelRun.cpp runs them.
//
//===----------------------------------------------------------------------===//

#ifndef HIDET_RUNTIME_LIB_MODELSTATE_H
#define HIDET_RUNTIME_LIB_MODELSTATE_H

#include "CallState.h"
#include "Checks.h"
#include "ManifestParser.h"

#include "hidet/Model.h"

#include <string>
#include <vector>

namespace hidet::runtime {

/// A row-major contiguous ranked memref descriptor for `shape`.
std::vector<int64_t> makeDescriptor(const std::vector<int64_t> &shape);

/// Points `descriptor` (its allocated and aligned pointers) at `pointer`.
void setPointer(std::vector<int64_t> &descriptor, const void *pointer);

/// Records `message`, followed by the error the runtime recorded last (the
/// cause) if any, as the error of this call; returns its code.
int fail(int code, const std::string &message);

} // namespace hidet::runtime

struct hidetModel_st {
  std::string path;
  void *handle = nullptr;
  hidet::run::Manifest manifest;
  const hidet::run::FuncSpec *func = nullptr;
  void *entry = nullptr;
  bool gpu = true;

  std::vector<size_t> inputs, outputs; // indices into func->args
  std::vector<hidetTensorInfo> inputInfos, outputInfos;

  // One descriptor per argument, then the checks' statuses', then the
  // workspace's.
  std::vector<std::vector<int64_t>> descriptors;
  std::vector<void *> argPointers;

  // Weights and workspace: device memory, or host memory for CPU models
  // (where an image in the library is used in place).
  void *weights = nullptr;
  uint64_t weightBytes = 0;
  std::vector<unsigned char> hostWeights;
  void *workspace = nullptr;
  std::vector<unsigned char> hostWorkspace;

  // CUDA graphs.
  bool useGraph = true;
  bool graphUnsafe = false;
  int runs = 0;
  int kernelLaunches = -1;
  struct CUgraphExec_st *graph = nullptr; // cuda.h's CUgraphExec
  std::vector<void *> graphPointers;
  hidetStream_t graphStream = nullptr;

  // The kernel names of the last profile (hidetKernelTime::kernel).
  std::vector<std::string> profileNames;

  // Index checks: their statuses, when they are reported, and the latest
  // run, whose checks hidetModelSynchronize reports if they are pending.
  hidet::runtime::RunChecks checks;
  int checkMode = HIDET_CHECKS_EACH_RUN;
  bool checksPending = false;
  bool ran = false;
  hidetStream_t lastStream = nullptr;

  ~hidetModel_st();
  int load(const char *function, const char *weightsPath);
  int loadWeights(const char *weightsPath);
  int bind(const char *what, void *const *inputs, void *const *outputs);
  int runDirect(hidetStream_t stream,
                std::vector<hidet::runtime::LaunchEvents> *profile = nullptr);
  int capture(hidetStream_t stream);
  void dropGraph();
  /// After a run was enqueued on `stream`: waits for it and reports its
  /// checks, unless they are deferred.
  int finishRun(hidetStream_t stream);
  /// Reports the checks of the latest run, whose work is complete.
  int reportChecks();
};

#endif // HIDET_RUNTIME_LIB_MODELSTATE_H
