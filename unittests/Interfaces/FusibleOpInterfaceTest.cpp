//===- FusibleOpInterfaceTest.cpp - Tests of the fusion index maps --------===//
//
// Part of the Hidet-MLIR project.
//
//===----------------------------------------------------------------------===//
//
// The inverse index maps that epilogue fusion re-indexes stores through:
// each is checked by mapping every element of the operand and checking that
// the results cover the result's elements exactly once.
//
//===----------------------------------------------------------------------===//

#include "Hidet/Interfaces/FusibleOpInterface.h"
#include "Hidet/InitAllDialects.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/DialectRegistry.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Parser/Parser.h"

#include "gtest/gtest.h"

#include <set>

using namespace mlir;

namespace {

class FusibleOpInterfaceTest : public ::testing::Test {
protected:
  FusibleOpInterfaceTest() {
    DialectRegistry registry;
    hidet::registerHidetDialects(registry);
    registry.insert<func::FuncDialect, tensor::TensorDialect>();
    ctx.appendDialectRegistry(registry);
    ctx.loadAllAvailableDialects();
  }

  /// The first op of the body of the only function of `source`.
  Operation *firstOp(const char *source) {
    module = parseSourceString<ModuleOp>(source, &ctx);
    EXPECT_TRUE(module);
    auto func = cast<func::FuncOp>(module->getBody()->front());
    return &func.front().front();
  }

  /// Checks that `map` sends the elements of `from` one-to-one onto those
  /// of `to`.
  static void expectBijection(AffineMap map, ArrayRef<int64_t> from,
                              ArrayRef<int64_t> to) {
    std::set<SmallVector<int64_t>> seen;
    int64_t count = 1;
    for (int64_t e : from)
      count *= e;
    for (int64_t flat = 0; flat < count; ++flat) {
      SmallVector<int64_t> index(from.size());
      for (int64_t d = from.size() - 1, rest = flat; d >= 0; --d) {
        index[d] = rest % from[d];
        rest /= from[d];
      }
      SmallVector<int64_t> image = map.compose(index);
      ASSERT_EQ(image.size(), to.size());
      for (auto [x, extent] : llvm::zip_equal(image, to)) {
        EXPECT_GE(x, 0);
        EXPECT_LT(x, extent);
      }
      seen.insert(image);
    }
    EXPECT_EQ(static_cast<int64_t>(seen.size()), count);
  }

  /// `op`'s inverse index map for its operand `i`.
  static FailureOr<AffineMap> inverseOf(Operation *op, unsigned i) {
    return cast<hidet::FusibleOpInterface>(op).getInverseIndexMap(
        op->getOpOperand(i));
  }
  static bool injective(Operation *op) {
    return cast<hidet::FusibleOpInterface>(op).isInjective();
  }

  MLIRContext ctx;
  OwningOpRef<ModuleOp> module;
};

TEST_F(FusibleOpInterfaceTest, TransposeIsBijective) {
  Operation *op = firstOp(R"mlir(
    func.func @f(%x: tensor<2x3x4xf32>, %e: tensor<4x2x3xf32>) -> tensor<4x2x3xf32> {
      %t = linalg.transpose ins(%x : tensor<2x3x4xf32>) outs(%e : tensor<4x2x3xf32>) permutation = [2, 0, 1]
      return %t : tensor<4x2x3xf32>
    })mlir");
  EXPECT_TRUE(injective(op));
  FailureOr<AffineMap> inverse = inverseOf(op, 0);
  ASSERT_TRUE(succeeded(inverse));
  // Element (a, b, c) of x is element (c, a, b) of the result.
  EXPECT_EQ(inverse->compose(ArrayRef<int64_t>{1, 2, 3}),
            (SmallVector<int64_t>{3, 1, 2}));
  expectBijection(*inverse, {2, 3, 4}, {4, 2, 3});
  // The init is not read: no map for it.
  EXPECT_TRUE(failed(inverseOf(op, 1)));
}

TEST_F(FusibleOpInterfaceTest, BroadcastOperandHasNoInverse) {
  Operation *op = firstOp(R"mlir(
    func.func @f(%x: tensor<4x8xf32>, %b: tensor<8xf32>, %e: tensor<4x8xf32>) -> tensor<4x8xf32> {
      %r = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]}
          ins(%x, %b : tensor<4x8xf32>, tensor<8xf32>) outs(%e : tensor<4x8xf32>) {
      ^bb0(%a: f32, %c: f32, %o: f32):
        %s = arith.addf %a, %c : f32
        linalg.yield %s : f32
      } -> tensor<4x8xf32>
      return %r : tensor<4x8xf32>
    })mlir");
  EXPECT_TRUE(injective(op));
  FailureOr<AffineMap> inverse = inverseOf(op, 0);
  ASSERT_TRUE(succeeded(inverse));
  EXPECT_TRUE(inverse->isIdentity());
  EXPECT_TRUE(failed(inverseOf(op, 1)));
}

