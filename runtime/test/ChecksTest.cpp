//===- ChecksTest.cpp - The model API's index checks ----------------------===//
//
// Part of the Hidet-MLIR project.
//
//===----------------------------------------------------------------------===//
//
//   hidet-model-checks-test LIBRARY BAD
//
// Runs a model whose first input holds indices (an embedding lookup's ids)
// through hidet/Model.h, on the CPU or the GPU as the library is built:
// every integer input holds 1 and every float input 0.5, except element 5
// of input 0, which is 1 in good runs and BAD in bad ones. Checks that good
// runs succeed, that a bad run fails with HIDET_RUNTIME_ERROR_CHECK (its
// message is printed, for FileCheck), that a good run after it succeeds
// again, that with HIDET_CHECKS_DEFERRED runs return at once and
// hidetModelSynchronize reports the latest, and (GPU models) that a profiled
// bad run fails too. Prints one line per check; exits 0 when all pass.
//
//===----------------------------------------------------------------------===//

#include "hidet/Model.h"

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

namespace {

int failures = 0;

void expect(bool condition, const std::string &what) {
  std::printf("%s: %s\n", condition ? "ok" : "FAIL", what.c_str());
  failures += !condition;
}

std::string lastError() {
  const char *message = "";
  hidetRuntimeLastError(&message);
  return message ? message : "";
}

/// The model's buffers (device memory for a GPU model), with the host bytes
/// of each input.
struct Buffers {
  hidetModel_t model;
  bool gpu;
  std::vector<std::vector<unsigned char>> host;
  std::vector<void *> inputs, outputs;

  explicit Buffers(hidetModel_t model)
      : model(model), gpu(hidetModelIsGpu(model) != 0) {
    for (int i = 0; i < hidetModelNumInputs(model); ++i) {
      hidetTensorInfo info;
      hidetModelInput(model, i, &info);
      host.emplace_back(info.bytes);
      fill(info, host.back());
      inputs.push_back(allocate(info.bytes, host.back().data()));
    }
    for (int i = 0; i < hidetModelNumOutputs(model); ++i) {
      hidetTensorInfo info;
      hidetModelOutput(model, i, &info);
      outputs.push_back(allocate(info.bytes, nullptr));
    }
  }
  ~Buffers() {
    for (void *p : inputs)
      gpu ? (void)hidetFree(p) : std::free(p);
    for (void *p : outputs)
      gpu ? (void)hidetFree(p) : std::free(p);
  }

  static void fill(const hidetTensorInfo &info,
                   std::vector<unsigned char> &bytes) {
    size_t count = 1;
    for (int d = 0; d < info.rank; ++d)
      count *= static_cast<size_t>(info.shape[d]);
    for (size_t e = 0; e < count; ++e) {
      if (info.dtype == HIDET_DTYPE_I64) {
        int64_t one = 1;
        std::memcpy(&bytes[e * 8], &one, 8);
      } else if (info.dtype == HIDET_DTYPE_I32) {
        int32_t one = 1;
        std::memcpy(&bytes[e * 4], &one, 4);
      } else if (info.dtype == HIDET_DTYPE_F32) {
        float half = 0.5f;
        std::memcpy(&bytes[e * 4], &half, 4);
      }
    }
  }

  void *allocate(size_t bytes, const void *from) {
    void *p = gpu ? hidetMalloc(bytes) : std::malloc(bytes);
    if (from)
      gpu ? (void)hidetMemcpyHtoD(p, from, bytes)
          : (void)std::memcpy(p, from, bytes);
    return p;
  }

  /// Element 5 of input 0 (an i64 or i32 tensor) becomes `value`.
  void setIndex(int64_t value) {
    hidetTensorInfo info;
    hidetModelInput(model, 0, &info);
    std::vector<unsigned char> &bytes = host[0];
    if (info.dtype == HIDET_DTYPE_I64) {
      std::memcpy(&bytes[5 * 8], &value, 8);
    } else {
      int32_t narrow = static_cast<int32_t>(value);
      std::memcpy(&bytes[5 * 4], &narrow, 4);
    }
    if (gpu)
      hidetMemcpyHtoD(inputs[0], bytes.data(), bytes.size());
    else
      std::memcpy(inputs[0], bytes.data(), bytes.size());
  }

