//===- hidet-mlir-fuzzer.cpp - Parse, verify, print, reparse --------------===//
//
// Part of the Hidet-MLIR project.
//
//===----------------------------------------------------------------------===//
//
// The input is MLIR text, parsed with the project's dialects and the
// upstream ones their tests use (func, arith, memref, scf; ops of other
// dialects are rejected). Text that parses and verifies must print, in the
// custom and in the generic form, to text that parses and verifies again
// and prints the same: the project's attributes (task mappings, schedules,
// fusion groups, targets) and ops round-trip. Text that does not parse
// must be rejected with a diagnostic, never a crash.
//
//===----------------------------------------------------------------------===//

#include "FuzzerContext.h"

#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/OperationSupport.h"
#include "mlir/IR/Verifier.h"
#include "mlir/Parser/Parser.h"
#include "llvm/Support/raw_ostream.h"

#include <cstddef>
#include <cstdint>
#include <string>

using namespace mlir;

static std::string print(Operation *op, bool generic) {
  std::string text;
  llvm::raw_string_ostream os(text);
  OpPrintingFlags flags;
  if (generic)
    flags.printGenericOpForm();
  op->print(os, flags);
  return text;
}

/// Parses `text` (which the printer made) and prints it again; a finding
/// when it does not parse or verify, or prints differently.
static void reparse(StringRef input, const std::string &text, bool generic) {
  MLIRContext &ctx = hidet::fuzz::context(hidet::fuzz::Dialects::Project);
  OwningOpRef<Operation *> again = parseSourceString(text, &ctx);
  if (!again)
    hidet::fuzz::report(Twine("the printed ") +
                            (generic ? "generic" : "custom") +
                            " form does not parse",
                        input, text);
  // Resource blobs live in the context, whose keys a reparse in the same
  // context renames ("w" becomes "w_1"): text that names one is only
  // reparsed.
  if (StringRef(text).contains("dense_resource<"))
    return;
  std::string twice = print(again.get(), generic);
  if (twice != text)
    hidet::fuzz::report(Twine("printing the reparsed ") +
                            (generic ? "generic" : "custom") +
                            " form gives other text",
                        input, text + "\n--- reprinted ---\n" + twice);
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  MLIRContext &ctx = hidet::fuzz::context(hidet::fuzz::Dialects::Project);
  // MLIR's lexer reads up to a terminating NUL, which files read by the
  // tools have and libFuzzer's bytes do not: the input is copied into a
  // string, which has one.
  std::string text(reinterpret_cast<const char *>(data), size);
  StringRef input(text);
  OwningOpRef<Operation *> op = parseSourceString(input, &ctx);
  unsigned errors = hidet::fuzz::takeErrorCount();
  if (!op) {
    if (errors == 0)
      hidet::fuzz::report("rejected without an error", input);
    return 0;
  }
  // Attributes and types of unregistered dialects are upstream's opaque
  // ones, whose pretty form does not always parse back
  // (`#d<a<[1]> * b>` prints as `#d.a<[1]> * b`; docs/Fuzzing.md): such
  // text is not round-tripped. Ops of no dialect ("test.op") are.
  bool opaque = false;
  auto attrCheck = [&](Attribute a) { opaque |= isa<OpaqueAttr>(a); };
  auto typeCheck = [&](Type t) { opaque |= isa<OpaqueType>(t); };
  op->walk([&](Operation *inner) {
    for (NamedAttribute attr : inner->getAttrs())
      attr.getValue().walk(attrCheck, typeCheck);
    if (Attribute properties = inner->getPropertiesAsAttribute())
      properties.walk(attrCheck, typeCheck);
    for (Type t : inner->getResultTypes())
      t.walk(attrCheck, typeCheck);
    for (Type t : inner->getOperandTypes())
      t.walk(attrCheck, typeCheck);
  });
  if (opaque)
    return 0;
  for (bool generic : {false, true})
    reparse(input, print(op.get(), generic), generic);
  if (hidet::fuzz::takeErrorCount() != 0)
    hidet::fuzz::report("a round trip reported an error", input);
  return 0;
}
