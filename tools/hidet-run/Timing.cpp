//===- Timing.cpp - Timing compiled functions -----------------------------===//
//
// Part of the Hidet-MLIR project.
//
//===----------------------------------------------------------------------===//

#include "Timing.h"

#include "Options.h"

#include "llvm/Support/raw_ostream.h"

#include <algorithm>
#include <chrono>
#include <string>
#include <utility>
#include <vector>

using namespace hidet::run;

namespace {

/// A kernel that spins for a number of cycles (by default ~100 us).
/// Launched before each timed call, it lets the host enqueue the call's
/// kernels while the GPU is still busy, so that launch gaps stay out of the
/// timing (the same method as the project's PyTorch baselines, which queue
/// behind torch.cuda._sleep). PTX, so that the driver compiles it for any
/// GPU.
class SpinKernel {
public:
  SpinKernel() = default;
  SpinKernel(const SpinKernel &) = delete;
  SpinKernel &operator=(const SpinKernel &) = delete;
  ~SpinKernel() {
    if (module)
      mgpuModuleUnload(module);
  }

  /// Spins for about `microseconds` (at 2 GHz; longer at lower clocks).
  void launch(hidetStream_t stream, double microseconds = 100) {
    if (!module) {
      module = mgpuModuleLoadJIT(kPtx, /*optLevel=*/2);
      if (module)
        function = mgpuModuleGetFunction(module, "hidet_spin");
    }
    if (!function)
      return;
    uint64_t cycles = static_cast<uint64_t>(microseconds * 2000);
    void *params[] = {&cycles};
    mgpuLaunchKernel(function, 1, 1, 1, 1, 1, 1, 0, stream, params, nullptr, 1);
  }

private:
  static constexpr const char *kPtx =
      ".version 7.0\n.target sm_70\n.address_size 64\n"
      ".visible .entry hidet_spin(.param .u64 cycles) {\n"
      "  .reg .u64 %rd<4>;\n  .reg .pred %p;\n"
      "  ld.param.u64 %rd1, [cycles];\n  mov.u64 %rd2, %clock64;\n"
      "SPIN:\n  mov.u64 %rd3, %clock64;\n  sub.u64 %rd3, %rd3, %rd2;\n"
      "  setp.lt.u64 %p, %rd3, %rd1;\n  @%p bra SPIN;\n  ret;\n}\n";
  hidetModule_t module = nullptr;
  hidetFunction_t function = nullptr;
};

/// The spin queued before a profiled run: 1.25 times the host time of the
/// uncounted run, plus 20 us, and at most 100 ms.
constexpr double kProfileSpinPerHostTime = 1.25;
constexpr double kProfileSpinMarginMicroseconds = 20;
constexpr double kMaxProfileSpinMicroseconds = 100000;

/// The median of `sorted` (ascending, not empty).
double median(const std::vector<double> &sorted) {
  size_t n = sorted.size();
  return n % 2 ? sorted[n / 2] : 0.5 * (sorted[n / 2 - 1] + sorted[n / 2]);
}

/// Records the median, min and mean of `times` (not empty) in `result`.
void recordTimes(std::vector<double> times, FuncResult &result) {
  std::sort(times.begin(), times.end());
  result.timed = true;
  result.medianMs = median(times);
  result.minMs = times.front();
  double sum = 0;
  for (double t : times)
    sum += t;
  result.meanMs = sum / static_cast<double>(times.size());
}

/// Times the calls of a CPU library with the host's steady clock.
bool timeHostCalls(const PreparedCall &call, const Options &options,
                   FuncResult &result) {
  using Clock = std::chrono::steady_clock;
  for (long long i = 0; i < options.warmup; ++i)
    if (!call.call())
      return false;
  std::vector<double> times;
  times.reserve(static_cast<size_t>(options.reps));
  for (long long i = 0; i < options.reps; ++i) {
    Clock::time_point start = Clock::now();
    if (!call.call())
      return false;
    std::chrono::duration<double, std::milli> elapsed = Clock::now() - start;
    times.push_back(elapsed.count());
  }
  recordTimes(std::move(times), result);
  return true;
}

/// Times the calls of a GPU library with CUDA events.
bool timeDeviceCalls(const std::string &label, const PreparedCall &call,
                     const Options &options, hidetStream_t stream,
                     FuncResult &result) {
  for (long long i = 0; i < options.warmup; ++i) {
    if (!call.call())
      return reportCudaError(label + ": warm-up");
  }
  hidetStreamSynchronize(stream);
  // Events for all reps up front, so timing adds no host work between
  // calls; the compiled code's own work goes to the same stream.
  std::vector<hidetEvent_t> starts, ends;
  bool ok = true;
  for (long long i = 0; i < options.reps && ok; ++i) {
    starts.push_back(hidetEventCreate());
    ends.push_back(hidetEventCreate());
    ok = starts.back() && ends.back();
  }
  std::vector<double> times;
  SpinKernel spin;
  for (long long i = 0; i < options.reps && ok; ++i) {
    // Keep the GPU busy while the host enqueues the call, so that the
    // events measure GPU time, not host launch gaps.
    if (options.queueBehindSpin)
      spin.launch(stream);
    hidetEventRecord(starts[i], stream);
    // A run only enqueues its work (hidetModelRun does not wait).
    ok = call.call();
    hidetEventRecord(ends[i], stream);
    ok = ok && checkRuntime(label + ": timed run");
  }
  if (ok) {
    hidetEventSynchronize(ends.back());
    for (long long i = 0; i < options.reps && ok; ++i) {
      float ms = 0;
      ok = hidetEventElapsedMs(starts[i], ends[i], &ms) == HIDET_RUNTIME_OK;
      times.push_back(ms);
    }
    ok = checkRuntime(label + ": reading timers") && ok;
  }
  for (hidetEvent_t event : starts)
    hidetEventDestroy(event);
  for (hidetEvent_t event : ends)
    hidetEventDestroy(event);
  if (!ok)
    return reportCudaError(label);
  recordTimes(std::move(times), result);
  return true;
}

} // namespace

