//===- Verify.cpp - Running a function and checking its outputs -----------===//
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

/// The inputs: the generator's values (drawn from `dist`), then the files'
/// in place of those given. Every input is generated, so that a seed gives
/// the same values whichever inputs come from files. Output buffers stay
/// empty.
HostBuffers makeInputs(const FuncSpec &func, uint64_t seed, InputDist dist,
                       ArgFiles &files) {
  std::mt19937_64 rng(seed);
  HostBuffers host(func.args.size());
  for (size_t i = 0; i < func.numInputs; ++i) {
    const ArgSpec &arg = func.args[i];
    // Weights are the model's own (loaded with it).
    if (!arg.weight.empty())
      continue;
    host[i].resize(arg.getSizeBytes());
    fillRandom(arg, rng, host[i].data(), dist);
    if (files.has(i))
      host[i] = std::move(files.data[i]);
  }
  return host;
}

/// Describes the buffers of `call` in its args: for a GPU library device
/// copies of `inputs` and device outputs, for a CPU library `inputs`
/// themselves (compiled functions do not write their inputs), which must
/// outlive `call`, and host outputs. Outputs start as 0xFF bytes (NaN), so that
/// unwritten elements fail. `what` names an arg in messages.
bool prepareCall(const FuncSpec &func, const HostBuffers &inputs,
                 const Options &options, hidetStream_t stream,
                 const std::string &what, PreparedCall &call) {
  const char *weights =
      options.weights.empty() ? nullptr : options.weights.c_str();
  if (hidetModelLoad(call.entry.library.c_str(), call.entry.func.c_str(),
                     weights, &call.model) != HIDET_RUNTIME_OK)
    return reportCudaError("");
  hidetModelSetCudaGraph(call.model, options.cudaGraph);
  call.stream = stream;
  call.buffers.assign(func.args.size(), nullptr);
  bool gpu = call.entry.target == Target::Gpu;
  if (!gpu)
    call.hostOutputs.resize(func.args.size());
  for (size_t i = 0; i < func.args.size(); ++i) {
    const ArgSpec &arg = func.args[i];
    if (!arg.weight.empty())
      continue;
    void *buffer = nullptr;
    if (!gpu && !arg.isOutput) {
      buffer = const_cast<unsigned char *>(inputs[i].data());
    } else if (!gpu) {
      call.hostOutputs[i].assign(arg.getSizeBytes(), 0xFF);
      buffer = call.hostOutputs[i].data();
    } else {
      buffer = hidetMalloc(arg.getSizeBytes());
      if (!buffer)
        return reportCudaError(func.name + ": allocating " + what + " arg " +
                               std::to_string(i));
      call.deviceBuffers.pointers.push_back(buffer);
      int status =
          arg.isOutput
              ? hidetMemsetD8(buffer, 0xFF, arg.getSizeBytes())
              : hidetMemcpyHtoD(buffer, inputs[i].data(), arg.getSizeBytes());
      if (status != HIDET_RUNTIME_OK)
        return reportCudaError(func.name + ": preparing " + what + " arg " +
                               std::to_string(i));
    }
    call.buffers[i] = buffer;
    (arg.isOutput ? call.outputs : call.inputs).push_back(buffer);
  }
  return true;
}

bool runCall(const FuncSpec &func, const PreparedCall &call,
             hidetStream_t stream, const std::string &what,
             HostBuffers &outputs) {
  outputs.resize(func.args.size());
  if (!call.call())
    return reportCudaError(what);
  if (call.entry.target == Target::Cpu) {
    for (size_t i = func.numInputs; i < func.args.size(); ++i)
      outputs[i] = call.hostOutputs[i];
    return true;
  }
  hidetStreamSynchronize(stream);
  hidetDeviceSynchronize();
  if (!checkRuntime(what))
    return false;
  for (size_t i = func.numInputs; i < func.args.size(); ++i) {
    outputs[i].resize(func.args[i].getSizeBytes());
    hidetMemcpyDtoH(outputs[i].data(), call.buffers[i], outputs[i].size());
  }
  return checkRuntime(what + ": copying outputs back");
}

