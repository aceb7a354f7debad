//===- Npy.h - NumPy .npy files for hidet-run -------------------*- C++ -*-===//
//
// Part of the Hidet-MLIR project.
//
//===----------------------------------------------------------------------===//
//
// The NumPy array file format (numpy.lib.format): a magic string, a version,
// a header that is a Python dict literal ({'descr': '<f4', 'fortran_order':
// False, 'shape': (3, 4), }) padded with spaces and a newline, then the
// elements.
//
// Element types, as NumPy spells them: '<f4' f32, '<f2' f16, '<f8' f64,
// '<i4' i32, '<i8' i64, '|i1' i8, '|b1' i1, and '<V2' (or '|V2') bf16:
// NumPy has no bfloat16, and ml_dtypes' bfloat16 arrays save as 2-byte void.
// Data is little-endian and in C order.
//
//===----------------------------------------------------------------------===//

#ifndef HIDET_RUN_NPY_H
#define HIDET_RUN_NPY_H

#include "Tensor.h"

#include <cstddef>
#include <string>

namespace hidet::run {

/// Decodes a .npy file of format version 1, 2 or 3 held in `bytes`. On
/// failure returns false with `error` saying what is wrong.
bool decodeNpy(const unsigned char *bytes, size_t size, Tensor &tensor,
               std::string &error);

/// The magic, version and header of a .npy file holding elements of `dtype`
/// in `shape`, padded so that the data starts at a multiple of 64 bytes.
/// Version 1 unless the header needs the longer length field of version 2.
std::string encodeNpyHeader(DType dtype, const std::vector<int64_t> &shape);

} // namespace hidet::run

#endif // HIDET_RUN_NPY_H
