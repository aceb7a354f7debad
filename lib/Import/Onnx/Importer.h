//===- Importer.h - The graph importer and its per-node context -*- C++ -*-===//
//
// Part of the Hidet-MLIR project.
//
//===----------------------------------------------------------------------===//
//
// The importer walks the graph's nodes in order and hands each to the
// converter registered for its op type. A converter reads its inputs and
// attributes through a NodeContext and defines its outputs either as MLIR
// values or, when everything it reads is known at import, as HostTensors:
// that is how shape subgraphs fold away. Known tensors become MLIR
// constants only when a converted op uses them.
//
//===----------------------------------------------------------------------===//

#ifndef HIDET_LIB_IMPORT_ONNX_IMPORTER_H
#define HIDET_LIB_IMPORT_ONNX_IMPORTER_H

#include "HostTensor.h"

#include "Hidet/Import/OnnxImporter.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/Location.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/Support/MemoryBuffer.h"

#include <functional>
#include <optional>

namespace onnx {
class AttributeProto;
class ModelProto;
class NodeProto;
class TensorProto;
} // namespace onnx

namespace hidet::onnx_import {

/// A value of the graph: its ONNX element type and static shape, and its
/// MLIR value and/or its contents when known at import.
struct TensorValue {
  /// The graph's name of the value (names its weights' blobs).
  std::string name;
  DType dtype = DType::Undefined;
  llvm::SmallVector<int64_t> shape;
  mlir::Value value;
  std::optional<HostTensor> constant;

  int64_t rank() const { return static_cast<int64_t>(shape.size()); }
};

/// The bytes the GEMM templates load at once along a row (cp.async, TMA):
/// known operands whose rows are not a multiple of them are padded at
/// import, when the padding is at most 1 / kMaxPaddingFraction of a row.
constexpr unsigned kTemplatePieceBytes = 16;
constexpr int64_t kMaxPaddingFraction = 16;

class Importer;

/// What a converter sees of one node.
class NodeContext {
public:
  NodeContext(Importer &importer, const onnx::NodeProto &node,
              mlir::Location loc);

  mlir::OpBuilder &builder();
  mlir::Location getLoc() const { return loc; }
  mlir::MLIRContext *getContext();
  /// The version of the default ONNX domain the model imports.
  int64_t opset() const;
  const ImportOptions &options() const;
  llvm::StringRef opType() const;

  /// Inputs; an empty name in the node marks an omitted optional input.
  unsigned numInputs() const;
  bool hasInput(unsigned i) const;
  const TensorValue &input(unsigned i) const;
  /// The input as an MLIR value (known tensors become constants here).
  mlir::Value value(unsigned i);
  /// The input's contents when known at import, else null.
  const HostTensor *constant(unsigned i) const;
  /// Whether a result of `shape` computed from known inputs is small
  /// enough to fold at import.
  bool canFold(llvm::ArrayRef<int64_t> shape) const;
  /// Whether every present input is known at import.
  bool allInputsKnown() const;
  /// The input's contents, or null after an error naming the input when it
  /// is not known at import.
  const HostTensor *requireConstant(unsigned i);
  /// The input's contents as integers, with an error naming it when it is
  /// not known at import.
  mlir::FailureOr<llvm::SmallVector<int64_t>> constantInts(unsigned i);

  unsigned numOutputs() const;
  bool hasOutput(unsigned i) const;
  void setOutput(unsigned i, mlir::Value value, DType dtype);
  void setOutput(unsigned i, HostTensor constant);
  const std::string &outputName(unsigned i) const;
  /// The one node that reads output `i`, when exactly one node does and it
  /// is not a graph output; else null.
  const onnx::NodeProto *soleConsumer(unsigned i) const;
  /// Defines `consumer`'s output 0 as `value` and skips converting it: the
  /// node's converter has folded the consumer into its own result.
  void absorb(const onnx::NodeProto *consumer, mlir::Value value, DType dtype);

  /// Attributes.
  const onnx::AttributeProto *attr(llvm::StringRef name) const;
  bool hasAttr(llvm::StringRef name) const { return attr(name) != nullptr; }
  int64_t attrInt(llvm::StringRef name, int64_t defaultValue) const;
  float attrFloat(llvm::StringRef name, float defaultValue) const;
  std::string attrString(llvm::StringRef name,
                         llvm::StringRef defaultValue) const;
  llvm::SmallVector<int64_t> attrInts(llvm::StringRef name) const;
  llvm::SmallVector<float> attrFloats(llvm::StringRef name) const;
  /// A TENSOR attribute's contents.
  mlir::FailureOr<HostTensor> attrTensor(llvm::StringRef name);

