//===- Library.h - A compiled module as a native shared library -*- C++ -*-===//
//
// Part of the Hidet-MLIR project.
//
//===----------------------------------------------------------------------===//
//
// The last steps of hidet-compile: the manifest, packed entry points and
// weights added to the LLVM module, its object file, and the link.
//
//===----------------------------------------------------------------------===//

#ifndef HIDET_TOOLS_HIDET_COMPILE_LIBRARY_H
#define HIDET_TOOLS_HIDET_COMPILE_LIBRARY_H

#include "llvm/ADT/StringRef.h"
#include "llvm/IR/Module.h"
#include "llvm/Support/Error.h"

namespace hidet::compile {

/// Adds `hidet_manifest` as an exported NUL-terminated string, the packed
/// entry point of each function it declares, and the weights image
/// `hidet_weights` when there is one.
void addManifest(llvm::Module &module, llvm::StringRef manifest,
                 llvm::StringRef weightsImage);

/// Writes `module` as an object file of the host at `path`; errors name the
/// file `shownAs` (the output that `path` is a temporary of).
llvm::Error emitObject(llvm::Module &module, llvm::StringRef path,
                       llvm::StringRef shownAs);

/// Links `object` into the shared library `output` with the compiler driver
/// `linker` (empty: `cc`, else the build's fallback clang); a GPU library against libhidet_runtime in `runtimeDir` (empty:
/// no runtime, a CPU library or one linked later).
llvm::Error linkSharedLibrary(llvm::StringRef object, llvm::StringRef output,
                              llvm::StringRef linker,
                              llvm::StringRef runtimeDir);

} // namespace hidet::compile

#endif // HIDET_TOOLS_HIDET_COMPILE_LIBRARY_H