  int run(hidetStream_t stream) {
    return hidetModelRun(model, inputs.data(), outputs.data(), stream);
  }
};

} // namespace

int main(int argc, char **argv) {
  if (argc != 3) {
    std::fprintf(stderr, "usage: hidet-model-checks-test LIBRARY BAD\n");
    return 2;
  }
  const std::string library = argv[1];
  const int64_t bad = std::strtoll(argv[2], nullptr, 10);
  hidetRuntimeSetErrorPrinting(0);

  hidetModel_t model = nullptr;
  if (hidetModelLoad(library.c_str(), nullptr, nullptr, &model) !=
      HIDET_RUNTIME_OK) {
    std::printf("FAIL: hidetModelLoad %s: %s\n", library.c_str(),
                lastError().c_str());
    return 1;
  }
  expect(hidetModelNumChecks(model) >= 1, "the model checks its indices");
  // The synchronize of a model that has not run has nothing to report.
  expect(hidetModelSynchronize(model) == HIDET_RUNTIME_OK,
         "hidetModelSynchronize before any run succeeds");
  hidetStream_t stream = nullptr;
  if (hidetModelIsGpu(model))
    stream = hidetStreamCreate();
  {
    Buffers buffers(model);
    expect(buffers.run(stream) == HIDET_RUNTIME_OK, "a good run succeeds");

    buffers.setIndex(bad);
    int status = buffers.run(stream);
    std::string message = lastError();
    expect(status == HIDET_RUNTIME_ERROR_CHECK,
           "a bad run fails with HIDET_RUNTIME_ERROR_CHECK (got " +
               std::to_string(status) + ")");
    std::printf("bad run: %s\n", message.c_str());

    buffers.setIndex(1);
    expect(buffers.run(stream) == HIDET_RUNTIME_OK,
           "a good run after a bad one succeeds");

    expect(hidetModelSetChecks(model, HIDET_CHECKS_DEFERRED) ==
               HIDET_RUNTIME_OK,
           "hidetModelSetChecks(HIDET_CHECKS_DEFERRED)");
    buffers.setIndex(bad);
    expect(buffers.run(stream) == HIDET_RUNTIME_OK,
           "a deferred bad run returns without an error");
    status = hidetModelSynchronize(model);
    expect(status == HIDET_RUNTIME_ERROR_CHECK,
           "hidetModelSynchronize reports it (got " + std::to_string(status) +
               ")");
    std::printf("deferred: %s\n", lastError().c_str());
    expect(hidetModelSynchronize(model) == HIDET_RUNTIME_OK,
           "a second hidetModelSynchronize has nothing left to report");
    buffers.setIndex(1);
    expect(buffers.run(stream) == HIDET_RUNTIME_OK &&
               buffers.run(stream) == HIDET_RUNTIME_OK &&
               hidetModelSynchronize(model) == HIDET_RUNTIME_OK,
           "deferred good runs succeed and synchronize");
    if (buffers.gpu) {
      // A profiled run reports its checks whatever the mode.
      buffers.setIndex(bad);
      int launches = 0;
      status = hidetModelProfile(model, buffers.inputs.data(),
                                 buffers.outputs.data(), stream, nullptr, 0,
                                 &launches);
      expect(status == HIDET_RUNTIME_ERROR_CHECK,
             "a profiled bad run fails with HIDET_RUNTIME_ERROR_CHECK (got " +
                 std::to_string(status) + ")");
      buffers.setIndex(1);
    }
    expect(hidetModelSetChecks(model, 7) ==
               HIDET_RUNTIME_ERROR_INVALID_ARGUMENT,
           "an unknown check mode is an invalid argument");
    expect(hidetModelSetChecks(nullptr, HIDET_CHECKS_EACH_RUN) ==
                   HIDET_RUNTIME_ERROR_INVALID_ARGUMENT &&
               hidetModelSynchronize(nullptr) ==
                   HIDET_RUNTIME_ERROR_INVALID_ARGUMENT &&
               hidetModelNumChecks(nullptr) == 0,
           "a null model is an invalid argument");
  }
  if (stream)
    hidetStreamDestroy(stream);
  hidetModelUnload(model);
  std::printf("hidet-model-checks-test: %d failure(s)\n", failures);
  return failures == 0 ? 0 : 1;
}
