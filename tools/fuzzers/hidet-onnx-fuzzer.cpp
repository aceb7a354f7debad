//===- hidet-onnx-fuzzer.cpp - ONNX files through the importer -----------===//
//
// Part of the Hidet-MLIR project.
//
//===----------------------------------------------------------------------===//
//
// The input is an ONNX file (a binary ModelProto; seeds from the
// conformance suite and the project's model tests). The importer must
// either produce a module that verifies or report an error: a crash, an
// uncaught exception (which terminates the process), a failure without an
// error or an invalid module is a finding. The bytes go through a file, as
// they do for a user.
//
//===----------------------------------------------------------------------===//

#include "FuzzerContext.h"

#include "Hidet/Import/OnnxImporter.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Verifier.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FileUtilities.h"
#include "llvm/Support/Signals.h"
#include "llvm/Support/raw_ostream.h"

#include <cstddef>
#include <cstdint>
#include <string>

using namespace mlir;

/// The file each input is written to, removed when the process exits.
static const std::string &inputPath() {
  static std::string path = [] {
    llvm::SmallString<128> p;
    if (llvm::sys::fs::createTemporaryFile("hidet-onnx-fuzz", "onnx", p))
      hidet::fuzz::report("cannot create a temporary file", "");
    llvm::sys::RemoveFileOnSignal(p);
    static llvm::FileRemover remover(p);
    return std::string(p);
  }();
  return path;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  MLIRContext &ctx = hidet::fuzz::context();
  {
    std::error_code ec;
    llvm::raw_fd_ostream os(inputPath(), ec);
    if (ec)
      hidet::fuzz::report("cannot write " + inputPath(), "");
    os.write(reinterpret_cast<const char *>(data), size);
  }
  hidet::onnx_import::ImportOptions options;
  // Keeps large constants from turning each input into seconds of folding.
  options.foldLimit = 1 << 12;
  OwningOpRef<ModuleOp> module =
      hidet::onnx_import::importOnnxFile(inputPath(), &ctx, options);
  unsigned errors = hidet::fuzz::takeErrorCount();
  if (!module) {
    if (errors == 0)
      hidet::fuzz::report("the import failed without an error", "");
    return 0;
  }
  if (failed(verify(*module)))
    hidet::fuzz::report("the imported module does not verify", "");
  return 0;
}
