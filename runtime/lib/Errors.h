//===- Errors.h - The runtime's recorded error ------------------*- C++ -*-===//
//
// Part of the Hidet-MLIR project.
//
//===----------------------------------------------------------------------===//
//
// The one error the runtime records between two hidetRuntimeClearError
// calls (hidetRuntimeLastError reads it). Plain C++ without the CUDA driver,
// so that the model API builds where cuda.h is absent (NoCuda.cpp).
//
//===----------------------------------------------------------------------===//

#ifndef HIDET_RUNTIME_LIB_ERRORS_H
#define HIDET_RUNTIME_LIB_ERRORS_H

namespace hidet::runtime {

/// Records (and prints, unless printing is off) an error; the first one
/// since the last hidetRuntimeClearError is kept.
__attribute__((format(printf, 2, 3))) void recordError(int code,
                                                       const char *format, ...);

/// Why a runtime built without cuda.h (NoCuda.cpp) fails every call that
/// needs a GPU.
constexpr const char *kNoCudaReason =
    "this libhidet_runtime was built without CUDA (no cuda.h at build time) "
    "and runs CPU libraries only";

} // namespace hidet::runtime

#endif // HIDET_RUNTIME_LIB_ERRORS_H
