//===- NodeContext.cpp - What a converter sees of one node ----------------===//
//
// Part of the Hidet-MLIR project.
//
//===----------------------------------------------------------------------===//

#include "Importer.h"

#include "onnx/onnx_pb.h"

using namespace mlir;

namespace hidet::onnx_import {

//===----------------------------------------------------------------------===//
// NodeContext
//===----------------------------------------------------------------------===//

NodeContext::NodeContext(Importer &importer, const onnx::NodeProto &node,
                         Location loc)
    : importer(importer), node(node), loc(loc) {}

OpBuilder &NodeContext::builder() { return importer.builder; }
MLIRContext *NodeContext::getContext() { return loc.getContext(); }
int64_t NodeContext::opset() const { return importer.opset; }
const ImportOptions &NodeContext::options() const { return importer.options; }
StringRef NodeContext::opType() const { return node.op_type(); }

unsigned NodeContext::numInputs() const { return node.input_size(); }

bool NodeContext::hasInput(unsigned i) const {
  return i < numInputs() && !node.input(i).empty();
}

const TensorValue &NodeContext::input(unsigned i) const {
  assert(hasInput(i) && "optional input is absent");
  return *importer.lookup(node.input(i));
}

Value NodeContext::value(unsigned i) {
  return importer.materialize(*importer.lookup(node.input(i)));
}

const HostTensor *NodeContext::constant(unsigned i) const {
  if (!hasInput(i))
    return nullptr;
  const TensorValue &v = input(i);
  return v.constant ? &*v.constant : nullptr;
}

bool NodeContext::canFold(ArrayRef<int64_t> shape) const {
  std::optional<int64_t> elements = checkedProduct(shape);
  return elements && *elements <= options().foldLimit;
}

bool NodeContext::allInputsKnown() const {
  for (unsigned i = 0; i < numInputs(); ++i)
    if (hasInput(i) && !constant(i))
      return false;
  return true;
}

const HostTensor *NodeContext::requireConstant(unsigned i) {
  const HostTensor *c = constant(i);
  if (!c)
    emitError() << opType() << " input " << i << " ('" << node.input(i)
                << "') must be known at import (a constant or computed from "
                   "shapes); it is computed at run time";
  return c;
}

FailureOr<SmallVector<int64_t>> NodeContext::constantInts(unsigned i) {
  const HostTensor *c = requireConstant(i);
  if (!c)
    return failure();
  return c->getInts();
}

unsigned NodeContext::numOutputs() const { return node.output_size(); }

bool NodeContext::hasOutput(unsigned i) const {
  return i < numOutputs() && !node.output(i).empty();
}

void NodeContext::setOutput(unsigned i, Value value, DType dtype) {
  if (!hasOutput(i))
    return;
  TensorValue v;
  v.dtype = dtype;
  auto type = cast<RankedTensorType>(value.getType());
  v.shape.assign(type.getShape().begin(), type.getShape().end());
  v.value = value;
  importer.define(node.output(i), std::move(v));
}

void NodeContext::setOutput(unsigned i, HostTensor constant) {
  if (!hasOutput(i))
    return;
  constant = importer.toComputeType(std::move(constant));
  TensorValue v;
  v.dtype = constant.getDType();
  v.shape.assign(constant.getShape().begin(), constant.getShape().end());
  v.constant = std::move(constant);
  importer.define(node.output(i), std::move(v));
}

const std::string &NodeContext::outputName(unsigned i) const {
  return node.output(i);
}

const onnx::NodeProto *NodeContext::soleConsumer(unsigned i) const {
  auto it = importer.readers.find(node.output(i));
  if (it == importer.readers.end() || it->second.size() != 1)
    return nullptr;
  return it->second.front();
}

void NodeContext::absorb(const onnx::NodeProto *consumer, Value value,
                         DType dtype) {
  importer.absorbed.insert(consumer);
  TensorValue v;
  v.dtype = dtype;
  auto type = cast<RankedTensorType>(value.getType());
  v.shape.assign(type.getShape().begin(), type.getShape().end());
  v.value = value;
  // Only the consumer reads the node's own output; both name the result.
  importer.define(node.output(0), v);
  importer.define(consumer->output(0), std::move(v));
}

const onnx::AttributeProto *NodeContext::attr(StringRef name) const {
  for (const onnx::AttributeProto &a : node.attribute())
    if (a.name() == name)
      return &a;
  return nullptr;
}

int64_t NodeContext::attrInt(StringRef name, int64_t defaultValue) const {
  const onnx::AttributeProto *a = attr(name);
  return a ? a->i() : defaultValue;
}

float NodeContext::attrFloat(StringRef name, float defaultValue) const {
  const onnx::AttributeProto *a = attr(name);
  return a ? a->f() : defaultValue;
}

std::string NodeContext::attrString(StringRef name,
                                    StringRef defaultValue) const {
  const onnx::AttributeProto *a = attr(name);
  return a ? a->s() : defaultValue.str();
}

SmallVector<int64_t> NodeContext::attrInts(StringRef name) const {
  const onnx::AttributeProto *a = attr(name);
  if (!a)
    return {};
  return SmallVector<int64_t>(a->ints().begin(), a->ints().end());
}

SmallVector<float> NodeContext::attrFloats(StringRef name) const {
  const onnx::AttributeProto *a = attr(name);
  if (!a)
    return {};
  return SmallVector<float>(a->floats().begin(), a->floats().end());
}

FailureOr<HostTensor> NodeContext::attrTensor(StringRef name) {
  const onnx::AttributeProto *a = attr(name);
  if (!a || !a->has_t()) {
    emitError() << opType() << " has no tensor attribute '" << name << "'";
    return failure();
  }
  return importer.readTensor(a->t(), loc);
}

InFlightDiagnostic NodeContext::emitError() const {
  // The location of a node of a binary model names no useful line, so the
  // message names the node.
  std::string name = node.name().empty() ? node.op_type() : node.name();
  auto diag = mlir::emitError(loc);
  diag << "node '" << name << "': ";
  return diag;
}

LogicalResult NodeContext::unsupported(const Twine &what) const {
  return emitError() << opType() << " " << what << " is not supported";
}

} // namespace hidet::onnx_import
