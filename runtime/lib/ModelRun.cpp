//===- ModelRun.cpp - Running compiled models -----------------------------===//
//
// Part of the Hidet-MLIR project.
//
//===----------------------------------------------------------------------===//
//
// Implements the runs of hidet/Model.h: the buffers bound to the
// descriptors, direct runs and CUDA graph replays, which the mgpu*
// functions steer through CallState, profiled runs, and the index checks
// reported after a run (Checks.h).
//
//===----------------------------------------------------------------------===//

#include "ModelState.h"

#include "Errors.h"
#ifndef HIDET_RUNTIME_NO_CUDA
#include "Scope.h"
#endif

#include <string>
#include <vector>

using namespace hidet::run;
using namespace hidet::runtime;

int hidetModel_st::bind(const char *what, void *const *in, void *const *out) {
  if ((!in && !inputs.empty()) || (!out && !outputs.empty()))
    return fail(HIDET_RUNTIME_ERROR_INVALID_ARGUMENT,
                std::string(what) + ": null input or output array");
  // The buffers of one side (inputs or outputs) into their descriptors.
  auto bindSide = [&](const char *side, const std::vector<size_t> &args,
                      const std::vector<hidetTensorInfo> &infos,
                      void *const *buffers) {
    for (size_t i = 0; i < args.size(); ++i) {
      if (!buffers[i] && infos[i].bytes)
        return fail(HIDET_RUNTIME_ERROR_INVALID_ARGUMENT,
                    std::string(what) + ": " + side + " " + std::to_string(i) +
                        " is null");
      setPointer(descriptors[args[i]], buffers[i]);
    }
    return static_cast<int>(HIDET_RUNTIME_OK);
  };
  if (int status = bindSide("input", inputs, inputInfos, in))
    return status;
  return bindSide("output", outputs, outputInfos, out);
}

int hidetModel_st::runDirect(hidetStream_t stream,
                             std::vector<LaunchEvents> *profile) {
  CallState state;
  state.stream = stream;
  state.profile = profile;
  activeCall = &state;
  reinterpret_cast<void (*)(void **)>(entry)(argPointers.data());
  activeCall = nullptr;
  if (runs++ == 0)
    kernelLaunches = static_cast<int>(state.launches);
  // Allocations and host copies made during a run cannot be replayed.
  if (state.allocations || state.hostCopies)
    graphUnsafe = true;
  if (hidetRuntimeLastError(nullptr) != HIDET_RUNTIME_OK)
    return fail(HIDET_RUNTIME_OK, path + ": running '" + func->name + "'");
  return HIDET_RUNTIME_OK;
}

int hidetModel_st::capture(hidetStream_t stream) {
  dropGraph();
#ifdef HIDET_RUNTIME_NO_CUDA
  return fail(HIDET_RUNTIME_ERROR_NO_DRIVER,
              path + ": capturing a CUDA graph: " + kNoCudaReason);
#else
  Scope scope("hidetModelRun");
  if (!scope)
    return fail(HIDET_RUNTIME_OK, path + ": capturing a CUDA graph");
  if (!HIDET_CU(scope, cuStreamBeginCapture(
                           stream, CU_STREAM_CAPTURE_MODE_THREAD_LOCAL)))
    return fail(HIDET_RUNTIME_OK, path + ": capturing a CUDA graph");
  CallState state;
  state.stream = stream;
  activeCall = &state;
  reinterpret_cast<void (*)(void **)>(entry)(argPointers.data());
  activeCall = nullptr;
  CUgraph captured = nullptr;
  bool ended = HIDET_CU(scope, cuStreamEndCapture(stream, &captured));
  if (!ended || hidetRuntimeLastError(nullptr) != HIDET_RUNTIME_OK) {
    if (captured)
      scope.cu->cuGraphDestroy(captured);
    return fail(HIDET_RUNTIME_OK, path + ": capturing a CUDA graph");
  }
  bool ok = HIDET_CU(scope, cuGraphInstantiateWithFlags(&graph, captured, 0));
  scope.cu->cuGraphDestroy(captured);
  if (!ok) {
    graph = nullptr;
    return fail(HIDET_RUNTIME_OK, path + ": instantiating its CUDA graph");
  }
  graphPointers.assign(argPointers.size(), nullptr);
  for (size_t i = 0; i < descriptors.size(); ++i)
    graphPointers[i] = reinterpret_cast<void *>(descriptors[i][1]);
  graphStream = stream;
  return HIDET_RUNTIME_OK;
#endif
}

