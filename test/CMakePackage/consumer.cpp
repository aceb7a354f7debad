//===- consumer.cpp - A compiler that embeds Hidet-MLIR -------------------===//
//
// Part of the Hidet-MLIR project.
//
//===----------------------------------------------------------------------===//
//
// Parses a module with a tm.foreach, lowers it with the project's pass, and
// checks that no tm op is left: the smallest program an embedding compiler
// would write. Exits non-zero on any failure.
//
//===----------------------------------------------------------------------===//

#include "Hidet/Conversion/Passes.h"
#include "Hidet/Dialect/TaskMapping/IR/TaskMapping.h"
#include "Hidet/InitAllDialects.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Pass/PassManager.h"
#include "llvm/Support/raw_ostream.h"

int main() {
  mlir::DialectRegistry registry;
  hidet::registerHidetDialects(registry);
  registry.insert<mlir::func::FuncDialect>();
  mlir::MLIRContext context(registry);

  const char *source = R"mlir(
    func.func @f(%w: index) {
      tm.foreach (%i, %j) in #tm.compose<repeat<[2, 1]> * spatial<[4, 8]>>
          on %w upper_bound 32 {
        "test.use"(%i, %j) : (index, index) -> ()
      }
      return
    }
  )mlir";
  context.loadAllAvailableDialects();
  context.allowUnregisteredDialects();
  mlir::OwningOpRef<mlir::ModuleOp> module =
      mlir::parseSourceString<mlir::ModuleOp>(source, &context);
  if (!module)
    return 1;
  mlir::PassManager pm(&context);
  pm.addPass(hidet::createConvertTaskMappingToSCF());
  if (mlir::failed(pm.run(*module)))
    return 2;
  bool leftover = false;
  module->walk([&](mlir::Operation *op) {
    leftover |= op->getName().getDialectNamespace() == "tm";
  });
  if (leftover)
    return 3;
  llvm::outs() << "hidet-consumer: lowered tm.foreach through find_package(Hidet)\n";
  return 0;
}
