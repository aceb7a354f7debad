//===- Manifest.h - Self-description of compiled libraries ------*- C++ -*-===//
//
// Part of the Hidet-MLIR project.
//
//===----------------------------------------------------------------------===//
//
// An ahead-of-time compiled library (the GPU build, or the CPU reference
// build of the same program) describes its entry points with a manifest, so
// that a runner can call it without headers or MLIR: it exports
//
//   extern "C" const char hidet_manifest[] = "hidet-manifest 1\n...";
//
// The symbol is the character array itself (what `llvm.mlir.global constant
// @hidet_manifest("...\00")` produces), not a pointer to a string: the address
// dlsym returns is the first character. The text is NUL-terminated ASCII.
//
// Format, one statement per line:
//
//   hidet-manifest 1
//   target cpu|gpu
//   weights <file>
//   func <name> <num_inputs> <num_outputs>
//   workspace <bytes> <intermediate-bytes>
//   arg <index> in|out <dtype> <shape> [<tensor-name>]
//   arg <index> weight <dtype> <shape> <weight-name>
//   check <input>|- <extent>|- [<node>]
//
// - The first statement is the header; the version is 1.
// - `target` says where the library's buffers live: `cpu` (host memory) or
//   `gpu` (CUDA device memory). It is optional, at most once, and comes
//   before the first `func`. A runner that finds none goes by what its user
//   says the library is (hidet-run: the library it runs is a GPU build, its
//   --ref a CPU build unless --ref-gpu).
// - Each `func` opens a block that is followed by exactly
//   num_inputs + num_outputs `arg` statements with indices 0, 1, ... in order;
//   indices below num_inputs are `in` (or `weight`), the others `out`. A
//   `weight` input holds a tensor of a weights image (Weights.h), named
//   <weight-name> there, which a runner reads once and passes with every
//   call. A manifest has at least one `func`, and names are unique. A func
//   without outputs can be run and timed but not checked.
// - `weights` (optional, at most once, before the first `func`) names the
//   weights file of the library's `weight` args: a path relative to the
//   library's directory unless it starts with `/`. Without it, the weights
//   are the image the library exports as `hidet_weights` (Weights.h).
// - `workspace` (optional, once in a `func` block) says that the function
//   takes one more argument after the last `arg`: a 1-D i8 buffer of
//   <bytes> bytes (aligned as cuMemAlloc aligns) holding its temporaries, the
//   caller's to allocate once and pass with every call. The function needs
//   no allocation of its own then. <intermediate-bytes> is what those
//   temporaries would take without sharing (hidet-plan-device-memory).
// - `check` (optional, any number in a `func` block, after all its `arg`
//   statements) says that the function takes one more argument after its
//   outputs (and before the workspace's), one per `check` in order: a
//   rank-0 i64 buffer into which each run writes the status of a run-time
//   check of indices that come from data (hidet-check-indices): 0 when every
//   index was in range, else ~p (-1 - p) for the row-major position p of the
//   first that was not. <input> is the index of the `in` arg whose elements those
//   positions are (the index tensor was that input, seen through reshapes
//   and casts), or `-` when they are positions of the reading op's
//   iterations; <extent> is the extent of the dimension the index reads,
//   or `-` when the check covers several or it is not known; <node>
//   (optional, a token like <tensor-name>) names the op that reads, an ONNX
//   node. The runner allocates these buffers and reports a non-zero status
//   as an error (hidet/Model.h).
// - <tensor-name> (optional, on `in` and `out`) is the tensor's name in the
//   model (an ONNX graph input or output), a token of letters, digits, `_`
//   and `.`.
// - <name> is a C identifier; the entry points are `_mlir_ciface_<name>` and
//   `_hidet_packed_<name>` (below).
// - <dtype> is one of f32 f16 bf16 f64 i32 i64 i8 i1. In memory: IEEE binary32,
//   binary16, bfloat16 (upper half of a binary32), binary64, two's complement
//   integers, and one byte holding 0 or 1 for i1.
// - <shape> is `scalar` for rank 0, else positive decimal extents joined by
//   `x`, outermost first: `128x64`.
// - Tokens are separated by spaces or tabs; lines end with `\n` (a `\r`
//   before it is ignored); blank lines and lines starting with `#` are ignored.
//
// Calling convention. `_mlir_ciface_<name>` returns void and takes one
// pointer per arg, in manifest order, to a ranked memref descriptor
//
//   struct { T *allocated; T *aligned; int64_t offset;
//            int64_t sizes[rank]; int64_t strides[rank]; }
//
// describing a row-major contiguous buffer (offset 0, strides[rank-1] = 1),
// then one per `check` to its status's (rank 0, i64), then, with
// `workspace`, one more to the workspace's (rank 1).
// The function reads the `in` buffers and writes every element of the `out`
// buffers (destination-passing style). In a GPU library the pointers are
// device pointers and the function may return before the GPU finishes
// unless it synchronizes; in a CPU library they are host pointers.
//
// Packed entry point. `void _hidet_packed_<name>(void **args)` calls
// `_mlir_ciface_<name>(args[0], args[1], ...)`, args[i] being the pointer to
// the descriptor of arg i. A runner calls it through the one type
// `void (*)(void **)` whatever the number of args, where calling
// `_mlir_ciface_<name>` from C needs a function type of that arity.
//
// Example: an elementwise add of two 4x8 f32 matrices, built for the GPU.
//
//   hidet-manifest 1
//   target gpu
//   func add 2 1
//   arg 0 in f32 4x8
//   arg 1 in f32 4x8
//   arg 2 out f32 4x8
//
//===----------------------------------------------------------------------===//

#ifndef HIDET_MANIFEST_H
#define HIDET_MANIFEST_H

// The exported symbol holding the manifest text.
#define HIDET_MANIFEST_SYMBOL "hidet_manifest"
// The first token of the header statement, and the one version defined.
#define HIDET_MANIFEST_MAGIC "hidet-manifest"
#define HIDET_MANIFEST_VERSION 1
// Entry points of func <name>: HIDET_MANIFEST_ENTRY_PREFIX "<name>", and
// HIDET_MANIFEST_PACKED_PREFIX "<name>" taking `void **`.
#define HIDET_MANIFEST_ENTRY_PREFIX "_mlir_ciface_"
#define HIDET_MANIFEST_PACKED_PREFIX "_hidet_packed_"

#endif // HIDET_MANIFEST_H