int hidetModel_st::finishRun(hidetStream_t stream) {
  ran = true;
  lastStream = stream;
  if (checks.size() == 0)
    return HIDET_RUNTIME_OK;
  if (checkMode == HIDET_CHECKS_DEFERRED) {
    checksPending = true;
    return HIDET_RUNTIME_OK;
  }
  if (gpu && hidetStreamSynchronize(stream) != HIDET_RUNTIME_OK)
    return fail(HIDET_RUNTIME_OK, path + ": running '" + func->name + "'");
  return reportChecks();
}

int hidetModel_st::reportChecks() {
  checksPending = false;
  std::vector<void *> buffers;
  for (size_t i = 0; i < func->args.size(); ++i)
    buffers.push_back(reinterpret_cast<void *>(descriptors[i][1]));
  std::string message;
  int status = checks.read(buffers, message);
  if (status == HIDET_RUNTIME_OK)
    return HIDET_RUNTIME_OK;
  return fail(status == HIDET_RUNTIME_ERROR_CHECK ? status : HIDET_RUNTIME_OK,
              path + ": " + message);
}

//===----------------------------------------------------------------------===//
// C API
//===----------------------------------------------------------------------===//

extern "C" int hidetModelRun(hidetModel_t model, void *const *inputs,
                             void *const *outputs, hidetStream_t stream) {
  hidetRuntimeClearError();
  if (!model)
    return fail(HIDET_RUNTIME_ERROR_INVALID_ARGUMENT,
                "hidetModelRun: null model");
  if (int status = model->bind("hidetModelRun", inputs, outputs))
    return status;
  if (!model->gpu) {
    reinterpret_cast<void (*)(void **)>(model->entry)(
        model->argPointers.data());
    ++model->runs;
    model->kernelLaunches = 0;
    return model->finishRun(stream);
  }
  bool graphs =
      model->useGraph && !model->graphUnsafe && stream && model->runs > 0;
  if (!graphs) {
    if (int status = model->runDirect(stream))
      return status;
    return model->finishRun(stream);
  }
  bool same = model->graph && stream == model->graphStream;
  for (size_t i = 0; same && i < model->descriptors.size(); ++i)
    same = model->graphPointers[i] ==
           reinterpret_cast<void *>(model->descriptors[i][1]);
  if (!same && model->capture(stream) != HIDET_RUNTIME_OK) {
    // What cannot be captured still runs, directly from now on; the stats
    // say that no graph is in use.
    model->graphUnsafe = true;
    hidetRuntimeClearError();
    if (int status = model->runDirect(stream))
      return status;
    return model->finishRun(stream);
  }
  ++model->runs;
#ifndef HIDET_RUNTIME_NO_CUDA
  {
    Scope scope("hidetModelRun");
    if (!scope || !HIDET_CU(scope, cuGraphLaunch(model->graph, stream)))
      return fail(HIDET_RUNTIME_OK, model->path + ": launching its CUDA graph");
  }
#endif
  return model->finishRun(stream);
}

extern "C" int hidetModelNumChecks(hidetModel_t model) {
  return model ? static_cast<int>(model->checks.size()) : 0;
}

