//===- MergeProjections.cpp - Sibling MatMul + Add into one ---------------===//
//
// Part of the Hidet-MLIR project.
//
//===----------------------------------------------------------------------===//
//
// Attention's query, key and value projections are three `MatMul (x, W_i)`
// + `Add (b_i)` of the same x with weights of their own (BERT's nn.Linear
// layers). They become one MatMul with the weights concatenated along N,
// one Add of the concatenated biases, and a Slice per projection, which
// produces the value the projection's Add produced: one GEMM launch instead
// of three, as in models that export the projections fused (GPT-2's
// c_attn). Where slices of that GEMM are large, hidet-slice-producers cuts
// it into per-slice GEMMs again.
//
// This runs on the ONNX graph, before shape inference, because the
// weights are initializers there: at the MLIR level they may already be
// function arguments (external weights), which no pass can concatenate.
//
//===----------------------------------------------------------------------===//

#include "MergeProjections.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/MapVector.h"
#include "llvm/ADT/StringSet.h"

#include <onnx/onnx_pb.h>

#include <cstring>
#include <map>

using namespace hidet::onnx_import;

namespace {

/// Bytes of one element of the types whose raw data this file copies, or 0.
int64_t elementBytes(int32_t dataType) {
  switch (dataType) {
  case onnx::TensorProto::FLOAT:
    return 4;
  case onnx::TensorProto::FLOAT16:
  case onnx::TensorProto::BFLOAT16:
    return 2;
  default:
    return 0;
  }
}

/// The little-endian bytes of `t`'s elements, when they are stored in the
/// model (raw data, or float_data of a FLOAT tensor); false otherwise.
bool tensorBytes(const onnx::TensorProto &t, std::string &bytes) {
  if (t.data_location() == onnx::TensorProto::EXTERNAL ||
      elementBytes(t.data_type()) == 0)
    return false;
  int64_t count = 1;
  for (int64_t d : t.dims())
    count *= d;
  if (t.has_raw_data()) {
    bytes = t.raw_data();
  } else if (t.data_type() == onnx::TensorProto::FLOAT &&
             t.float_data_size() == count) {
    bytes.resize(count * 4);
    for (int64_t i = 0; i < count; ++i) {
      float v = t.float_data(static_cast<int>(i));
      std::memcpy(&bytes[i * 4], &v, 4);
    }
  } else {
    return false;
  }
  return static_cast<int64_t>(bytes.size()) ==
         count * elementBytes(t.data_type());
}

/// One projection: `node` = MatMul (x, weight), `add` = Add of its result
/// and `bias`.
struct Projection {
  int node, add;
  const onnx::TensorProto *weight, *bias;
};

/// A name not yet used in the graph, from `base`.
std::string freshName(llvm::StringSet<> &used, const std::string &base) {
  std::string name = base;
  for (int i = 0; !used.insert(name).second; ++i)
    name = base + "_" + std::to_string(i);
  return name;
}

onnx::TensorProto *addInt64Initializer(onnx::GraphProto &graph,
                                       const std::string &name, int64_t v) {
  onnx::TensorProto *t = graph.add_initializer();
  t->set_name(name);
  t->set_data_type(onnx::TensorProto::INT64);
  t->add_dims(1);
  t->add_int64_data(v);
  return t;
}

} // namespace