  /// An error located at the node.
  mlir::InFlightDiagnostic emitError() const;
  /// Fails with "<op> <what> is not supported".
  mlir::LogicalResult unsupported(const llvm::Twine &what) const;

  Importer &getImporter() { return importer; }

private:
  Importer &importer;
  const onnx::NodeProto &node;
  mlir::Location loc;
};

using Converter = std::function<mlir::LogicalResult(NodeContext &)>;
using ConverterTable = llvm::StringMap<Converter>;

/// Each file of converters registers its op types.
void registerElementwiseConverters(ConverterTable &table);
void registerLinearConverters(ConverterTable &table);
void registerConvConverters(ConverterTable &table);
void registerPoolingConverters(ConverterTable &table);
void registerNormalizationConverters(ConverterTable &table);
void registerShapeConverters(ConverterTable &table);
void registerIndexingConverters(ConverterTable &table);
void registerMaskConverters(ConverterTable &table);
void registerEinsumConverters(ConverterTable &table);
void registerConvTransposeConverters(ConverterTable &table);
void registerResizeConverters(ConverterTable &table);
void registerDataConverters(ConverterTable &table);

class Importer {
public:
  Importer(mlir::MLIRContext *context, onnx::ModelProto &model,
           llvm::StringRef modelPath, const ImportOptions &options);

  /// Builds the module, or returns null after reporting errors.
  mlir::OwningOpRef<mlir::ModuleOp> run();

  /// The MLIR value of a graph value (a constant for known ones).
  mlir::Value materialize(TensorValue &value);
  mlir::Type elementType(DType dtype);
  mlir::RankedTensorType tensorType(const TensorValue &value);
  /// Reads a TensorProto (raw, typed fields or external data).
  mlir::FailureOr<HostTensor> readTensor(const onnx::TensorProto &tensor,
                                         mlir::Location loc);

  /// The type a value of `dtype` is computed in: float32 becomes f16 or
  /// bf16 under a 16-bit precision.
  DType computeType(DType dtype) const;
  /// `t` converted to its compute type (weights are converted once, here).
  HostTensor toComputeType(HostTensor t) const;

  TensorValue *lookup(const std::string &name);
  void define(const std::string &name, TensorValue value);
  /// Readers of each value (graph outputs count as a null reader).
  llvm::StringMap<llvm::SmallVector<const onnx::NodeProto *, 2>> readers;
  /// Nodes folded into an earlier node's converter.
  llvm::DenseSet<const onnx::NodeProto *> absorbed;

  mlir::OpBuilder builder;
  int64_t opset = 0;
  const ImportOptions &options;

  /// With options.externalWeights: the weights that became arguments of the
  /// function, in argument order.
  struct ExternalWeight {
    std::string name;
    llvm::StringRef dtype; // The manifest's spelling (manifestDTypeName).
    HostTensor tensor; // Shares or borrows the bytes; no copy.
  };
  llvm::SmallVector<ExternalWeight> externalWeights;
  /// Writes `externalWeights` to `path` (Weights.h) through a temporary
  /// file; returns false with `error` on failure, leaving no file.
  bool writeWeights(llvm::StringRef path, std::string &error) const;

private:
  mlir::LogicalResult checkOps();
  mlir::LogicalResult importInitializers();
  mlir::LogicalResult checkAgainstInference(const onnx::NodeProto &node,
                                            mlir::Location loc);
  mlir::Location nodeLoc(const onnx::NodeProto &node, unsigned index);

  /// Turns a weight into an argument of the function being built.
  mlir::Value weightArgument(TensorValue &value);

  mlir::MLIRContext *context;
  onnx::ModelProto &model;
  /// The function being built, and the types of its arguments so far.
  mlir::func::FuncOp func;
  llvm::SmallVector<mlir::Type> argumentTypes;
  std::string modelPath;
  ConverterTable converters;
  llvm::StringMap<TensorValue> values;
  /// Shapes ONNX's inference found, to check the converters' results.
  llvm::StringMap<llvm::SmallVector<int64_t>> inferredShapes;
  /// External data files, read once.
  llvm::StringMap<std::unique_ptr<llvm::MemoryBuffer>> externalFiles;
};

} // namespace hidet::onnx_import

#endif // HIDET_LIB_IMPORT_ONNX_IMPORTER_H
