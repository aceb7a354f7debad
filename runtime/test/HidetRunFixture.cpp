//===- HidetRunFixture.cpp - Hand-written libraries for hidet-run ---------===//
//
// Part of the Hidet-MLIR project.
//
//===----------------------------------------------------------------------===//
//
// Shared libraries in the shape hidet-compile produces (a hidet_manifest,
// _mlir_ciface_ and _hidet_packed_ entry points), written by hand so that
// hidet-run can be tested without MLIR, a GPU compiler or, for most variants, a
// GPU. One source, one variant per HIDET_FIXTURE_* macro:
//
//   CPU           the reference: host pointers, computes on the host; its
//                 manifest says `target cpu`, so hidet-run runs it anywhere.
//   GPU           device pointers: stages data through the runtime's
//                 mgpuMemcpy on an mgpuStreamCreate stream, computes on the
//                 host. Agrees with CPU, so hidet-run passes on a GPU machine.
//   GPU_WRONG     as GPU, but add is off by 1e-3: a mismatch (exit 1). Its
//                 manifest names no target, which hidet-run takes for a GPU
//                 build.
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
#if defined(HIDET_FIXTURE_CPU)
#define HIDET_FIXTURE_TARGET "target cpu\n"
#elif HIDET_FIXTURE_ON_GPU && !defined(HIDET_FIXTURE_GPU_WRONG)
#define HIDET_FIXTURE_TARGET "target gpu\n"
#else
// No target: hidet-run takes the library it runs for a GPU build.
#define HIDET_FIXTURE_TARGET ""
#endif
EXPORT const char hidet_manifest[] = "hidet-manifest 1\n" HIDET_FIXTURE_TARGET
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

// The packed entry points that hidet-compile generates in LLVM IR.
EXPORT void _hidet_packed_add(void **args) {
  _mlir_ciface_add(static_cast<MemRef<float, 2> *>(args[0]),
                   static_cast<MemRef<float, 2> *>(args[1]),
                   static_cast<MemRef<float, 2> *>(args[2]));
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

EXPORT void _hidet_packed_neg(void **args) {
  _mlir_ciface_neg(static_cast<MemRef<uint16_t, 1> *>(args[0]),
                   static_cast<MemRef<uint16_t, 1> *>(args[1]));
}