int hidet::onnx_import::mergeProjections(onnx::ModelProto &model) {
  onnx::GraphProto &graph = *model.mutable_graph();
  llvm::StringMap<const onnx::TensorProto *> initializers;
  for (const onnx::TensorProto &t : graph.initializer())
    initializers[t.name()] = &t;
  // Every name in use, and how many nodes read each value.
  llvm::StringSet<> used, graphOutputs;
  llvm::StringMap<int> readers;
  for (const onnx::ValueInfoProto &v : graph.input())
    used.insert(v.name());
  for (const onnx::ValueInfoProto &v : graph.output()) {
    used.insert(v.name());
    graphOutputs.insert(v.name());
  }
  for (const auto &entry : initializers)
    used.insert(entry.getKey());
  for (int i = 0; i < graph.node_size(); ++i) {
    const onnx::NodeProto &n = graph.node(i);
    used.insert(n.name());
    for (const std::string &in : n.input())
      ++readers[in];
    for (const std::string &out : n.output())
      used.insert(out);
  }
  // The reader of each value read once.
  llvm::StringMap<int> onlyReader;
  for (int i = 0; i < graph.node_size(); ++i)
    for (const std::string &in : graph.node(i).input())
      if (readers[in] == 1)
        onlyReader[in] = i;

  // Projections by (x, element type, K), in graph order.
  llvm::MapVector<std::string, llvm::SmallVector<Projection>,
                  std::map<std::string, unsigned>>
      groups;
  for (int i = 0; i < graph.node_size(); ++i) {
    const onnx::NodeProto &mm = graph.node(i);
    if (mm.op_type() != "MatMul" || !mm.domain().empty() ||
        mm.input_size() != 2 || mm.output_size() != 1)
      continue;
    auto w = initializers.find(mm.input(1));
    if (w == initializers.end() || w->second->dims_size() != 2 ||
        initializers.count(mm.input(0)))
      continue;
    const std::string &y = mm.output(0);
    auto reader = onlyReader.find(y);
    if (reader == onlyReader.end() || graphOutputs.contains(y))
      continue;
    const onnx::NodeProto &add = graph.node(reader->second);
    if (add.op_type() != "Add" || !add.domain().empty() ||
        add.input_size() != 2 || add.output_size() != 1)
      continue;
    const std::string &other = add.input(0) == y ? add.input(1) : add.input(0);
    auto b = initializers.find(other);
    const onnx::TensorProto *weight = w->second;
    if (b == initializers.end() || b->second->dims_size() != 1 ||
        b->second->dims(0) != weight->dims(1) ||
        b->second->data_type() != weight->data_type() ||
        elementBytes(weight->data_type()) == 0)
      continue;
    std::string key = mm.input(0) + "\n" + std::to_string(weight->data_type()) +
                      "\n" + std::to_string(weight->dims(0));
    groups[key].push_back({i, reader->second, weight, b->second});
  }

  // The nodes each merged group puts where its first MatMul was.
  llvm::DenseMap<int, llvm::SmallVector<onnx::NodeProto>> inserted;
  llvm::DenseSet<int> removed;
  llvm::StringSet<> removedValues;
  int merged = 0;
  for (auto &entry : groups) {
    llvm::SmallVector<Projection> &members = entry.second;
    if (members.size() < 2)
      continue;
    const onnx::NodeProto &first = graph.node(members.front().node);
    int32_t type = members.front().weight->data_type();
    int64_t k = members.front().weight->dims(0), bytes = elementBytes(type);
    int64_t n = 0;
    llvm::SmallVector<std::string> weights, biases;
    bool readable = true;
    for (const Projection &p : members) {
      std::string wb, bb;
      readable =
          readable && tensorBytes(*p.weight, wb) && tensorBytes(*p.bias, bb);
      weights.push_back(std::move(wb));
      biases.push_back(std::move(bb));
      n += p.weight->dims(1);
    }
    if (!readable)
      continue;
    // [K, sum N]: row r is the rows r of the weights, side by side.
    std::string catWeight, catBias;
    catWeight.reserve(k * n * bytes);
    for (int64_t r = 0; r < k; ++r)
      for (auto [p, wb] : llvm::zip_equal(members, weights)) {
        int64_t row = p.weight->dims(1) * bytes;
        catWeight.append(wb, r * row, row);
      }
    for (const std::string &bb : biases)
      catBias += bb;
    std::string base = "hidet_merged_" + first.output(0);
    std::string wName = freshName(used, base + "_weight");
    std::string bName = freshName(used, base + "_bias");
    onnx::TensorProto *wt = graph.add_initializer();
    wt->set_name(wName);
    wt->set_data_type(type);
    wt->add_dims(k);
    wt->add_dims(n);
    wt->set_raw_data(std::move(catWeight));
    onnx::TensorProto *bt = graph.add_initializer();
    bt->set_name(bName);
    bt->set_data_type(type);
    bt->add_dims(n);
    bt->set_raw_data(std::move(catBias));

    llvm::SmallVector<onnx::NodeProto> nodes;
    std::string product = freshName(used, base + "_product");
    std::string sum = freshName(used, base + "_sum");
    onnx::NodeProto &mm = nodes.emplace_back();
    mm.set_op_type("MatMul");
    // The kernel is named after the first projection's MatMul.
    mm.set_name(first.name());
    mm.add_input(first.input(0));
    mm.add_input(wName);
    mm.add_output(product);
    onnx::NodeProto &add = nodes.emplace_back();
    add.set_op_type("Add");
    add.add_input(product);
    add.add_input(bName);
    add.add_output(sum);
    std::string axes = freshName(used, base + "_axes");
    addInt64Initializer(graph, axes, -1);
    int64_t offset = 0;
    for (const Projection &p : members) {
      const onnx::NodeProto &oldAdd = graph.node(p.add);
      std::string starts = freshName(used, base + "_starts");
      std::string ends = freshName(used, base + "_ends");
      addInt64Initializer(graph, starts, offset);
      offset += p.weight->dims(1);
      addInt64Initializer(graph, ends, offset);
      onnx::NodeProto &slice = nodes.emplace_back();
      slice.set_op_type("Slice");
      slice.set_name(oldAdd.name().empty() ? freshName(used, base + "_slice")
                                           : oldAdd.name());
      slice.add_input(sum);
      slice.add_input(starts);
      slice.add_input(ends);
      slice.add_input(axes);
      slice.add_output(oldAdd.output(0));
      removed.insert(p.node);
      removed.insert(p.add);
      removedValues.insert(graph.node(p.node).output(0));
    }
    inserted[members.front().node] = std::move(nodes);
    ++merged;
  }
  if (!merged)
    return 0;

  google::protobuf::RepeatedPtrField<onnx::NodeProto> old;
  old.Swap(graph.mutable_node());
  for (int i = 0; i < old.size(); ++i) {
    auto it = inserted.find(i);
    if (it != inserted.end())
      for (onnx::NodeProto &node : it->second)
        *graph.add_node() = std::move(node);
    if (!removed.contains(i))
      *graph.add_node() = std::move(*old.Mutable(i));
  }
  // Shapes recorded for the values that are gone.
  google::protobuf::RepeatedPtrField<onnx::ValueInfoProto> infos;
  infos.Swap(graph.mutable_value_info());
  for (onnx::ValueInfoProto &v : infos)
    if (!removedValues.contains(v.name()))
      *graph.add_value_info() = std::move(v);
  return merged;
}
