//===- OnnxImporterTest.cpp - ONNX importer unit tests --------------------===//
//
// Part of the Hidet-MLIR project.
//
//===----------------------------------------------------------------------===//
//
// What the lit tests cannot write in ONNX's text syntax: models whose
// weights live in ONNX external data files, and the host-side element
// conversions that folding and --precision rely on.
//
//===----------------------------------------------------------------------===//

#include "Hidet/Import/OnnxImporter.h"
#include "../../lib/Import/Onnx/HostTensor.h"

#include "onnx/onnx_pb.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/MLIRContext.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"

#include "gtest/gtest.h"

#include <cmath>
#include <fstream>
#include <limits>

using namespace hidet::onnx_import;

namespace {

TEST(HostTensorTest, HalfConversionRoundsToNearestEven) {
  EXPECT_EQ(floatToHalfBits(1.0f), 0x3c00);
  EXPECT_EQ(floatToHalfBits(-2.0f), 0xc000);
  EXPECT_EQ(floatToHalfBits(65504.0f), 0x7bff);
  EXPECT_EQ(floatToHalfBits(65520.0f), 0x7c00); // Rounds up to infinity.
  EXPECT_EQ(floatToHalfBits(1.0f + 1.0f / 2048), 0x3c00);    // A tie: even.
  EXPECT_EQ(floatToHalfBits(1.0f + 3.0f / 2048), 0x3c02);    // A tie: even.
  EXPECT_EQ(floatToHalfBits(std::ldexp(1.0f, -24)), 0x0001); // Subnormal.
  EXPECT_EQ(halfBitsToFloat(0x0001), std::ldexp(1.0f, -24));
  EXPECT_EQ(halfBitsToFloat(0x3555), 0.333251953125f);
  EXPECT_TRUE(std::isnan(halfBitsToFloat(floatToHalfBits(NAN))));
  EXPECT_EQ(floatToBF16Bits(1.0f), 0x3f80);
  EXPECT_EQ(bf16BitsToFloat(floatToBF16Bits(3.140625f)), 3.140625f);
}

TEST(HostTensorTest, CastFollowsOnnx) {
  HostTensor f = HostTensor::fromDoubles(DType::F32, {4}, {1.5, -2.5, 0, 300});
  HostTensor i = f.cast(DType::I32);
  EXPECT_EQ(i.getInts(), (llvm::SmallVector<int64_t>{1, -2, 0, 300}));
  HostTensor b = f.cast(DType::Bool);
  EXPECT_EQ(b.getInts(), (llvm::SmallVector<int64_t>{1, 1, 0, 1}));
  HostTensor u8 =
      HostTensor::fromInts(DType::I64, {2}, {255, 256}).cast(DType::U8);
  EXPECT_EQ(u8.getInts(), (llvm::SmallVector<int64_t>{255, 0}));
}

TEST(HostTensorTest, FloatsReadAsIntegersSaturate) {
  // A float tensor used as indices (found by hidet-onnx-fuzzer under
  // UBSan: 6e29 converted to int64).
  HostTensor f =
      HostTensor::fromDoubles(DType::F32, {4}, {6e29, -6e29, -2.75, NAN});
  EXPECT_EQ(f.getInts(),
            (llvm::SmallVector<int64_t>{std::numeric_limits<int64_t>::max(),
                                        std::numeric_limits<int64_t>::min(),
                                        -2, 0}));
}

TEST(HostTensorTest, OutOfRangeValuesSaturate) {
  // Folded int64 arithmetic past int64's range (found by hidet-onnx-fuzzer
  // under UBSan): saturated, NaN as 0.
  HostTensor i = HostTensor::zeros(DType::I64, {4});
  i.setDouble(0, 1.6e19);
  i.setDouble(1, -1.6e19);
  i.setDouble(2, std::nan(""));
  i.setDouble(3, -7.9);
  EXPECT_EQ(i.getInts(),
            (llvm::SmallVector<int64_t>{std::numeric_limits<int64_t>::max(),
                                        std::numeric_limits<int64_t>::min(),
                                        0, -7}));
  HostTensor u = HostTensor::zeros(DType::U64, {3});
  u.setDouble(0, 4e19);
  u.setDouble(1, -1);
  u.setDouble(2, 12.5);
  EXPECT_EQ(u.getDouble(0), 0x1p64);
  EXPECT_EQ(u.getDouble(1), 0);
  EXPECT_EQ(u.getDouble(2), 12);
}

TEST(HostTensorTest, CheckedProductRejectsOverflowAndNegativeExtents) {
  EXPECT_EQ(checkedProduct({}), 1);
  EXPECT_EQ(checkedProduct({2, 3, 4}), 24);
  EXPECT_EQ(checkedProduct({0, int64_t(1) << 62}), 0);
  EXPECT_EQ(checkedProduct({int64_t(1) << 31, int64_t(1) << 31}),
            int64_t(1) << 62);
  // The extents of a damaged model hidet-onnx-fuzzer found.
  EXPECT_FALSE(checkedProduct({71468255805441, 35184372088835}));
  EXPECT_FALSE(checkedProduct({int64_t(1) << 32, int64_t(1) << 32}));
  EXPECT_FALSE(checkedProduct({4, -1}));
}

TEST(HostTensorTest, MoveDataTransposes) {
  HostTensor t = HostTensor::fromInts(DType::I64, {2, 3}, {0, 1, 2, 3, 4, 5});
  HostTensor tt = moveData(t, {3, 2}, [](llvm::ArrayRef<int64_t> idx) {
    return linearIndex({idx[1], idx[0]}, {2, 3});
  });
  EXPECT_EQ(tt.getInts(), (llvm::SmallVector<int64_t>{0, 3, 1, 4, 2, 5}));
}

/// A model `y = x + w` whose 32-element weight `w` is stored as ONNX
/// external data at byte 8 of `weights.bin`.
std::string writeExternalDataModel(llvm::StringRef dir) {
  onnx::ModelProto model;
  model.set_ir_version(8);
  model.add_opset_import()->set_version(17);
  onnx::GraphProto *g = model.mutable_graph();
  g->set_name("external");
  auto addValue =
      [](google::protobuf::RepeatedPtrField<onnx::ValueInfoProto> *list,
         const char *name) {
        onnx::ValueInfoProto *v = list->Add();
        v->set_name(name);
        auto *t = v->mutable_type()->mutable_tensor_type();
        t->set_elem_type(onnx::TensorProto::FLOAT);
        t->mutable_shape()->add_dim()->set_dim_value(32);
      };
  addValue(g->mutable_input(), "x");
  addValue(g->mutable_output(), "y");
  onnx::TensorProto *w = g->add_initializer();
  w->set_name("w");
  w->set_data_type(onnx::TensorProto::FLOAT);
  w->add_dims(32);
  w->set_data_location(onnx::TensorProto::EXTERNAL);
  auto addEntry = [&](const char *key, const char *value) {
    onnx::StringStringEntryProto *e = w->add_external_data();
    e->set_key(key);
    e->set_value(value);
  };
  addEntry("location", "weights.bin");
  addEntry("offset", "8");
  addEntry("length", "128");
  onnx::NodeProto *add = g->add_node();
  add->set_op_type("Add");
  add->add_input("x");
  add->add_input("w");
  add->add_output("y");

  llvm::SmallString<128> modelPath(dir);
  llvm::sys::path::append(modelPath, "model.onnx");
  std::ofstream(modelPath.c_str(), std::ios::binary)
      << model.SerializeAsString();
  llvm::SmallString<128> dataPath(dir);
  llvm::sys::path::append(dataPath, "weights.bin");
  std::ofstream data(dataPath.c_str(), std::ios::binary);
  data << "padding!";
  for (int i = 0; i < 32; ++i) {
    float v = 0.5f * i;
    data.write(reinterpret_cast<const char *>(&v), sizeof(v));
  }
  return modelPath.str().str();
}

TEST(OnnxImporterTest, ReadsExternalData) {
  llvm::SmallString<128> dir;
  ASSERT_FALSE(llvm::sys::fs::createUniqueDirectory("onnx-external", dir));
  std::string path = writeExternalDataModel(dir);

  mlir::MLIRContext context;
  std::string diagnostics;
  context.getDiagEngine().registerHandler(
      [&](mlir::Diagnostic &d) { diagnostics += d.str() + "\n"; });
  ImportOptions options;
  mlir::OwningOpRef<mlir::ModuleOp> module =
      importOnnxFile(path, &context, options);
  ASSERT_TRUE(module) << diagnostics;

  // The weight is a 32-element constant holding the file's floats.
  mlir::arith::ConstantOp weight;
  module->walk([&](mlir::arith::ConstantOp op) {
    if (auto type = llvm::dyn_cast<mlir::RankedTensorType>(op.getType()))
      if (type.getNumElements() == 32)
        weight = op;
  });
  ASSERT_TRUE(weight);
  auto blob =
      llvm::dyn_cast<mlir::DenseResourceElementsAttr>(weight.getValue());
  ASSERT_TRUE(blob);
  std::optional<llvm::ArrayRef<float>> values =
      llvm::cast<mlir::DenseF32ResourceElementsAttr>(blob).tryGetAsArrayRef();
  ASSERT_TRUE(values);
  ASSERT_EQ(values->size(), 32u);
  for (int i = 0; i < 32; ++i)
    EXPECT_EQ((*values)[i], 0.5f * i);

  // A data file shorter than the tensor is an error naming the tensor.
  llvm::SmallString<128> dataPath(dir);
  llvm::sys::path::append(dataPath, "weights.bin");
  {
    std::ofstream truncated(dataPath.c_str(),
                            std::ios::binary | std::ios::trunc);
    truncated << std::string(64, '\0');
  }
  mlir::MLIRContext context2;
  std::string errors;
  context2.getDiagEngine().registerHandler(
      [&](mlir::Diagnostic &d) { errors += d.str() + "\n"; });
  EXPECT_FALSE(importOnnxFile(path, &context2, options));
  EXPECT_NE(errors.find("external data of 'w' lies outside"), std::string::npos)
      << errors;
  llvm::sys::fs::remove_directories(dir);
}

} // namespace
