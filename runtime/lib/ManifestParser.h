//===- ManifestParser.h - Parser for hidet_manifest text --------*- C++ -*-===//
//
// Part of the Hidet-MLIR project.
//
//===----------------------------------------------------------------------===//
//
// Reads the manifest that compiled libraries export (the format is defined
// in runtime/include/hidet/Manifest.h) into function signatures.
//
//===----------------------------------------------------------------------===//

#ifndef HIDET_RUN_MANIFESTPARSER_H
#define HIDET_RUN_MANIFESTPARSER_H

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace hidet::run {

enum class DType { F32, F16, BF16, F64, I32, I64, I8, I1 };

/// Where a library's buffers live: host memory or CUDA device memory.
enum class Target { Cpu, Gpu };

/// The manifest spelling ("cpu" or "gpu").
const char *getTargetName(Target target);

/// The manifest spelling ("f32", ...).
const char *getDTypeName(DType dtype);
/// Bytes per element in a memref buffer.
size_t getDTypeSize(DType dtype);
bool isFloatDType(DType dtype);

struct ArgSpec {
  bool isOutput = false;
  /// The tensor's name for an input or output that has one (the optional
  /// last token of `arg <i> in|out <dtype> <shape> <name>`), else empty.
  std::string name;
  /// For an input that holds a weight of an external weights file: its name
  /// there (`arg <i> weight <dtype> <shape> <name>`); empty otherwise.
  std::string weight;
  DType dtype = DType::F32;
  std::vector<int64_t> shape; // Empty for rank 0.

  int64_t getNumElements() const;
  size_t getSizeBytes() const;
  /// "f32 4x8" or "f32 scalar".
  std::string str() const;
  bool operator==(const ArgSpec &other) const;
};

/// A `check <input> <extent> [<node>]` statement: a status the function
/// writes, one more argument after its outputs.
struct CheckSpec {
  /// The index of the `in` arg whose elements the status's positions are,
  /// or -1 when they are positions of the reading op's iterations.
  int64_t input = -1;
  /// The extent of the dimension the checked index reads, or -1.
  int64_t extent = -1;
  /// The op that reads (an ONNX node's name), or empty.
  std::string node;
};

struct FuncSpec {
  std::string name;
  unsigned numInputs = 0;
  unsigned numOutputs = 0;
  std::vector<ArgSpec> args; // Inputs, then outputs.
  /// The statuses the function writes after its outputs (and before the
  /// workspace), which the caller allocates.
  std::vector<CheckSpec> checks;
  /// The `workspace <bytes> <intermediates>` statement: the function takes
  /// one more argument, after its outputs, a 1-D i8 device buffer of at
  /// least `workspaceBytes` bytes for its temporaries. Absent when 0.
  uint64_t workspaceBytes = 0;
  /// What the temporaries in the workspace would take apart (information).
  uint64_t intermediateBytes = 0;
  bool hasWorkspace = false;

  /// The inputs that are not weights, then the outputs: what a caller
  /// passes.
  std::vector<ArgSpec> getVisibleArgs() const;
  /// "(f32 4x8, f32 4x8) -> (f32 4x8)", weights left out.
  std::string signature() const;
};

struct Manifest {
  /// The `target` statement; absent in manifests without one.
  std::optional<Target> target;
  /// The `weights <file>` statement: the weights file of the weight inputs,
  /// relative to the library's directory unless absolute. Empty if none.
  std::string weightsFile;
  std::vector<FuncSpec> funcs;

  const FuncSpec *lookup(std::string_view name) const;
};

/// Tokens shared by the manifest and the weights file (Weights.h): a line's
/// space- or tab-separated tokens, a decimal integer in [min, max] (digits
/// only), a dtype name, and a shape (`scalar` or extents like 128x64).
std::vector<std::string_view> splitTokens(std::string_view line);
bool parseInt(std::string_view token, int64_t min, int64_t max, int64_t &value);
bool parseDType(std::string_view token, DType &dtype);
bool parseShape(std::string_view token, std::vector<int64_t> &shape);

/// Parses manifest text. On failure returns false and sets `error` to a
/// message naming the line and what was expected there.
bool parseManifest(std::string_view text, Manifest &manifest,
                   std::string &error);

} // namespace hidet::run

#endif // HIDET_RUN_MANIFESTPARSER_H
