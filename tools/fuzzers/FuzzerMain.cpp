//===- FuzzerMain.cpp - A fuzz target as a plain tool ---------------------===//
//
// Part of the Hidet-MLIR project.
//
//===----------------------------------------------------------------------===//
//
// Outside a libFuzzer build (HIDET_ENABLE_FUZZING off) each fuzz target is a
// tool that runs its target once on each file it is given, through LLVM's
// FuzzerCLI; the lit tests replay the committed inputs with it.
//
//===----------------------------------------------------------------------===//

#include "llvm/FuzzMutate/FuzzerCLI.h"

#include <cstddef>
#include <cstdint>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int main(int argc, char **argv) {
  return llvm::runFuzzerOnInputs(argc, argv, LLVMFuzzerTestOneInput);
}
