//===- TaskMappingDialect.cpp - TaskMapping dialect -----------------------===//
//
// Part of the Hidet-MLIR project.
//
//===----------------------------------------------------------------------===//
//
// This file implements the TaskMapping dialect: registration, attribute
// dispatch (including the `auto_map` spelling) and constant materialization.
//
//===----------------------------------------------------------------------===//

#include "Hidet/Dialect/TaskMapping/IR/TaskMapping.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/DialectImplementation.h"
#include "mlir/Transforms/InliningUtils.h"

using namespace mlir;
using namespace hidet::tm;

#include "Hidet/Dialect/TaskMapping/IR/TaskMappingOpsDialect.cpp.inc"

namespace {
/// The tm ops hold no state tied to their enclosing function, so they may be
/// inlined anywhere.
struct TaskMappingInlinerInterface : public DialectInlinerInterface {
  using DialectInlinerInterface::DialectInlinerInterface;
  bool isLegalToInline(Operation *, Region *, bool, IRMapping &) const final {
    return true;
  }
  bool isLegalToInline(Region *, Region *, bool, IRMapping &) const final {
    return true;
  }
};
} // namespace

void TaskMappingDialect::initialize() {
  registerAttributes();
  addOperations<
#define GET_OP_LIST
#include "Hidet/Dialect/TaskMapping/IR/TaskMappingOps.cpp.inc"
      >();
  addInterfaces<TaskMappingInlinerInterface>();
}

Operation *TaskMappingDialect::materializeConstant(OpBuilder &builder,
                                                   Attribute value, Type type,
                                                   Location loc) {
  return arith::ConstantOp::materialize(builder, value, type, loc);
}