/// Compares `out` with the expected elements from `path` into `output`.
void compareWithExpected(const void *out,
                         const std::vector<unsigned char> &expected,
                         const std::string &path, const Options &options,
                         OutputResult &output) {
  const ArgSpec &arg = *output.arg;
  output.expectedFile = path;
  output.rtol = options.rtol;
  output.atol = options.atol;
  output.atolRms = options.atolRms;
  Comparison whole = compare(arg, out, expected.data());
  output.expectedRms = whole.refRms;
  output.closeness =
      checkClose(arg, out, expected.data(), output.rtol, output.getAbsBound());
  output.expectedRelL2Bound = options.expectedRelL2;
  output.expectedRelL2 = whole.relL2;
  output.outNonFinite = whole.gpuNonFinite;
  output.expectedPass = output.closeness.mismatches == 0 &&
                        (output.expectedRelL2Bound < 0 ||
                         output.expectedRelL2 <= output.expectedRelL2Bound);
}

/// Records `output` in `result`.
void addOutput(OutputResult output, FuncResult &result) {
  output.pass = output.ref.pass && output.expectedPass;
  result.verified = true;
  result.pass = result.pass && output.pass;
  if (output.refChecked) {
    const Comparison &c = output.ref.comparison;
    result.worstRelL2 = std::max(result.worstRelL2, c.relL2);
    result.worstMaxAbs = std::max(result.worstMaxAbs, c.maxAbs);
    result.refMismatches += output.ref.elements.mismatches;
    if (isFloatDType(output.arg->dtype)) {
      result.worstMaxUlp = std::max(result.worstMaxUlp, c.maxUlp);
      result.ulpMismatches += c.ulpMismatches;
    }
  }
  if (!output.expectedFile.empty()) {
    result.expectedChecked = true;
    result.worstExpectedMaxAbs =
        std::max(result.worstExpectedMaxAbs, output.closeness.maxAbs);
    result.expectedMismatches += output.closeness.mismatches;
    if (output.expectedRelL2Bound >= 0)
      result.worstExpectedRelL2 =
          std::max(result.worstExpectedRelL2, output.expectedRelL2);
  }
  result.outputs.push_back(std::move(output));
}

} // namespace

bool hidet::run::runAndVerify(const FuncSpec &func, const Entry &main,
                              const Entry &ref, ArgFiles &files,
                              const Options &options, hidetStream_t stream,
                              PreparedCall &call, HostBuffers &outputs,
                              FuncResult &result) {
  result.func = &func;
  call.hostInputs = makeInputs(func, options.seed, options.inputDist, files);
  const HostBuffers &inputs = call.hostInputs;
  call.entry = main;
  if (!prepareCall(func, inputs, options, stream, options.lib, call) ||
      !runCall(func, call, stream, func.name, outputs))
    return false;

  HostBuffers refOutputs;
  if (ref.valid()) {
    PreparedCall refCall;
    refCall.entry = ref;
    if (!prepareCall(func, inputs, options, stream, options.refLib, refCall) ||
        !runCall(func, refCall, stream, func.name + ": running the reference",
                 refOutputs))
      return false;
  }

  for (size_t i = func.numInputs; i < func.args.size(); ++i) {
    if (!ref.valid() && !files.has(i))
      continue;
    OutputResult output;
    output.index = i;
    output.arg = &func.args[i];
    if (ref.valid()) {
      output.refChecked = true;
      output.ref = checkAgainstRef(func.args[i], outputs[i].data(),
                                   refOutputs[i].data(), options.refBounds);
    }
    if (files.has(i))
      compareWithExpected(outputs[i].data(), files.data[i], files.paths[i],
                          options, output);
    addOutput(std::move(output), result);
  }
  return true;
}