bool hidet::run::timeCalls(const FuncSpec &func, const PreparedCall &call,
                           const Options &options, hidetStream_t stream,
                           FuncResult &result) {
  const std::string &label = func.name;
  if (options.reps == 0)
    return true;
  if (call.entry.target == Target::Cpu)
    return timeHostCalls(call, options, result) ||
           reportCudaError(label + ": timed run");
  // The calls stay queued (a run with index checks would otherwise wait for
  // itself); the checks of the last are reported after the loop, and all
  // calls run on the same inputs.
  if (hidetModelSetChecks(call.model, HIDET_CHECKS_DEFERRED) !=
      HIDET_RUNTIME_OK)
    return reportCudaError(label);
  bool timed = timeDeviceCalls(label, call, options, stream, result);
  int checked = hidetModelSynchronize(call.model);
  hidetModelSetChecks(call.model, HIDET_CHECKS_EACH_RUN);
  if (!timed)
    return false;
  return checked == HIDET_RUNTIME_OK || reportCudaError(label + ": timed runs");
}

bool hidet::run::profileKernels(const FuncSpec &func, const PreparedCall &call,
                                const Options &options, FuncResult &result) {
  if (options.profileRuns <= 0)
    return true;
  if (call.entry.target != Target::Gpu) {
    llvm::outs() << "hidet-run: " << func.name
                 << ": --profile is for GPU libraries; not profiled\n";
    return true;
  }
  const std::string label = func.name + ": profile";
  std::vector<hidetKernelTime> launches(64);
  // One direct run with events around each launch; `made` gets how many
  // launches it made (more than `launches` holds: none of them recorded).
  auto profileRun = [&](int &made) {
    return hidetModelProfile(call.model, call.inputs.data(),
                             call.outputs.data(), call.stream, launches.data(),
                             static_cast<int>(launches.size()),
                             &made) == HIDET_RUNTIME_OK;
  };
  int count = 0;
  // A first run, not counted: it finds how many launches a run makes, and
  // its host time bounds how long the host takes to enqueue one. Each
  // counted run is queued behind a spin at least that long, so that its
  // events bracket GPU work only: without it, an event recorded on an idle
  // GPU starts its clock before the host has made the launch, and a small
  // kernel's time is mostly the host's (a 3 us GEMM read 10 us).
  auto calibrationStart = std::chrono::steady_clock::now();
  for (;;) {
    if (!profileRun(count))
      return reportCudaError(label);
    if (static_cast<size_t>(count) <= launches.size())
      break;
    launches.resize(static_cast<size_t>(count));
    calibrationStart = std::chrono::steady_clock::now();
  }
  std::chrono::duration<double, std::micro> hostTime =
      std::chrono::steady_clock::now() - calibrationStart;
  double spinMicroseconds = std::min(
      kMaxProfileSpinMicroseconds, kProfileSpinPerHostTime * hostTime.count() +
                                       kProfileSpinMarginMicroseconds);
  SpinKernel spin;
  result.kernels.resize(static_cast<size_t>(count));
  for (int i = 0; i < count; ++i)
    result.kernels[i].name = launches[i].kernel;
  // Per launch, its time in each run; every run makes the same launches.
  std::vector<std::vector<double>> times(static_cast<size_t>(count));
  for (long long run = 0; run < options.profileRuns; ++run) {
    if (options.queueBehindSpin)
      spin.launch(call.stream, spinMicroseconds);
    int runCount = 0;
    if (!profileRun(runCount))
      return reportCudaError(label);
    if (runCount != count) {
      printError(label + ": runs made different numbers of launches (" +
                 std::to_string(count) + " and " + std::to_string(runCount) +
                 ")");
      return false;
    }
    for (int i = 0; i < count; ++i)
      times[i].push_back(launches[i].milliseconds);
  }
  for (size_t i = 0; i < times.size(); ++i) {
    result.kernels[i].samples = times[i];
    std::sort(times[i].begin(), times[i].end());
    result.kernels[i].ms = median(times[i]);
  }
  result.profileRuns = options.profileRuns;
  return true;
}
