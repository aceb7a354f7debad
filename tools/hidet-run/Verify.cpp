//===- Verify.cpp - Checking a GPU build against its reference ------------===//
//
// Part of the Hidet-MLIR project.
//
//===----------------------------------------------------------------------===//

#include "Verify.h"

#include "Data.h"
#include "Options.h"

#include <algorithm>
#include <random>
#include <string>
#include <vector>

using namespace hidet::run;

namespace {

/// One host buffer per arg of a function.
using HostBuffers = std::vector<std::vector<unsigned char>>;

/// Inputs from the seeded generator; outputs all 0xFF bytes.
HostBuffers makeHostBuffers(const FuncSpec &func, uint64_t seed) {
  std::mt19937_64 rng(seed);
  HostBuffers host(func.args.size());
  for (size_t i = 0; i < func.args.size(); ++i) {
    const ArgSpec &arg = func.args[i];
    host[i].assign(arg.getSizeBytes(), 0xFF);
    if (!arg.isOutput)
      fillRandom(arg, rng, host[i].data());
  }
  return host;
}

/// Allocates a device buffer per arg of `func` and describes it in `args`:
/// inputs are copies of `host`, outputs start as 0xFF bytes (NaN), so that
/// unwritten elements fail. `what` names an arg in messages.
bool prepareDeviceArgs(const FuncSpec &func, const HostBuffers &host,
                       const std::string &what, DeviceBuffers &buffers,
                       CallArgs &args) {
  for (size_t i = 0; i < func.args.size(); ++i) {
    const ArgSpec &arg = func.args[i];
    void *buffer = hidetMalloc(arg.getSizeBytes());
    if (!buffer)
      return reportCudaError(func.name + ": allocating " + what + " " +
                             std::to_string(i));
    buffers.pointers.push_back(buffer);
    int status = arg.isOutput ? hidetMemsetD8(buffer, 0xFF, arg.getSizeBytes())
                              : hidetMemcpyHtoD(buffer, host[i].data(),
                                                arg.getSizeBytes());
    if (status != HIDET_RUNTIME_OK)
      return reportCudaError(func.name + ": preparing " + what + " " +
                             std::to_string(i));
    args.add(buffer, arg);
  }
  return true;
}

/// Calls `entry` on device buffers, waits for it and copies its outputs into
/// `outputs`. `what` names the step in messages.
bool runOnDevice(const FuncSpec &func, void *entry, const CallArgs &args,
                 const DeviceBuffers &buffers, hidetStream_t stream,
                 const std::string &what, HostBuffers &outputs) {
  args.call(entry);
  hidetStreamSynchronize(stream);
  hidetDeviceSynchronize();
  if (!checkRuntime(what))
    return false;
  outputs.resize(func.args.size());
  for (size_t i = func.numInputs; i < func.args.size(); ++i) {
    outputs[i].resize(func.args[i].getSizeBytes());
    hidetMemcpyDtoH(outputs[i].data(), buffers.pointers[i], outputs[i].size());
  }
  return checkRuntime(what + ": copying outputs back");
}

/// Compares output `index` of `func` and records it in `result`.
void compareOutput(const FuncSpec &func, size_t index, const void *gpu,
                   const void *ref, const Options &options,
                   FuncResult &result) {
  const ArgSpec &arg = func.args[index];
  OutputResult output;
  output.index = index;
  output.arg = &arg;
  output.comparison = compare(arg, gpu, ref);
  output.rtolL2 = options.rtolL2 >= 0 ? options.rtolL2
                                      : getDefaultRelL2Tolerance(arg.dtype);
  output.atol = options.atol;
  output.maxUlp = options.maxUlp;
  const Comparison &c = output.comparison;
  output.pass = c.gpuNonFinite == 0 && c.refNonFinite == 0 &&
                c.relL2 <= output.rtolL2 &&
                (output.atol < 0 || c.maxAbs <= output.atol) &&
                (output.maxUlp < 0 || c.maxUlp <= output.maxUlp);
  result.pass = result.pass && output.pass;
  result.worstRelL2 = std::max(result.worstRelL2, c.relL2);
  result.worstMaxAbs = std::max(result.worstMaxAbs, c.maxAbs);
  if (isFloatDType(arg.dtype)) {
    result.worstMaxUlp = std::max(result.worstMaxUlp, c.maxUlp);
    result.ulpMismatches += c.ulpMismatches;
  }
  result.outputs.push_back(output);
}

} // namespace

bool hidet::run::runAndVerify(const FuncSpec &func, void *gpuEntry,
                              void *refEntry, const Options &options,
                              hidetStream_t stream, GpuCall &call,
                              FuncResult &result) {
  result.func = &func;
  // The reference gets the same input bytes; its outputs are written here.
  HostBuffers host = makeHostBuffers(func, options.seed);
  call.entry = gpuEntry;
  if (!prepareDeviceArgs(func, host, "arg", call.buffers, call.args))
    return false;
  HostBuffers gpuOutputs;
  if (!runOnDevice(func, gpuEntry, call.args, call.buffers, stream, func.name,
                   gpuOutputs))
    return false;
  if (!refEntry)
    return true;

  if (options.refOnGpu) {
    // A GPU reference gets its own device copies of the same inputs.
    DeviceBuffers refBuffers;
    CallArgs refArgs;
    if (!prepareDeviceArgs(func, host, "reference arg", refBuffers, refArgs) ||
        !runOnDevice(func, refEntry, refArgs, refBuffers, stream,
                     func.name + ": running the GPU reference", host))
      return false;
  } else {
    CallArgs refArgs;
    for (size_t i = 0; i < func.args.size(); ++i)
      refArgs.add(host[i].data(), func.args[i]);
    refArgs.call(refEntry);
  }

  result.verified = true;
  for (size_t i = func.numInputs; i < func.args.size(); ++i)
    compareOutput(func, i, gpuOutputs[i].data(), host[i].data(), options,
                  result);
  return true;
}
