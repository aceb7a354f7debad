//===- Specs.h - Argument specs for hidet-run's unit tests ------*- C++ -*-===//
//
// Part of the Hidet-MLIR project.
//
//===----------------------------------------------------------------------===//

#ifndef HIDET_UNITTESTS_RUN_SPECS_H
#define HIDET_UNITTESTS_RUN_SPECS_H

#include "Data.h"

namespace hidet {
namespace run {

/// A 1-D argument of `count` elements of `dtype`.
inline ArgSpec vectorSpec(DType dtype, int64_t count) {
  ArgSpec arg;
  arg.dtype = dtype;
  arg.shape = {count};
  return arg;
}

} // namespace run
} // namespace hidet

#endif // HIDET_UNITTESTS_RUN_SPECS_H
