//===- ReshapedIndexTest.cpp - Tests of reshaped positions ----------------===//
//
// Part of the Hidet-MLIR project.
//
//===----------------------------------------------------------------------===//
//
// kernel::reshapedIndex, which epilogue chains store through: for every
// element of the source shape, the index ops it builds are evaluated and
// must give the element of the same row-major offset in the result shape.
// The ops must be unsigned divisions and remainders, within groups.
//
//===----------------------------------------------------------------------===//

#include "LinalgPayload.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/MLIRContext.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/TypeSwitch.h"

#include "gtest/gtest.h"

#include <set>
#include <string>

using namespace mlir;

namespace {

class ReshapedIndexTest : public ::testing::Test {
protected:
  ReshapedIndexTest() : b(&ctx) {
    ctx.loadDialect<arith::ArithDialect, func::FuncDialect>();
  }

  /// Builds reshapedIndex for index arguments of a function, and checks
  /// every element of `from`; returns the names of the ops it built.
  std::multiset<std::string> check(ArrayRef<int64_t> from,
                                   ArrayRef<int64_t> to) {
    OwningOpRef<ModuleOp> module = ModuleOp::create(b.getUnknownLoc());
    b.setInsertionPointToEnd(module->getBody());
    SmallVector<Type> args(from.size(), b.getIndexType());
    auto func = func::FuncOp::create(b, b.getUnknownLoc(), "f",
                                     b.getFunctionType(args, {}));
    Block *body = func.addEntryBlock();
    b.setInsertionPointToStart(body);
    SmallVector<Value> results =
        hidet::kernel::reshapedIndex(b, b.getUnknownLoc(),
                                     body->getArguments(), from, to);
    EXPECT_EQ(results.size(), to.size());

    std::multiset<std::string> names;
    for (Operation &op : *body)
      names.insert(op.getName().getStringRef().str());

    int64_t count = 1;
    for (int64_t e : from)
      count *= e;
    for (int64_t flat = 0; flat < count; ++flat) {
      DenseMap<Value, int64_t> value;
      for (int64_t d = from.size() - 1, rest = flat; d >= 0; --d) {
        value[body->getArgument(d)] = rest % from[d];
        rest /= from[d];
      }
      for (Operation &op : *body) {
        auto at = [&](unsigned i) { return value.at(op.getOperand(i)); };
        int64_t v = llvm::TypeSwitch<Operation *, int64_t>(&op)
                        .Case([&](arith::ConstantIndexOp c) {
                          return c.value();
                        })
                        .Case([&](arith::MulIOp) { return at(0) * at(1); })
                        .Case([&](arith::AddIOp) { return at(0) + at(1); })
                        .Case([&](arith::DivUIOp) { return at(0) / at(1); })
                        .Case([&](arith::RemUIOp) { return at(0) % at(1); })
                        .Default([&](Operation *o) {
                          ADD_FAILURE() << "unexpected op "
                                        << o->getName().getStringRef().str();
                          return 0;
                        });
        value[op.getResult(0)] = v;
      }
      for (int64_t d = to.size() - 1, rest = flat; d >= 0; --d) {
        EXPECT_EQ(value.at(results[d]), rest % to[d])
            << "element " << flat << ", result dimension " << d;
        rest /= to[d];
      }
    }
    return names;
  }

  MLIRContext ctx;
  OpBuilder b;
};

TEST_F(ReshapedIndexTest, SameShapeBuildsNothing) {
  EXPECT_TRUE(check({4, 6}, {4, 6}).empty());
}

// GPT-2's logits: rows split into batch and sequence, the 50257 columns kept
// (a smaller column count here): no division by the column count.
TEST_F(ReshapedIndexTest, ExpandRowsKeepsColumns) {
  std::multiset<std::string> ops = check({64, 7}, {4, 16, 7});
  EXPECT_EQ(ops.count("arith.divui"), 1u);
  EXPECT_EQ(ops.count("arith.remui"), 1u);
  EXPECT_EQ(ops.count("arith.muli"), 0u);
}

TEST_F(ReshapedIndexTest, HeadsView) { check({256, 24}, {2, 128, 3, 8}); }

TEST_F(ReshapedIndexTest, Collapse) {
  std::multiset<std::string> ops = check({2, 3, 5}, {6, 5});
  EXPECT_EQ(ops.count("arith.muli"), 1u);
  EXPECT_EQ(ops.count("arith.divui"), 0u);
}

TEST_F(ReshapedIndexTest, CollapseAndExpandInOneGroup) {
  check({6, 4}, {3, 8});
  check({4, 6, 5}, {8, 15});
}

TEST_F(ReshapedIndexTest, UnitDimensions) {
  check({1, 12, 5}, {12, 5});
  check({12, 5}, {1, 12, 1, 5, 1});
  check({12, 1, 5, 1}, {60});
  check({1}, {1, 1});
}
} // namespace