TEST_F(FusibleOpInterfaceTest, ReshapesLinearizeAndDelinearize) {
  Operation *expand = firstOp(R"mlir(
    func.func @f(%x: tensor<6x20xf32>) -> tensor<6x4x5xf32> {
      %r = tensor.expand_shape %x [[0], [1, 2]] output_shape [6, 4, 5] : tensor<6x20xf32> into tensor<6x4x5xf32>
      return %r : tensor<6x4x5xf32>
    })mlir");
  FailureOr<AffineMap> inverse = inverseOf(expand, 0);
  ASSERT_TRUE(succeeded(inverse));
  EXPECT_EQ(inverse->compose(ArrayRef<int64_t>{2, 13}),
            (SmallVector<int64_t>{2, 2, 3}));
  expectBijection(*inverse, {6, 20}, {6, 4, 5});

  Operation *collapse = firstOp(R"mlir(
    func.func @f(%x: tensor<3x4x5xf32>) -> tensor<12x5xf32> {
      %r = tensor.collapse_shape %x [[0, 1], [2]] : tensor<3x4x5xf32> into tensor<12x5xf32>
      return %r : tensor<12x5xf32>
    })mlir");
  inverse = inverseOf(collapse, 0);
  ASSERT_TRUE(succeeded(inverse));
  EXPECT_EQ(inverse->compose(ArrayRef<int64_t>{2, 3, 4}),
            (SmallVector<int64_t>{11, 4}));
  expectBijection(*inverse, {3, 4, 5}, {12, 5});
}

TEST_F(FusibleOpInterfaceTest, AnchorsAndInjectiveOnlyOps) {
  Operation *matmul = firstOp(R"mlir(
    func.func @f(%a: tensor<4x8xf32>, %b: tensor<8x4xf32>, %c: tensor<4x4xf32>) -> tensor<4x4xf32> {
      %r = linalg.matmul ins(%a, %b : tensor<4x8xf32>, tensor<8x4xf32>) outs(%c : tensor<4x4xf32>) -> tensor<4x4xf32>
      return %r : tensor<4x4xf32>
    })mlir");
  EXPECT_FALSE(injective(matmul));
  EXPECT_TRUE(failed(inverseOf(matmul, 0)));

  Operation *pad = firstOp(R"mlir(
    func.func @f(%x: tensor<4x4xf32>, %z: f32) -> tensor<6x6xf32> {
      %p = tensor.pad %x low[1, 1] high[1, 1] {
      ^bb0(%i: index, %j: index):
        tensor.yield %z : f32
      } : tensor<4x4xf32> to tensor<6x6xf32>
      return %p : tensor<6x6xf32>
    })mlir");
  EXPECT_TRUE(injective(pad));
  EXPECT_TRUE(failed(inverseOf(pad, 0)));
}

} // namespace
