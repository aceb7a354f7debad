//===- Importer.cpp - ONNX graphs to a func.func on tensors ---------------===//
//
// Part of the Hidet-MLIR project.
//
//===----------------------------------------------------------------------===//

#include "Importer.h"

#include "Builders.h"
#include "ModelReader.h"

#include "Hidet/Runtime/ManifestTypes.h"

#include "onnx/onnx_pb.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/DialectResourceBlobManager.h"
#include "mlir/IR/Verifier.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/Path.h"

#include <cmath>
#include <limits>

using namespace mlir;

namespace hidet::onnx_import {

//===----------------------------------------------------------------------===//
// Importer
//===----------------------------------------------------------------------===//

bool parseShape(StringRef text, SmallVector<int64_t> &shape) {
  shape.clear();
  if (text == "scalar")
    return true;
  SmallVector<StringRef> parts;
  text.split(parts, 'x');
  for (StringRef part : parts) {
    int64_t v;
    if (part.getAsInteger(10, v) || v < 0)
      return false;
    shape.push_back(v);
  }
  return !shape.empty();
}

static void registerAllConverters(ConverterTable &converters) {
  registerElementwiseConverters(converters);
  registerLinearConverters(converters);
  registerConvConverters(converters);
  registerPoolingConverters(converters);
  registerNormalizationConverters(converters);
  registerShapeConverters(converters);
  registerIndexingConverters(converters);
  registerMaskConverters(converters);
  registerEinsumConverters(converters);
  registerConvTransposeConverters(converters);
  registerResizeConverters(converters);
  registerDataConverters(converters);
}

SmallVector<std::string> supportedOnnxOps() {
  ConverterTable table;
  registerAllConverters(table);
  SmallVector<std::string> names;
  for (const auto &entry : table)
    names.push_back(entry.getKey().str());
  llvm::sort(names);
  return names;
}

Importer::Importer(MLIRContext *context, onnx::ModelProto &model,
                   StringRef modelPath, const ImportOptions &options)
    : builder(context), options(options), context(context), model(model),
      modelPath(modelPath.str()) {
  registerAllConverters(converters);
  for (const onnx::OperatorSetIdProto &set : model.opset_import())
    if (set.domain().empty() || set.domain() == "ai.onnx")
      opset = set.version();
}

DType Importer::computeType(DType dtype) const {
  if (dtype != DType::F32)
    return dtype;
  if (options.precision == "f16")
    return DType::F16;
  if (options.precision == "bf16")
    return DType::BF16;
  return dtype;
}

HostTensor Importer::toComputeType(HostTensor t) const {
  DType compute = computeType(t.getDType());
  if (compute == t.getDType())
    return t;
  HostTensor converted = t.cast(compute);
  // Finite float32 values beyond the compute type's range (exporters write
  // masks as float32's lowest value) saturate at its largest finite value
  // rather than becoming infinities, as float16 model converters do: an
  // infinite mask value times a 0 of the mask is NaN. bf16's largest is
  // below float32's, which rounds to infinity.
  const llvm::fltSemantics *semantics = nullptr;
  if (compute == DType::F16)
    semantics = &llvm::APFloat::IEEEhalf();
  else if (compute == DType::BF16)
    semantics = &llvm::APFloat::BFloat();
  else
    return converted;
  double max = llvm::APFloat::getLargest(*semantics).convertToDouble();
  for (int64_t i = 0, n = t.getNumElements(); i < n; ++i) {
    double v = t.getDouble(i);
    if (std::isfinite(v) && std::fabs(v) > max)
      converted.setDouble(i, v > 0 ? max : -max);
  }
  return converted;
}

TensorValue *Importer::lookup(const std::string &name) {
  auto it = values.find(name);
  return it == values.end() ? nullptr : &it->second;
}

void Importer::define(const std::string &name, TensorValue value) {
  value.name = name;
  values[name] = std::move(value);
}

Type Importer::elementType(DType dtype) {
  switch (dtype) {
  case DType::F32:
    return builder.getF32Type();
  case DType::F16:
    return builder.getF16Type();
  case DType::BF16:
    return builder.getBF16Type();
  case DType::F64:
    return builder.getF64Type();
  case DType::Bool:
    return builder.getI1Type();
  case DType::U8:
  case DType::I8:
    return builder.getI8Type();
  case DType::U16:
  case DType::I16:
    return builder.getI16Type();
  case DType::U32:
  case DType::I32:
    return builder.getI32Type();
  case DType::U64:
  case DType::I64:
    return builder.getI64Type();
  default:
    return {};
  }
}

RankedTensorType Importer::tensorType(const TensorValue &value) {
  return RankedTensorType::get(value.shape, elementType(value.dtype));
}

/// A resource key made of identifier characters.
static std::string resourceKey(StringRef name) {
  std::string key;
  for (char c : name)
    key += (llvm::isAlnum(c) || c == '_' || c == '.') ? c : '_';
  if (key.empty() || llvm::isDigit(key[0]))
    key = "w_" + key;
  return key;
}

/// Constants with at most this many elements are written inline, so that
/// small ones stay readable in the text form; larger ones are blobs.
static constexpr int64_t kInlineElements = 16;

static Attribute denseAttr(RankedTensorType type, const HostTensor &t) {
  Type elem = type.getElementType();
  int64_t n = t.getNumElements();
  if (isa<FloatType>(elem)) {
    auto ft = cast<FloatType>(elem);
    SmallVector<APFloat> values;
    for (int64_t i = 0; i < (t.isSplat() ? 1 : n); ++i) {
      APFloat f(t.getDouble(i));
      bool lost;
      f.convert(ft.getFloatSemantics(), APFloat::rmNearestTiesToEven, &lost);
      values.push_back(f);
    }
    return DenseElementsAttr::get(type, values);
  }
  unsigned width = elem.getIntOrFloatBitWidth();
  SmallVector<APInt> values;
  for (int64_t i = 0; i < (t.isSplat() ? 1 : n); ++i)
    values.push_back(APInt(width, static_cast<uint64_t>(t.getInt(i)),
                           /*isSigned=*/!isUnsigned(t.getDType()),
                           /*implicitTrunc=*/true));
  return DenseElementsAttr::get(type, values);
}

Value Importer::materialize(TensorValue &value) {
  if (value.value)
    return value.value;
  assert(value.constant && "a graph value without a definition");
  // Created where first used, which dominates every later use.
  RankedTensorType type = tensorType(value);
  const HostTensor &t = *value.constant;
  Attribute attr;
  bool small = t.getNumElements() <= kInlineElements || t.isSplat();
  // With external weights every tensor that is not a splat is one, however
  // small (a 16-channel bias) and boolean ones too (a causal mask, a byte
  // per element): as a module constant, the host would copy it to the GPU
  // on every call, which a CUDA graph cannot replay.
  if (!t.isSplat() && !options.externalWeights.empty() && func &&
      !manifestDTypeName(type.getElementType()).empty()) {
    return value.value = weightArgument(value);
  } else if (small || t.getDType() == DType::Bool) {
    attr = denseAttr(type, t);
  } else {
    ArrayRef<char> bytes(t.getData(), t.getNumBytes());
    auto blob = HeapAsmResourceBlob::allocateAndCopyWithAlign(
        bytes, dtypeSize(t.getDType()));
    attr = DenseResourceElementsAttr::get(type, resourceKey(value.name),
                                          std::move(blob));
  }
  // Named after the tensor (an initializer's name): the weight that
  // hidet-constants-to-weights may make of it is called so.
  Location loc = value.name.empty()
                     ? builder.getUnknownLoc()
                     : Location(NameLoc::get(builder.getStringAttr(value.name)));
  value.value =
      arith::ConstantOp::create(builder, loc, cast<TypedAttr>(attr));
  return value.value;
}

Value Importer::weightArgument(TensorValue &value) {
  // A name unique among the weights, usable as a manifest token.
  std::string base = resourceKey(value.name), name = base;
  for (int n = 1;
       llvm::any_of(externalWeights, [&](auto &w) { return w.name == name; });
       ++n)
    name = base + "_" + std::to_string(n);
  RankedTensorType type = tensorType(value);
  Block &entry = func.getBody().front();
  BlockArgument arg = entry.addArgument(type, func.getLoc());
  argumentTypes.push_back(type);
  func.setType(builder.getFunctionType(argumentTypes,
                                       func.getFunctionType().getResults()));
  func.setArgAttr(arg.getArgNumber(), "hidet.weight",
                  builder.getStringAttr(name));
  externalWeights.push_back(
      {name, manifestDTypeName(type.getElementType()), *value.constant});
  return arg;
}

FailureOr<HostTensor> Importer::readTensor(const onnx::TensorProto &tensor,
                                           Location loc) {
  auto dtype = static_cast<DType>(tensor.data_type());
  SmallVector<int64_t> shape(tensor.dims().begin(), tensor.dims().end());
  if (!elementType(dtype)) {
    return emitError(loc) << "tensor '" << tensor.name()
                          << "' has element type " << dtypeName(dtype) << " ("
                          << tensor.data_type() << "), which is not supported";
  }
  std::optional<int64_t> count = checkedProduct(shape);
  int64_t elementBytes = dtypeSize(dtype);
  if (!count || *count > std::numeric_limits<int64_t>::max() / elementBytes)
    return emitError(loc) << "tensor '" << tensor.name()
                          << "' has a negative extent or more bytes than "
                             "int64 counts";
  int64_t n = *count;
  size_t bytes = static_cast<size_t>(n) * elementBytes;
  if (tensor.data_location() == onnx::TensorProto::EXTERNAL) {
    std::string location;
    int64_t offset = 0, length = -1;
    for (const onnx::StringStringEntryProto &e : tensor.external_data()) {
      if (e.key() == "location")
        location = e.value();
      else if ((e.key() == "offset" &&
                StringRef(e.value()).getAsInteger(10, offset)) ||
               (e.key() == "length" &&
                StringRef(e.value()).getAsInteger(10, length)))
        return emitError(loc) << "tensor '" << tensor.name() << "' has "
                              << e.key() << " '" << e.value()
                              << "', which is not an integer";
    }
    SmallString<256> path(llvm::sys::path::parent_path(modelPath));
    llvm::sys::path::append(path, location);
    auto &file = externalFiles[path];
    if (!file) {
      auto buffer = llvm::MemoryBuffer::getFile(path, /*IsText=*/false,
                                                /*RequiresNullTerminator=*/
                                                false);
      if (!buffer)
        return emitError(loc)
               << "cannot read external data '" << path << "' of tensor '"
               << tensor.name() << "': " << buffer.getError().message();
      file = std::move(*buffer);
    }
    if (length >= 0 && static_cast<size_t>(length) != bytes)
      return emitError(loc)
             << "external data of '" << tensor.name() << "' has length "
             << length << ", expected " << bytes;
    if (offset < 0 || offset + bytes > file->getBufferSize())
      return emitError(loc) << "external data of '" << tensor.name()
                            << "' lies outside '" << path << "'";
    return HostTensor::borrow(dtype, shape, file->getBufferStart() + offset);
  }
  if (tensor.has_raw_data()) {
    if (tensor.raw_data().size() != bytes)
      return emitError(loc) << "tensor '" << tensor.name() << "' has "
                            << tensor.raw_data().size()
                            << " bytes of raw data, expected " << bytes;
    return HostTensor::borrow(dtype, shape, tensor.raw_data().data());
  }
  // The typed field that holds the values, counted before anything is
  // allocated: a shape of many elements with few values is an error, not
  // an allocation of the shape's size.
  int64_t size = 0;
  switch (dtype) {
  case DType::F32:
    size = tensor.float_data_size();
    break;
  case DType::F64:
    size = tensor.double_data_size();
    break;
  case DType::I64:
    size = tensor.int64_data_size();
    break;
  case DType::U32:
  case DType::U64:
    size = tensor.uint64_data_size();
    break;
  default:
    // int32_data: 16-bit floats as their bits, and the small integers.
    size = tensor.int32_data_size();
    break;
  }
  if (size != n)
    return emitError(loc) << "tensor '" << tensor.name() << "' has " << size
                          << " elements, its shape needs " << n;
  HostTensor t = HostTensor::zeros(dtype, shape);
  switch (dtype) {
  case DType::F32:
    for (int64_t i = 0; i < n; ++i)
      t.setDouble(i, tensor.float_data(i));
    break;
  case DType::F64:
    for (int64_t i = 0; i < n; ++i)
      t.setDouble(i, tensor.double_data(i));
    break;
  case DType::I64:
    for (int64_t i = 0; i < n; ++i)
      t.setInt(i, tensor.int64_data(i));
    break;
  case DType::U32:
  case DType::U64:
    for (int64_t i = 0; i < n; ++i)
      t.setInt(i, static_cast<int64_t>(tensor.uint64_data(i)));
    break;
  case DType::F16:
  case DType::BF16: {
    // int32_data holds the 16 bits of each element.
    char *out = t.getMutableData();
    for (int64_t i = 0; i < n; ++i) {
      uint16_t bits = static_cast<uint16_t>(tensor.int32_data(i));
      std::memcpy(out + 2 * i, &bits, 2);
    }
    break;
  }
  default:
    for (int64_t i = 0; i < n; ++i)
      t.setInt(i, tensor.int32_data(i));
    break;
  }
  return t;
}

Location Importer::nodeLoc(const onnx::NodeProto &node, unsigned index) {
  std::string name = node.name().empty()
                         ? node.op_type() + "_" + std::to_string(index)
                         : node.name();
  // Binary models have no lines: the name says which node it is.
  Location file = FileLineColLoc::get(context, modelPath, 0, 0);
  return NameLoc::get(StringAttr::get(context, name), file);
}

LogicalResult Importer::checkOps() {
  // Every op the graph uses is checked before anything is built, so that a
  // model with several unsupported ops gets one complete message.
  llvm::StringMap<unsigned> missing;
  for (const onnx::NodeProto &node : model.graph().node()) {
    if (!node.domain().empty() && node.domain() != "ai.onnx") {
      ++missing[node.domain() + "." + node.op_type()];
      continue;
    }
    if (!converters.count(node.op_type()))
      ++missing[node.op_type()];
  }
  if (missing.empty())
    return success();
  SmallVector<std::string> names;
  for (auto &entry : missing)
    names.push_back(entry.getKey().str() + " (" +
                    std::to_string(entry.getValue()) + " node" +
                    (entry.getValue() > 1 ? "s" : "") + ")");
  llvm::sort(names);
  return emitError(FileLineColLoc::get(context, modelPath, 0, 0))
         << "unsupported ONNX ops (opset " << opset
         << "): " << llvm::join(names, ", ");
}

LogicalResult Importer::importInitializers() {
  for (const onnx::TensorProto &init : model.graph().initializer()) {
    Location loc = NameLoc::get(StringAttr::get(context, init.name()),
                                FileLineColLoc::get(context, modelPath, 0, 0));
    FailureOr<HostTensor> t = readTensor(init, loc);
    if (failed(t))
      return failure();
    t = toComputeType(std::move(*t));
    TensorValue v;
    v.dtype = t->getDType();
    v.shape.assign(t->getShape().begin(), t->getShape().end());
    v.constant = std::move(*t);
    define(init.name(), std::move(v));
  }
  return success();
}

LogicalResult Importer::checkAgainstInference(const onnx::NodeProto &node,
                                              Location loc) {
  for (const std::string &name : node.output()) {
    if (name.empty())
      continue;
    TensorValue *v = lookup(name);
    if (!v)
      return emitError(loc)
             << node.op_type() << " did not define output '" << name << "'";
    // Whatever a converter computed its shape from, a tensor has extents
    // of at least 0 and fewer elements than int64 counts.
    if (!checkedProduct(v->shape)) {
      auto diag = emitError(loc) << "output '" << name << "' of "
                                 << node.op_type() << " has shape [";
      llvm::interleaveComma(v->shape, diag);
      return diag << "]: a negative extent, or more elements than int64 "
                     "counts";
    }
    auto it = inferredShapes.find(name);
    if (it == inferredShapes.end())
      continue;
    if (ArrayRef<int64_t>(it->second) != ArrayRef<int64_t>(v->shape)) {
      auto diag = emitError(loc) << "output '" << name << "' of "
                                 << node.op_type() << " has shape [";
      llvm::interleaveComma(v->shape, diag);
      diag << "], ONNX shape inference says [";
      llvm::interleaveComma(it->second, diag);
      return diag << "]";
    }
  }
  return success();
}

/// Records the fully static shapes that ONNX's inference found.
static void
collectInferredShapes(const onnx::GraphProto &graph,
                      llvm::StringMap<SmallVector<int64_t>> &shapes) {
  for (const onnx::ValueInfoProto &info : graph.value_info()) {
    if (!info.type().has_tensor_type() ||
        !info.type().tensor_type().has_shape())
      continue;
    SmallVector<int64_t> shape;
    bool known = true;
    for (const auto &dim : info.type().tensor_type().shape().dim()) {
      if (!dim.has_dim_value()) {
        known = false;
        break;
      }
      shape.push_back(dim.dim_value());
    }
    // An element count beyond int64 is no shape to import (a damaged model).
    if (known && checkedProduct(shape))
      shapes[info.name()] = shape;
  }
}

OwningOpRef<ModuleOp> Importer::run() {
  if (opset == 0) {
    emitError(FileLineColLoc::get(context, modelPath, 0, 0))
        << "the model imports no version of the default ONNX domain";
    return nullptr;
  }
  if (options.precision != "f32" && options.precision != "f16" &&
      options.precision != "bf16") {
    emitError(FileLineColLoc::get(context, modelPath, 0, 0))
        << "precision must be f32, f16 or bf16, not '" << options.precision
        << "'";
    return nullptr;
  }
  if (opset > 21) {
    emitError(FileLineColLoc::get(context, modelPath, 0, 0))
        << "opset " << opset << " is not supported (1 to 21 are)";
    return nullptr;
  }
  if (failed(checkOps()))
    return nullptr;
  collectInferredShapes(model.graph(), inferredShapes);

  Location fileLoc = FileLineColLoc::get(context, modelPath, 0, 0);
  OwningOpRef<ModuleOp> module = ModuleOp::create(fileLoc);
  builder.setInsertionPointToEnd(module->getBody());

  if (failed(importInitializers()))
    return nullptr;

  // Function inputs: graph inputs that are not initializers.
  SmallVector<Type> inputTypes;
  SmallVector<std::string> inputNames;
  for (const onnx::ValueInfoProto &input : model.graph().input()) {
    if (lookup(input.name()))
      continue; // An initializer (old exporters list them as inputs too).
    const auto &tt = input.type().tensor_type();
    TensorValue v;
    v.dtype = static_cast<DType>(tt.elem_type());
    if (!elementType(v.dtype)) {
      emitError(fileLoc) << "graph input '" << input.name()
                         << "' has element type " << dtypeName(v.dtype)
                         << ", which is not supported";
      return nullptr;
    }
    for (const auto &dim : tt.shape().dim())
      v.shape.push_back(dim.dim_value());
    if (!checkedProduct(v.shape)) {
      emitError(fileLoc) << "graph input '" << input.name()
                         << "' has a negative extent or more elements than "
                            "int64 counts";
      return nullptr;
    }
    inputTypes.push_back(tensorType(v));
    inputNames.push_back(input.name());
    define(input.name(), std::move(v));
  }

  func = func::FuncOp::create(builder, fileLoc, options.funcName,
                              builder.getFunctionType(inputTypes, {}));
  argumentTypes = inputTypes;
  Block *body = func.addEntryBlock();
  builder.setInsertionPointToEnd(body);
  for (auto [i, name] : llvm::enumerate(inputNames)) {
    TensorValue *v = lookup(name);
    v->value = body->getArgument(i);
    func.setArgAttr(i, "hidet.name", builder.getStringAttr(name));
    // With a 16-bit precision, float32 inputs are converted on entry.
    DType compute = computeType(v->dtype);
    if (compute != v->dtype) {
      v->value = convertTensor(builder, fileLoc, v->value, elementType(compute),
                               false);
      v->dtype = compute;
    }
  }

  for (const onnx::NodeProto &node : model.graph().node())
    for (const std::string &in : node.input())
      if (!in.empty())
        readers[in].push_back(&node);
  for (const onnx::ValueInfoProto &output : model.graph().output())
    readers[output.name()].push_back(nullptr);

  unsigned index = 0;
  for (const onnx::NodeProto &node : model.graph().node()) {
    Location loc = nodeLoc(node, index++);
    if (absorbed.count(&node))
      continue;
    for (const std::string &in : node.input()) {
      if (!in.empty() && !lookup(in)) {
        emitError(loc) << "node '"
                       << (node.name().empty() ? node.op_type() : node.name())
                       << "' reads '" << in
                       << "', which no earlier node, input or initializer "
                          "defines";
        return nullptr;
      }
    }
    NodeContext ctx(*this, node, loc);
    if (failed(converters[node.op_type()](ctx)) ||
        failed(checkAgainstInference(node, loc)))
      return nullptr;
  }

  SmallVector<Value> results;
  SmallVector<Type> resultTypes;
  for (const onnx::ValueInfoProto &output : model.graph().output()) {
    TensorValue *v = lookup(output.name());
    if (!v) {
      emitError(fileLoc) << "graph output '" << output.name()
                         << "' is not defined by any node";
      return nullptr;
    }
    Value value = materialize(*v);
    // Outputs keep the model's float32 interface.
    auto declared = static_cast<DType>(output.type().tensor_type().elem_type());
    if (declared == DType::F32 && v->dtype != DType::F32 &&
        computeType(DType::F32) == v->dtype)
      value =
          convertTensor(builder, fileLoc, value, builder.getF32Type(), false);
    results.push_back(value);
    resultTypes.push_back(value.getType());
  }
  func::ReturnOp::create(builder, fileLoc, results);
  func.setType(builder.getFunctionType(argumentTypes, resultTypes));
  for (auto [i, output] : llvm::enumerate(model.graph().output()))
    func.setResultAttr(i, "hidet.name", builder.getStringAttr(output.name()));

  if (failed(verify(*module)))
    return nullptr;
  return module;
}

} // namespace hidet::onnx_import
