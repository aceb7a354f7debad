//===- Checks.h - The run-time checks of a compiled function ----*- C++ -*-===//
//
// Part of the Hidet-MLIR project.
//
//===----------------------------------------------------------------------===//
//
// A function whose manifest has `check` statements (hidet/Manifest.h) writes
// one i64 status per check after each run: 0 when every index it read from
// data was in range, else ~p for the first position p that was not. The model
// runtime allocates the statuses, passes them after the outputs, reads them
// once the run's work is done and turns the first failed one into an error
// that names the input, the position and the value there.
//
//===----------------------------------------------------------------------===//

#ifndef HIDET_RUNTIME_LIB_CHECKS_H
#define HIDET_RUNTIME_LIB_CHECKS_H

#include "ManifestParser.h"

#include <cstdint>
#include <string>
#include <vector>

namespace hidet::runtime {

class RunChecks {
public:
  RunChecks() = default;
  RunChecks(const RunChecks &) = delete;
  RunChecks &operator=(const RunChecks &) = delete;
  ~RunChecks();

  /// Allocates the statuses of `func`'s checks: device memory for a GPU
  /// model, host memory for a CPU one. False when the device allocation
  /// fails (the runtime has recorded why).
  bool allocate(const run::FuncSpec &func, bool gpu);

  size_t size() const { return host.size(); }
  /// The buffer of check `i`'s status, to pass to the function.
  void *getStatus(size_t i);

  /// Reads the statuses of the last run, whose work must be complete.
  /// Returns HIDET_RUNTIME_OK, or HIDET_RUNTIME_ERROR_CHECK with `message`
  /// describing the first failed check, or the runtime's error when the
  /// statuses cannot be read (`message` says what was being done).
  /// `arguments[i]` is the buffer bound to arg i of the function, from which
  /// the value at the failing position is read.
  int read(const std::vector<void *> &arguments, std::string &message);

private:
  /// The value of `arg` at element `position` of `buffer`, as text, or
  /// empty when it cannot be read.
  std::string readValue(const run::ArgSpec &arg, const void *buffer,
                        int64_t position) const;

  const run::FuncSpec *func = nullptr;
  bool gpu = false;
  void *device = nullptr;
  std::vector<int64_t> host;
};

} // namespace hidet::runtime

#endif // HIDET_RUNTIME_LIB_CHECKS_H
