//===- ModelTest.cpp - The model C API on CPU libraries -------------------===//
//
// Part of the Hidet-MLIR project.
//
//===----------------------------------------------------------------------===//
//
//   hidet-model-test EMBEDDED EXTERNAL WEIGHTS
//
// Checks hidet/Model.h on two CPU libraries of the same model, y = f(x) with
// one f32 input and one f32 output: EMBEDDED holds its weights, EXTERNAL
// names the weights file WEIGHTS. Both load, describe their tensors, run and
// agree; every misuse and bad file is an error with a message that names
// it, never a crash. Prints one line per check; exits 0 when all pass.
//
//===----------------------------------------------------------------------===//

#include "hidet/Model.h"

#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

namespace {

int failures = 0;

void expect(bool condition, const std::string &what) {
  std::printf("%s: %s\n", condition ? "ok" : "FAIL", what.c_str());
  failures += !condition;
}

/// Expects `status` to be `code` with a recorded message containing
/// `needle`.
void expectError(int status, int code, const std::string &what,
                 const std::string &needle) {
  const char *message = "";
  int recorded = hidetRuntimeLastError(&message);
  expect(status == code && recorded == code &&
             std::strstr(message, needle.c_str()),
         what + " fails with " + std::to_string(code) + " naming '" + needle +
             "' (got " + std::to_string(status) + ": " + message + ")");
}

/// The input array of a one-input model.
std::vector<void *> inputs(const std::vector<float> &x) {
  return {const_cast<float *>(x.data())};
}

std::vector<float> run(hidetModel_t model, const std::vector<float> &x) {
  hidetTensorInfo out;
  hidetModelOutput(model, 0, &out);
  std::vector<float> y(out.bytes / sizeof(float), -1.0f);
  void *inputs[] = {const_cast<float *>(x.data())};
  void *outputs[] = {y.data()};
  int status = hidetModelRun(model, inputs, outputs, nullptr);
  expect(status == HIDET_RUNTIME_OK, "hidetModelRun succeeds");
  return y;
}

} // namespace

