//===- Weights.h - External weights files -----------------------*- C++ -*-===//
//
// Part of the Hidet-MLIR project.
//
//===----------------------------------------------------------------------===//
//
// A model imported with `--external-weights FILE` keeps its weights out of
// the compiled library: each becomes an input of the entry function that
// the manifest marks `weight <name>` (Manifest.h), and FILE holds their
// values, which a runner loads once (hidet-run --weights=FILE) and passes
// with every call.
//
// Format: a text header, then the data.
//
//   hidet-weights 1
//   weight <name> <dtype> <shape> <offset> <bytes>
//   ...
//   end
//
// - The first line is the header; the version is 1. Each `weight` line
//   describes one tensor; `end` closes the header. Lines end with `\n`.
// - <name> is the weight's name in the manifest (letters, digits, `_` and
//   `.`), unique in the file. <dtype> and <shape> are written as in the
//   manifest (`f16`, `768x3072`, `scalar`).
// - The data section starts at the first multiple of HIDET_WEIGHTS_ALIGN
//   bytes at or after the end of the header; <offset> is a tensor's first
//   byte relative to that start (a multiple of HIDET_WEIGHTS_ALIGN) and
//   <bytes> its size, elements row-major in the manifest's in-memory
//   encoding of the dtype.
//
//===----------------------------------------------------------------------===//

#ifndef HIDET_WEIGHTS_H
#define HIDET_WEIGHTS_H

// The first token of the header line, and the one version defined.
#define HIDET_WEIGHTS_MAGIC "hidet-weights"
#define HIDET_WEIGHTS_VERSION 1
// Alignment of the data section and of every tensor in it, in bytes.
#define HIDET_WEIGHTS_ALIGN 64

#endif // HIDET_WEIGHTS_H
