//===- ModelReader.cpp - Reading and checking ONNX models -----------------===//
//
// Part of the Hidet-MLIR project.
//
//===----------------------------------------------------------------------===//
//
// Compiled with exceptions enabled (see CMakeLists.txt).
//
//===----------------------------------------------------------------------===//

#include "ModelReader.h"

#include "onnx/defs/parser.h"
#include "onnx/onnx_pb.h"
#include "onnx/shape_inference/implementation.h"

#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/raw_ostream.h"

#include <exception>
#include <limits>
#include <set>

namespace hidet::onnx_import {

std::unique_ptr<onnx::ModelProto> readModel(llvm::StringRef path,
                                            std::string &error) {
  auto buffer = llvm::MemoryBuffer::getFileOrSTDIN(path, /*IsText=*/false,
                                                   /*RequiresNullTerminator=*/
                                                   true);
  if (!buffer) {
    error = "cannot read '" + path.str() + "': " + buffer.getError().message();
    return nullptr;
  }
  auto model = std::make_unique<onnx::ModelProto>();
  llvm::StringRef bytes = (*buffer)->getBuffer();
  if (path.ends_with(".onnxtxt")) {
    try {
      onnx::OnnxParser parser(bytes.data());
      onnx::Status status = parser.Parse(*model);
      if (!status.IsOK()) {
        error =
            "'" + path.str() + "' is not ONNX text: " + status.ErrorMessage();
        return nullptr;
      }
    } catch (const std::exception &e) {
      error = "'" + path.str() + "' is not ONNX text: " + e.what();
      return nullptr;
    }
    return model;
  }
  if (bytes.size() > static_cast<size_t>(std::numeric_limits<int>::max())) {
    error = "'" + path.str() +
            "' is larger than 2 GiB; store the weights as ONNX external data";
    return nullptr;
  }
  if (!model->ParseFromArray(bytes.data(), static_cast<int>(bytes.size()))) {
    error = "'" + path.str() + "' is not an ONNX model (protobuf parse failed)";
    return nullptr;
  }
  if (!model->has_graph()) {
    error = "'" + path.str() + "' has no graph";
    return nullptr;
  }
  return model;
}

bool bindInputs(onnx::ModelProto &model,
                const llvm::StringMap<std::string> &boundInputs,
                std::string &error) {
  onnx::GraphProto *graph = model.mutable_graph();
  for (const auto &entry : boundInputs) {
    std::string name = entry.getKey().str();
    bool found = false;
    for (const onnx::ValueInfoProto &input : graph->input())
      found |= input.name() == name;
    if (!found) {
      error = "--bind-input names '" + name +
              "', which is not an input of the graph";
      return false;
    }
    auto buffer = llvm::MemoryBuffer::getFile(entry.getValue(),
                                              /*IsText=*/false);
    if (!buffer) {
      error = "cannot read '" + entry.getValue() +
              "': " + buffer.getError().message();
      return false;
    }
    onnx::TensorProto *tensor = graph->add_initializer();
    llvm::StringRef bytes = (*buffer)->getBuffer();
    if (!tensor->ParseFromArray(bytes.data(), static_cast<int>(bytes.size()))) {
      error = "'" + entry.getValue() + "' is not an ONNX TensorProto";
      return false;
    }
    tensor->set_name(name);
  }
  return true;
}

bool specializeInputs(onnx::ModelProto &model,
                      const llvm::StringMap<llvm::SmallVector<int64_t>> &shapes,
                      int64_t defaultDim, std::string &notes,
                      std::string &error) {
  onnx::GraphProto *graph = model.mutable_graph();
  std::set<std::string> initializers;
  for (const onnx::TensorProto &init : graph->initializer())
    initializers.insert(init.name());
  std::set<std::string> seen;
  llvm::raw_string_ostream notesOs(notes);
  for (onnx::ValueInfoProto &input : *graph->mutable_input()) {
    if (initializers.count(input.name()))
      continue;
    seen.insert(input.name());
    if (!input.type().has_tensor_type()) {
      error = "graph input '" + input.name() + "' is not a tensor";
      return false;
    }
    onnx::TypeProto_Tensor *tensor =
        input.mutable_type()->mutable_tensor_type();
    auto it = shapes.find(input.name());
    if (it != shapes.end()) {
      const llvm::SmallVector<int64_t> &want = it->second;
      if (tensor->has_shape() &&
          tensor->shape().dim_size() != static_cast<int>(want.size())) {
        error = "--input-shape " + input.name() + ": the model gives it rank " +
                std::to_string(tensor->shape().dim_size()) + ", not " +
                std::to_string(want.size());
        return false;
      }
      tensor->mutable_shape()->clear_dim();
      for (int64_t d : want)
        tensor->mutable_shape()->add_dim()->set_dim_value(d);
      continue;
    }
    if (!tensor->has_shape()) {
      error = "graph input '" + input.name() +
              "' has no shape; give one with --input-shape";
      return false;
    }
    bool defaulted = false;
    for (onnx::TensorShapeProto_Dimension &dim :
         *tensor->mutable_shape()->mutable_dim()) {
      if (dim.has_dim_value() && dim.dim_value() > 0)
        continue;
      if (dim.has_dim_value() && dim.dim_value() == 0)
        continue; // An empty tensor: kept, and rejected later if unsupported.
      dim.set_dim_value(defaultDim);
      defaulted = true;
    }
    if (defaulted) {
      notesOs << "input '" << input.name() << "' has symbolic dimensions; "
              << "they are set to " << defaultDim << " (use --input-shape "
              << input.name() << "=...)\n";
    }
  }
  for (const auto &entry : shapes) {
    if (!seen.count(entry.getKey().str())) {
      error = "--input-shape names '" + entry.getKey().str() +
              "', which is not an input of the graph";
      return false;
    }
  }
  return true;
}

/// Whether every node of the main graph reads only values defined before
/// it: a graph input, an initializer or an earlier node's output. ONNX's
/// shape inference (libonnx 1.12) dereferences the missing type of an
/// undefined input (a Shape node reading an undefined value crashed it;
/// found by hidet-onnx-fuzzer), so such graphs are rejected first.
static bool inputsDefined(const onnx::GraphProto &graph, std::string &error) {
  std::set<std::string> defined;
  for (const onnx::ValueInfoProto &input : graph.input())
    defined.insert(input.name());
  for (const onnx::TensorProto &init : graph.initializer())
    defined.insert(init.name());
  for (const onnx::NodeProto &node : graph.node()) {
    for (const std::string &name : node.input())
      if (!name.empty() && !defined.count(name)) {
        error = "node '" + node.name() + "' (" + node.op_type() +
                ") reads '" + name +
                "', which no graph input, initializer or earlier node "
                "defines";
        return false;
      }
    for (const std::string &name : node.output())
      defined.insert(name);
  }
  return true;
}

bool inferShapes(onnx::ModelProto &model, std::string &error) {
  if (!inputsDefined(model.graph(), error))
    return false;
  try {
    onnx::ShapeInferenceOptions options(/*check_type_val=*/false,
                                        /*strict_mode_val=*/0,
                                        /*data_prop_val=*/true);
    onnx::shape_inference::InferShapes(
        model, onnx::OpSchemaRegistry::Instance(), options);
  } catch (const std::exception &e) {
    error = std::string("ONNX shape inference failed: ") + e.what();
    return false;
  }
  return true;
}

} // namespace hidet::onnx_import
