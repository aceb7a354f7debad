//===- Weights.h - External weights files -----------------------*- C++ -*-===//
//
// Part of the Hidet-MLIR project.
//
//===----------------------------------------------------------------------===//
//
// The weights of a compiled model are inputs of its entry function that the
// manifest marks `weight <name>` (Manifest.h). A runner (the model runtime
// of hidet/Model.h) loads their values once, uploads them and passes them
// with every call. The values come from a weights file: the one a model
// imported with `--external-weights FILE` names in its manifest
// (`weights FILE`), or the image that hidet-compile puts in the library
// (HIDET_WEIGHTS_SYMBOL) for the constants it turned into weights.
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
// A library that keeps the values of its weight inputs inside exports them
// as a weights image under this symbol: the bytes of a weights file,
// aligned to HIDET_WEIGHTS_ALIGN (the symbol's address is the image's
// first byte, as for HIDET_MANIFEST_SYMBOL).
#define HIDET_WEIGHTS_SYMBOL "hidet_weights"

#endif // HIDET_WEIGHTS_H
