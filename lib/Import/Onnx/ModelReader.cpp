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

#include "onnx/defs/schema.h"

#include "onnx/defs/parser.h"
#include "onnx/onnx_pb.h"
#include "onnx/shape_inference/implementation.h"

#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/raw_ostream.h"

#include <exception>
#include <functional>
#include <limits>
#include <map>
#include <mutex>
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

/// The last opset of `domain` whose schemas libonnx has.
static int64_t lastKnownOpset(const std::string &domain) {
  const auto &ranges =
      onnx::OpSchemaRegistry::DomainToVersionRange::Instance().Map();
  auto it = ranges.find(domain.empty() ? onnx::ONNX_DOMAIN : domain);
  return it == ranges.end() ? 0 : it->second.second;
}

/// Whether the main graph is well formed enough for ONNX's shape inference
/// and the converters: every node reads only values defined before it (a
/// graph input, an initializer or an earlier node's output), and has the
/// number of inputs and outputs its op's schema takes. libonnx 1.12's
/// inference dereferences an undefined input's type, and the converters
/// read the inputs the schema requires (both found by hidet-onnx-fuzzer).
/// libonnx knows the schemas up to its last opset: past it (opset 18's
/// ReduceMax takes its axes as a second input) only the minimums, which
/// later opsets keep, are checked.
static bool checkGraph(const onnx::ModelProto &model, std::string &error) {
  const onnx::GraphProto &graph = model.graph();
  std::map<std::string, int64_t> opsets;
  for (const onnx::OperatorSetIdProto &set : model.opset_import())
    opsets[set.domain()] = set.version();
  std::set<std::string> defined;
  for (const onnx::ValueInfoProto &input : graph.input())
    defined.insert(input.name());
  for (const onnx::TensorProto &init : graph.initializer())
    defined.insert(init.name());
  for (const onnx::NodeProto &node : graph.node()) {
    std::string name = "node '" +
                       (node.name().empty() ? node.op_type() : node.name()) +
                       "' (" + node.op_type() + ")";
    for (const std::string &input : node.input())
      if (!input.empty() && !defined.count(input)) {
        error = name + " reads '" + input +
                "', which no graph input, initializer or earlier node "
                "defines";
        return false;
      }
    int64_t opset = opsets[node.domain()];
    const onnx::OpSchema *schema = onnx::OpSchemaRegistry::Schema(
        node.op_type(), static_cast<int>(opset), node.domain());
    // An op of the default domain that its opset does not have yet (EyeLike
    // before opset 9): no schema to check it against, and no op to convert.
    if (!schema && node.domain().empty() && opset <= lastKnownOpset("") &&
        onnx::OpSchemaRegistry::Schema(node.op_type(),
                                       static_cast<int>(lastKnownOpset("")),
                                       node.domain())) {
      error = name + " is not in opset " + std::to_string(opset) +
              " of the default domain";
      return false;
    }
    if (schema) {
      bool known = opset <= lastKnownOpset(node.domain());
      auto outside = [&](int n, int lo, int hi) {
        return n < lo || (known && n > hi);
      };
      if (outside(node.input_size(), schema->min_input(),
                  schema->max_input()) ||
          outside(node.output_size(), schema->min_output(),
                  schema->max_output())) {
        error = name + " has " + std::to_string(node.input_size()) +
                " inputs and " + std::to_string(node.output_size()) +
                " outputs; opset " + std::to_string(opset) + " takes " +
                std::to_string(schema->min_input()) + " to " +
                std::to_string(schema->max_input()) + " inputs and " +
                std::to_string(schema->min_output()) + " to " +
                std::to_string(schema->max_output()) + " outputs";
        return false;
      }
      // A required input given as "" (the absent optional input's
      // spelling) is no value either.
      const std::vector<onnx::OpSchema::FormalParameter> &formals =
          schema->inputs();
      for (int i = 0; i < node.input_size() &&
                      i < static_cast<int>(formals.size());
           ++i)
        if (node.input(i).empty() &&
            formals[i].GetOption() == onnx::OpSchema::Single) {
          error = name + " gives no value for its required input " +
                  std::to_string(i) + " ('" + formals[i].GetName() + "')";
          return false;
        }
    }
    for (const std::string &output : node.output())
      defined.insert(output);
  }
  return true;
}