extern "C" int hidetModelSetChecks(hidetModel_t model, int mode) {
  hidetRuntimeClearError();
  if (!model ||
      (mode != HIDET_CHECKS_EACH_RUN && mode != HIDET_CHECKS_DEFERRED))
    return fail(HIDET_RUNTIME_ERROR_INVALID_ARGUMENT,
                "hidetModelSetChecks: null model, or a mode other than "
                "HIDET_CHECKS_EACH_RUN and HIDET_CHECKS_DEFERRED");
  model->checkMode = mode;
  return HIDET_RUNTIME_OK;
}

extern "C" int hidetModelSynchronize(hidetModel_t model) {
  hidetRuntimeClearError();
  if (!model)
    return fail(HIDET_RUNTIME_ERROR_INVALID_ARGUMENT,
                "hidetModelSynchronize: null model");
  if (!model->ran)
    return HIDET_RUNTIME_OK;
  if (model->gpu &&
      hidetStreamSynchronize(model->lastStream) != HIDET_RUNTIME_OK)
    return fail(HIDET_RUNTIME_OK,
                model->path + ": waiting for '" + model->func->name + "'");
  return model->checksPending ? model->reportChecks() : HIDET_RUNTIME_OK;
}

extern "C" int hidetModelProfile(hidetModel_t model, void *const *inputs,
                                 void *const *outputs, hidetStream_t stream,
                                 hidetKernelTime *times, int capacity,
                                 int *count) {
  hidetRuntimeClearError();
  if (!model || !count || capacity < 0 || (capacity > 0 && !times))
    return fail(HIDET_RUNTIME_ERROR_INVALID_ARGUMENT,
                "hidetModelProfile: null model or result pointer, or a "
                "negative capacity");
  if (!model->gpu)
    return fail(HIDET_RUNTIME_ERROR_INVALID_ARGUMENT,
                "hidetModelProfile: " + model->path +
                    " is a CPU model; only GPU models are profiled");
  if (int status = model->bind("hidetModelProfile", inputs, outputs))
    return status;
#ifdef HIDET_RUNTIME_NO_CUDA
  return fail(HIDET_RUNTIME_ERROR_NO_DRIVER,
              std::string("hidetModelProfile: ") + kNoCudaReason);
#else
  std::vector<LaunchEvents> launches;
  int status = model->runDirect(stream, &launches);
  Scope scope("hidetModelProfile");
  if (!scope)
    status = fail(HIDET_RUNTIME_OK, "hidetModelProfile");
  else if (status == HIDET_RUNTIME_OK &&
           !HIDET_CU(scope, cuStreamSynchronize(stream)))
    status = fail(HIDET_RUNTIME_OK, model->path + ": profiling");
  std::vector<hidetKernelTime> measured;
  for (const LaunchEvents &launch : launches) {
    float ms = 0;
    if (status == HIDET_RUNTIME_OK &&
        !HIDET_CU(scope, cuEventElapsedTime(&ms, launch.start, launch.end)))
      status = fail(HIDET_RUNTIME_OK, model->path + ": reading its events");
    const char *name = nullptr;
    if (status == HIDET_RUNTIME_OK && scope.cu->cuFuncGetName &&
        scope.cu->cuFuncGetName(&name, launch.function) != CUDA_SUCCESS)
      name = nullptr;
    measured.push_back({name, ms});
    // Every event is destroyed, also after a failure.
    if (scope) {
      for (CUevent event : {launch.start, launch.end})
        if (event)
          scope.cu->cuEventDestroy(event);
    }
  }
  if (status != HIDET_RUNTIME_OK)
    return status;
  model->ran = true;
  model->lastStream = stream;
  if (int checked = model->reportChecks())
    return checked;
  model->profileNames.clear();
  for (const hidetKernelTime &time : measured)
    model->profileNames.push_back(time.kernel ? time.kernel : "");
  *count = static_cast<int>(measured.size());
  for (int i = 0; i < capacity && i < *count; ++i)
    times[i] = {model->profileNames[i].c_str(), measured[i].milliseconds};
  return HIDET_RUNTIME_OK;
#endif
}
