//===- TaskMappingInterfaces.td - Task-mapping interface ---*- tablegen -*-===//
//
// Part of the Hidet-MLIR project.
//
//===----------------------------------------------------------------------===//

#ifndef HIDET_DIALECT_TASKMAPPING_IR_TASKMAPPINGINTERFACES_TD
#define HIDET_DIALECT_TASKMAPPING_IR_TASKMAPPINGINTERFACES_TD

include "mlir/IR/OpBase.td"

def TaskMappingAttrInterface : AttrInterface<"TaskMappingAttrInterface"> {
  let cppNamespace = "::hidet::tm";
  let description = [{
    An attribute that denotes a task mapping: a number of workers, a task
    shape and, for each worker, an ordered list of tasks.

    An implementation only says which algebraic mapping it denotes
    (`toAlgebra`); the number of workers, the task shape, the task table and
    the emitted index arithmetic all derive from that, so every client sees
    the same semantics. Other dialects can implement this interface to make
    their own layouts iterable by `tm.foreach` and printable by
    `tm-print-task-table`.
  }];
  let methods = [
    InterfaceMethod<
      /*desc=*/"Returns the mapping in the plain C++ task-mapping algebra.",
      /*retTy=*/"::hidet::algebra::TaskMapping",
      /*methodName=*/"toAlgebra">,
  ];
  let extraSharedClassDeclaration = [{
    /// Number of workers the mapping distributes tasks over.
    int64_t getNumWorkers() const { return $_attr.toAlgebra().getNumWorkers(); }
    /// Extents of the task grid.
    ::llvm::SmallVector<int64_t> getTaskShape() const {
      // Keep the mapping alive: getTaskShape() returns a reference into it.
      ::hidet::algebra::TaskMapping mapping = $_attr.toAlgebra();
      const auto &shape = mapping.getTaskShape();
      return ::llvm::SmallVector<int64_t>(shape.begin(), shape.end());
    }
    /// Rank of the task grid.
    size_t getTaskRank() const { return $_attr.toAlgebra().getRank(); }
    /// The ordered tasks of a constant worker.
    std::vector<::hidet::algebra::Task> getTasksOf(int64_t worker) const {
      return $_attr.toAlgebra().tasksOf(worker);
    }
  }];
}

#endif // HIDET_DIALECT_TASKMAPPING_IR_TASKMAPPINGINTERFACES_TD
