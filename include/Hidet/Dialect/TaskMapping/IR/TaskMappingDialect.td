//===- TaskMappingDialect.td - TaskMapping dialect ---------*- tablegen -*-===//
//
// Part of the Hidet-MLIR project.
//
//===----------------------------------------------------------------------===//

#ifndef HIDET_DIALECT_TASKMAPPING_IR_TASKMAPPINGDIALECT_TD
#define HIDET_DIALECT_TASKMAPPING_IR_TASKMAPPINGDIALECT_TD

include "mlir/IR/OpBase.td"
include "mlir/IR/AttrTypeBase.td"

def TaskMapping_Dialect : Dialect {
  let name = "tm";
  let cppNamespace = "::hidet::tm";
  let summary = "Hidet task mappings: which worker performs which tasks.";
  let description = [{
    The TaskMapping dialect brings the task-mapping programming paradigm of
    Hidet (ASPLOS'23) to MLIR. A *task mapping* assigns the tasks of a task
    grid (a shape such as `[8, 8]`) to a number of workers (threads, warps,
    lanes or blocks) and fixes the order in which each worker performs its
    tasks. Mappings are built from two primitives, `#tm.spatial` (one task per
    worker) and `#tm.repeat` (one worker performs every task, in loop order),
    and combined by composition `#tm.compose<outer * inner>`.

    The dialect sits between linalg (what to compute) and gpu/nvgpu/nvvm (the
    hardware): schedule templates describe how threads cooperate with task
    mappings, and `convert-tm-to-scf` lowers the ops that iterate a worker's
    tasks to `scf`/`arith` index arithmetic on GPU ids.

    The meaning of every mapping is defined once, by the plain C++ algebra in
    `include/Hidet/Algebra/TaskMapping.h`; see
    `docs/TaskMappingGuide.md` for worked examples.
  }];
  let useDefaultAttributePrinterParser = 0;
  let hasConstantMaterializer = 1;
  let dependentDialects = ["::mlir::arith::ArithDialect"];
  let extraClassDeclaration = [{
    void registerAttributes();
    ::mlir::Attribute parseAttribute(::mlir::DialectAsmParser &parser,
                                     ::mlir::Type type) const override;
    void printAttribute(::mlir::Attribute attr,
                        ::mlir::DialectAsmPrinter &printer) const override;
  }];
}

class TaskMapping_Op<string mnemonic, list<Trait> traits = []>
    : Op<TaskMapping_Dialect, mnemonic, traits>;

class TaskMapping_Attr<string name, string attrMnemonic,
                       list<Trait> traits = []>
    : AttrDef<TaskMapping_Dialect, name, traits> {
  let mnemonic = attrMnemonic;
}

#endif // HIDET_DIALECT_TASKMAPPING_IR_TASKMAPPINGDIALECT_TD