int main(int argc, char **argv) {
  if (argc != 4) {
    std::fprintf(stderr, "usage: hidet-model-test EMBEDDED EXTERNAL WEIGHTS\n");
    return 2;
  }
  const std::string embedded = argv[1], external = argv[2], weights = argv[3];
  hidetRuntimeSetErrorPrinting(0);

  // Loading and describing.
  hidetModel_t model = nullptr;
  int status = hidetModelLoad(embedded.c_str(), nullptr, nullptr, &model);
  expect(status == HIDET_RUNTIME_OK && model, "hidetModelLoad " + embedded);
  if (!model)
    return 1;
  expect(hidetModelIsGpu(model) == 0, "a CPU library is not a GPU model");
  expect(hidetModelNumInputs(model) == 1 && hidetModelNumOutputs(model) == 1,
         "one input and one output (weights are not inputs)");
  hidetTensorInfo in, out;
  expect(hidetModelInput(model, 0, &in) == HIDET_RUNTIME_OK &&
             hidetModelOutput(model, 0, &out) == HIDET_RUNTIME_OK,
         "hidetModelInput/Output 0");
  std::printf("input %s dtype %d rank %d bytes %zu\n", in.name, in.dtype,
              in.rank, in.bytes);
  std::printf("output %s dtype %d rank %d bytes %zu\n", out.name, out.dtype,
              out.rank, out.bytes);
  expect(in.dtype == HIDET_DTYPE_F32 && out.dtype == HIDET_DTYPE_F32,
         "f32 tensors");
  hidetModelStats stats;
  expect(hidetModelGetStats(model, &stats) == HIDET_RUNTIME_OK &&
             stats.kernelLaunches == -1 && stats.cudaGraph == 0,
         "no launches counted before the first run");
  std::printf("weight bytes %zu\n", stats.weightBytes);

  // Running: the same output twice, and the same as the external library's.
  std::vector<float> x(in.bytes / sizeof(float));
  for (size_t i = 0; i < x.size(); ++i)
    x[i] = 0.25f * static_cast<float>(i) - 1.0f;
  std::vector<float> y = run(model, x);
  expect(run(model, x) == y, "a second run gives the same output");

  hidetModel_t ext = nullptr;
  expect(hidetModelLoad(external.c_str(), nullptr, nullptr, &ext) ==
             HIDET_RUNTIME_OK,
         "the external library loads the weights file its manifest names");
  if (ext) {
    expect(run(ext, x) == y, "it computes what the embedded library does");
    hidetModelUnload(ext);
  }
  ext = nullptr;
  expect(hidetModelLoad(external.c_str(), nullptr, weights.c_str(), &ext) ==
             HIDET_RUNTIME_OK,
         "and the weights file given explicitly");
  if (ext) {
    expect(run(ext, x) == y, "with the same result");
    hidetModelUnload(ext);
  }

  // Misuse: errors with messages, nothing crashes.
  hidetModel_t none = reinterpret_cast<hidetModel_t>(&failures);
  expectError(hidetModelLoad("/nonexistent/lib.so", nullptr, nullptr, &none),
              HIDET_RUNTIME_ERROR_LOAD, "a missing library",
              "cannot open /nonexistent/lib.so");
  expect(none == nullptr, "a failed load sets the model to null");
  expectError(hidetModelLoad(nullptr, nullptr, nullptr, &none),
              HIDET_RUNTIME_ERROR_INVALID_ARGUMENT, "a null path",
              "null library path");
  expectError(hidetModelLoad(embedded.c_str(), nullptr, nullptr, nullptr),
              HIDET_RUNTIME_ERROR_INVALID_ARGUMENT, "a null result",
              "null result pointer");
  expectError(hidetModelLoad(embedded.c_str(), "nope", nullptr, &none),
              HIDET_RUNTIME_ERROR_INVALID_ARGUMENT, "an unknown function",
              "has no function 'nope'");
  expectError(
      hidetModelLoad(external.c_str(), nullptr, "/nonexistent/w.bin", &none),
      HIDET_RUNTIME_ERROR_LOAD, "a missing weights file",
      "/nonexistent/w.bin: cannot open the weights file");
  expectError(
      hidetModelLoad(external.c_str(), nullptr, embedded.c_str(), &none),
      HIDET_RUNTIME_ERROR_LOAD, "a file that is not a weights file",
      "not a weights file");
  expectError(hidetModelLoad(weights.c_str(), nullptr, nullptr, &none),
              HIDET_RUNTIME_ERROR_LOAD, "a file that is not a library",
              "cannot load " + weights);
  expectError(hidetModelInput(model, 1, &in),
              HIDET_RUNTIME_ERROR_INVALID_ARGUMENT, "input index 1",
              "index 1 is out of range (the model has 1)");
  expectError(hidetModelOutput(model, -1, &out),
              HIDET_RUNTIME_ERROR_INVALID_ARGUMENT, "output index -1",
              "index -1 is out of range");
  expectError(hidetModelInput(model, 0, nullptr),
              HIDET_RUNTIME_ERROR_INVALID_ARGUMENT, "a null info pointer",
              "null model or result pointer");
  void *nullInput[] = {nullptr};
  void *output[] = {y.data()};
  expectError(hidetModelRun(model, nullInput, output, nullptr),
              HIDET_RUNTIME_ERROR_INVALID_ARGUMENT, "a null input buffer",
              "input 0 is null");
  expectError(hidetModelRun(model, nullptr, output, nullptr),
              HIDET_RUNTIME_ERROR_INVALID_ARGUMENT, "a null input array",
              "null input or output array");
  expectError(hidetModelRun(nullptr, nullptr, nullptr, nullptr),
              HIDET_RUNTIME_ERROR_INVALID_ARGUMENT, "a null model",
              "null model");
  int count = -1;
  hidetKernelTime time;
  expectError(hidetModelProfile(model, inputs(x).data(), output, nullptr, &time, 1,
                                &count),
              HIDET_RUNTIME_ERROR_INVALID_ARGUMENT, "profiling a CPU model",
              "is a CPU model; only GPU models are profiled");
  expectError(hidetModelProfile(model, inputs(x).data(), output, nullptr, nullptr, 1,
                                &count),
              HIDET_RUNTIME_ERROR_INVALID_ARGUMENT,
              "a profile without room for its launches", "null model or result");
  expectError(hidetModelProfile(model, inputs(x).data(), output, nullptr, &time, 1,
                                nullptr),
              HIDET_RUNTIME_ERROR_INVALID_ARGUMENT, "a profile without a count",
              "null model or result");
  expect(count == -1, "a failed profile leaves the count alone");
  expect(hidetModelGetStats(model, &stats) == HIDET_RUNTIME_OK &&
             stats.kernelLaunches == 0,
         "a CPU model launches no kernels");
  expect(hidetModelUnload(nullptr) == HIDET_RUNTIME_OK, "unloading null");
  expect(hidetModelUnload(model) == HIDET_RUNTIME_OK, "unloading the model");

  std::printf("hidet-model-test: %d failure(s)\n", failures);
  return failures ? 1 : 0;
}
