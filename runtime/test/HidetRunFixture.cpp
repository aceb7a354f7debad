//===- HidetRunFixture.cpp - Hand-written libraries for hidet-run ---------===//
//
// Part of the Hidet-MLIR project.
//
//===----------------------------------------------------------------------===//
//
// Shared libraries in the shape hidet-compile produces (a hidet_manifest and
// _mlir_ciface_ entry points), written by hand so that hidet-run can be
// tested without MLIR, a GPU compiler or, for most variants, a GPU. One
// source, one variant per HIDET_FIXTURE_* macro:
//
//   CPU           the reference: host pointers, computes on the host. Given
//                 as the GPU library it only serves where there is no device
//                 (hidet-run exits 3 before calling it); on a GPU machine it
//                 would read device pointers on the host and crash.
//   GPU           device pointers: stages data through the runtime's
//                 mgpuMemcpy on an mgpuStreamCreate stream, computes on the
//                 host. Agrees with CPU, so hidet-run passes on a GPU machine.
//   GPU_WRONG     as GPU, but add is off by 1e-3: a mismatch (exit 1).
//   GPU_PARTIAL   as GPU, but leaves the last element of each output
//                 unwritten: the poison shows up as NaN (exit 1).
//   BAD_VERSION, BAD_DTYPE, BAD_COUNT, BAD_ORDER, BAD_SHAPE
//                 malformed manifests (exit 2).
//   NO_MANIFEST   no hidet_manifest symbol (exit 2).
//   NO_ENTRY      the manifest lists a function the library lacks (exit 2).
//   MISMATCH      add takes 4x9 matrices: a signature mismatch (exit 2).
//
// Functions: add (f32 4x8 + f32 4x8 -> f32 4x8) and neg (bf16 16 -> bf16 16,
// a sign flip, exact).
//
//===----------------------------------------------------------------------===//

#include <cstdint>
#include <cstring>
#include <vector>

#if defined(HIDET_FIXTURE_GPU) || defined(HIDET_FIXTURE_GPU_WRONG) ||          \
    defined(HIDET_FIXTURE_GPU_PARTIAL)
#define HIDET_FIXTURE_ON_GPU 1
#include "hidet/Runtime.h"
#else
#define HIDET_FIXTURE_ON_GPU 0
#endif

#define EXPORT extern "C" __attribute__((visibility("default")))

namespace {

template <typename T, int Rank> struct MemRef {
  T *allocated;
  T *aligned;
  int64_t offset;
  int64_t sizes[Rank];
  int64_t strides[Rank];
};

template <typename T, int Rank> int64_t numElements(const MemRef<T, Rank> &m) {
  int64_t count = 1;
  for (int i = 0; i < Rank; ++i)
    count *= m.sizes[i];
  return count;
}

/// The elements of `m` on the host: a copy out of device memory for the
/// GPU variants, the buffer itself for the CPU one.
template <typename T, int Rank>
std::vector<T> load(const MemRef<T, Rank> &m, void *stream) {
  std::vector<T> values(numElements(m));
#if HIDET_FIXTURE_ON_GPU
  mgpuMemcpy(values.data(), m.aligned + m.offset, values.size() * sizeof(T),
             static_cast<hidetStream_t>(stream));
  mgpuStreamSynchronize(static_cast<hidetStream_t>(stream));
#else
  (void)stream;
  std::memcpy(values.data(), m.aligned + m.offset, values.size() * sizeof(T));
#endif
  return values;
}

template <typename T, int Rank>
void storeResult(const MemRef<T, Rank> &m, const std::vector<T> &values,
                 void *stream) {
  size_t count = values.size();
#ifdef HIDET_FIXTURE_GPU_PARTIAL
  --count;
#endif
#if HIDET_FIXTURE_ON_GPU
  mgpuMemcpy(m.aligned + m.offset, const_cast<T *>(values.data()),
             count * sizeof(T), static_cast<hidetStream_t>(stream));
  mgpuStreamSynchronize(static_cast<hidetStream_t>(stream));
#else
  (void)stream;
  std::memcpy(m.aligned + m.offset, values.data(), count * sizeof(T));
#endif
}

void *openStream() {
#if HIDET_FIXTURE_ON_GPU
  return mgpuStreamCreate();
#else
  return nullptr;
#endif
}

void closeStream(void *stream) {
#if HIDET_FIXTURE_ON_GPU
  mgpuStreamDestroy(static_cast<hidetStream_t>(stream));
#else
  (void)stream;
#endif
}

} // namespace

