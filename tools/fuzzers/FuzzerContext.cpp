//===- FuzzerContext.cpp - What the fuzz targets share --------------------===//
//
// Part of the Hidet-MLIR project.
//
//===----------------------------------------------------------------------===//

#include "FuzzerContext.h"

#include "Hidet/Dialect/Hidet/IR/Hidet.h"
#include "Hidet/Dialect/TaskMapping/IR/TaskMapping.h"
#include "Hidet/InitAllDialects.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/DialectRegistry.h"
#include "mlir/InitAllDialects.h"
#include "mlir/InitAllExtensions.h"
#include "mlir/InitAllPasses.h"
#include "llvm/Support/raw_ostream.h"

#include <cstdlib>

using namespace mlir;

static unsigned errorCount = 0;

static MLIRContext *makeContext(hidet::fuzz::Dialects dialects) {
  DialectRegistry registry;
  if (dialects == hidet::fuzz::Dialects::All) {
    registerAllPasses();
    hidet::registerHidetPasses();
    registerAllDialects(registry);
    registerAllExtensions(registry);
    hidet::registerHidetDialects(registry);
  } else {
    // Not registerHidetDialects: it registers the upstream dialects the
    // passes create (linalg, gpu, vector, ...) too.
    registry.insert<hidet::tm::TaskMappingDialect, hidet::HidetDialect,
                    arith::ArithDialect, func::FuncDialect,
                    memref::MemRefDialect, scf::SCFDialect>();
  }
  auto *c = new MLIRContext(registry, MLIRContext::Threading::DISABLED);
  // The lit tests of attributes use ops of no dialect ("test.op").
  c->allowUnregisteredDialects();
  c->loadAllAvailableDialects();
  // Diagnostics are the expected outcome of most inputs: counted, not
  // printed.
  c->getDiagEngine().registerHandler([](Diagnostic &d) {
    if (d.getSeverity() == DiagnosticSeverity::Error)
      ++errorCount;
    return success();
  });
  return c;
}

MLIRContext &hidet::fuzz::context(Dialects dialects) {
  static MLIRContext *ctx = makeContext(dialects);
  return *ctx;
}

unsigned hidet::fuzz::takeErrorCount() {
  unsigned n = errorCount;
  errorCount = 0;
  return n;
}

void hidet::fuzz::report(const llvm::Twine &what, llvm::StringRef input,
                         llvm::StringRef detail) {
  llvm::errs() << "hidet fuzz finding: " << what << "\n";
  if (!input.empty())
    llvm::errs() << "--- input ---\n" << input << "\n";
  if (!detail.empty())
    llvm::errs() << "--- detail ---\n" << detail << "\n";
  llvm::errs().flush();
  std::abort();
}