/// Checks what libonnx 1.12's convolution and pooling shape inference
/// assumes without checking, and fails the inference instead: with no
/// `kernel_shape` attribute it takes the kernel from the weight's shape and
/// indexes the input's spatial dimensions, strides and dilations by it, so a
/// weight whose rank differs from the input's reads past them; and a zero
/// stride divides by zero (the first found by hidet-onnx-fuzzer on a mutated
/// QLinearConv model). `weight` is the weight's input index, or -1 for
/// pooling.
static void checkConvolution(onnx::InferenceContext &ctx, int weight) {
  if (!onnx::hasInputShape(ctx, 0))
    return;
  int rank = ctx.getInputType(0)->tensor_type().shape().dim_size();
  if (rank < 2)
    fail_shape_inference("input has rank ", rank, "; at least 2 needed");
  size_t spatial = static_cast<size_t>(rank - 2);
  if (weight >= 0 && static_cast<size_t>(weight) < ctx.getNumInputs() &&
      onnx::hasInputShape(ctx, weight)) {
    int weightRank =
        ctx.getInputType(weight)->tensor_type().shape().dim_size();
    if (weightRank != rank)
      fail_shape_inference("weight has rank ", weightRank,
                           ", the input rank ", rank);
  }
  auto checkList = [&](const char *name, size_t size, bool positive) {
    std::vector<int64_t> values;
    if (!onnx::getRepeatedAttribute(ctx, name, values))
      return;
    if (values.size() != size)
      fail_shape_inference("attribute ", name, " has ", values.size(),
                           " values; ", size, " expected");
    for (int64_t value : values)
      if (positive && value < 1)
        fail_shape_inference("attribute ", name, " has ", value,
                             "; values must be positive");
  };
  checkList("kernel_shape", spatial, /*positive=*/true);
  checkList("strides", spatial, /*positive=*/true);
  checkList("dilations", spatial, /*positive=*/true);
  checkList("pads", 2 * spatial, /*positive=*/false);
  checkList("output_padding", spatial, /*positive=*/false);
}

/// Checks that Gemm's A and B are matrices: libonnx 1.12's Gemm inference
/// reads their second dim whatever their rank (found by hidet-onnx-fuzzer
/// on a mutated opset-6 Gemm whose B had one dim).
static void checkGemm(onnx::InferenceContext &ctx) {
  for (size_t i = 0; i < 2 && i < ctx.getNumInputs(); ++i) {
    if (!onnx::hasInputShape(ctx, i))
      continue;
    int rank = ctx.getInputType(i)->tensor_type().shape().dim_size();
    if (rank != 2)
      fail_shape_inference("Gemm input ", i, " has rank ", rank,
                           "; it must be a matrix");
  }
}

/// Checks that LayerNormalization's input has a dimension at `axis`:
/// libonnx 1.12's inference indexes the input's dims by it unchecked (found
/// by hidet-onnx-fuzzer on a mutated model whose input was a scalar).
static void checkLayerNorm(onnx::InferenceContext &ctx) {
  if (!onnx::hasInputShape(ctx, 0))
    return;
  int64_t rank = ctx.getInputType(0)->tensor_type().shape().dim_size();
  int64_t axis = onnx::getAttribute(ctx, "axis", -1);
  if (axis < -rank || axis >= rank)
    fail_shape_inference("LayerNormalization axis ", axis,
                         " is outside the input's rank ", rank);
}

/// Checks DepthToSpace's and SpaceToDepth's blocksize: libonnx 1.12's
/// inference divides by its square, which a blocksize of 2^32 overflows to
/// 0 (a division by zero).
static void checkBlocksize(onnx::InferenceContext &ctx) {
  int64_t blocksize = onnx::getAttribute(ctx, "blocksize", 0);
  if (blocksize < 1 || blocksize > (int64_t(1) << 31))
    fail_shape_inference("blocksize ", blocksize, " is not in [1, 2^31]");
}

/// Puts a check in front of the inference function of every version of
/// the schemas whose libonnx 1.12 inference trusts its inputs (convolution,
/// pooling, Gemm, LayerNormalization, DepthToSpace and SpaceToDepth), once
/// per process. The registry's
/// schemas are owned by it and live for the process; there is no other hook to
/// add checks to a schema's inference.
static void guardInference() {
  static std::once_flag once;
  std::call_once(once, [] {
    using Check = std::function<void(onnx::InferenceContext &)>;
    auto conv = [](int weight) -> Check {
      return [weight](onnx::InferenceContext &ctx) {
        checkConvolution(ctx, weight);
      };
    };
    const std::pair<const char *, Check> ops[] = {
        {"Conv", conv(1)},
        {"ConvInteger", conv(1)},
        {"QLinearConv", conv(3)},
        {"ConvTranspose", conv(1)},
        {"AveragePool", conv(-1)},
        {"MaxPool", conv(-1)},
        {"LpPool", conv(-1)},
        {"Gemm", checkGemm},
        {"LayerNormalization", checkLayerNorm},
        {"DepthToSpace", checkBlocksize},
        {"SpaceToDepth", checkBlocksize}};
    for (const auto &[op, check] : ops) {
      int version = static_cast<int>(lastKnownOpset(""));
      while (version > 0) {
        const onnx::OpSchema *schema =
            onnx::OpSchemaRegistry::Schema(op, version);
        if (!schema)
          break;
        onnx::InferenceFunction infer =
            schema->GetTypeAndShapeInferenceFunction();
        const_cast<onnx::OpSchema *>(schema)->TypeAndShapeInferenceFunction(
            [infer, check = check](onnx::InferenceContext &ctx) {
              check(ctx);
              if (infer)
                infer(ctx);
            });
        version = schema->SinceVersion() - 1;
      }
    }
  });
}

bool inferShapes(onnx::ModelProto &model, std::string &error) {
  if (!checkGraph(model, error))
    return false;
  guardInference();
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