//===----------------------------------------------------------------------===//
// Manifests
//===----------------------------------------------------------------------===//

#if defined(HIDET_FIXTURE_BAD_VERSION)
EXPORT const char hidet_manifest[] = "hidet-manifest 2\n"
                                     "func add 2 1\n";
#elif defined(HIDET_FIXTURE_BAD_DTYPE)
EXPORT const char hidet_manifest[] = "hidet-manifest 1\n"
                                     "func add 2 1\n"
                                     "arg 0 in f32 4x8\n"
                                     "arg 1 in f31 4x8\n"
                                     "arg 2 out f32 4x8\n";
#elif defined(HIDET_FIXTURE_BAD_COUNT)
EXPORT const char hidet_manifest[] = "hidet-manifest 1\n"
                                     "func add 2 1\n"
                                     "arg 0 in f32 4x8\n"
                                     "arg 1 in f32 4x8\n";
#elif defined(HIDET_FIXTURE_BAD_ORDER)
EXPORT const char hidet_manifest[] = "hidet-manifest 1\n"
                                     "func add 2 1\n"
                                     "arg 0 out f32 4x8\n"
                                     "arg 1 in f32 4x8\n"
                                     "arg 2 in f32 4x8\n";
#elif defined(HIDET_FIXTURE_BAD_SHAPE)
EXPORT const char hidet_manifest[] = "hidet-manifest 1\n"
                                     "func add 2 1\n"
                                     "arg 0 in f32 4x0\n"
                                     "arg 1 in f32 4x8\n"
                                     "arg 2 out f32 4x8\n";
#elif defined(HIDET_FIXTURE_MISMATCH)
EXPORT const char hidet_manifest[] = "hidet-manifest 1\n"
                                     "func add 2 1\n"
                                     "arg 0 in f32 4x9\n"
                                     "arg 1 in f32 4x9\n"
                                     "arg 2 out f32 4x9\n";
#elif !defined(HIDET_FIXTURE_NO_MANIFEST)
EXPORT const char hidet_manifest[] = "hidet-manifest 1\n"
                                     "# Written by hand: runtime/test.\n"
                                     "func add 2 1\n"
                                     "arg 0 in f32 4x8\n"
                                     "arg 1 in f32 4x8\n"
                                     "arg 2 out f32 4x8\n"
                                     "\n"
                                     "func neg 1 1\n"
                                     "arg 0 in bf16 16\n"
                                     "arg 1 out bf16 16\n";
#endif

//===----------------------------------------------------------------------===//
// Entry points
//===----------------------------------------------------------------------===//

#ifndef HIDET_FIXTURE_NO_ENTRY
EXPORT void _mlir_ciface_add(MemRef<float, 2> *a, MemRef<float, 2> *b,
                             MemRef<float, 2> *c) {
  void *stream = openStream();
  std::vector<float> x = load(*a, stream), y = load(*b, stream);
  for (size_t i = 0; i < x.size(); ++i) {
    x[i] += y[i];
#ifdef HIDET_FIXTURE_GPU_WRONG
    x[i] += 1e-3f;
#endif
  }
  storeResult(*c, x, stream);
  closeStream(stream);
}
#endif

EXPORT void _mlir_ciface_neg(MemRef<uint16_t, 1> *a, MemRef<uint16_t, 1> *b) {
  void *stream = openStream();
  std::vector<uint16_t> x = load(*a, stream);
  for (uint16_t &value : x)
    value ^= 0x8000;
  storeResult(*b, x, stream);
  closeStream(stream);
}
