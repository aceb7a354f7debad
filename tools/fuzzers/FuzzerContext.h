//===- FuzzerContext.h - What the fuzz targets share ------------*- C++ -*-===//
//
// Part of the Hidet-MLIR project.
//
//===----------------------------------------------------------------------===//
//
// The MLIR context of a fuzz target (every dialect and pass hidet-opt
// registers, one thread, diagnostics counted rather than printed) and the
// report that stops a run on a finding.
//
//===----------------------------------------------------------------------===//

#ifndef HIDET_TOOLS_FUZZERS_FUZZERCONTEXT_H
#define HIDET_TOOLS_FUZZERS_FUZZERCONTEXT_H

#include "mlir/IR/MLIRContext.h"
#include "llvm/ADT/Twine.h"

namespace hidet::fuzz {

/// Which dialects a context registers.
enum class Dialects {
  /// Every dialect and pass hidet-opt registers (pipelines create ops of
  /// many upstream dialects).
  All,
  /// The project's dialects and the upstream ones their tests write ops of
  /// (func, arith, memref, scf): findings in other upstream parsers are not
  /// the project's to fix (docs/Fuzzing.md).
  Project,
};

/// The context every input of a run is parsed in: created on first use,
/// kept for the process.
mlir::MLIRContext &context(Dialects dialects = Dialects::All);

/// The number of errors reported through `context()` since the last call.
unsigned takeErrorCount();

/// Prints `what` with the input's text (when it is text) and aborts: the
/// fuzzer records the input as a crash.
[[noreturn]] void report(const llvm::Twine &what, llvm::StringRef input,
                         llvm::StringRef detail = "");

} // namespace hidet::fuzz

#endif // HIDET_TOOLS_FUZZERS_FUZZERCONTEXT_H
