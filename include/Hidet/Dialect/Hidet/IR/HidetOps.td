//===- HidetOps.td - Hidet operations ----------------------*- tablegen -*-===//
//
// Part of the Hidet-MLIR project.
//
//===----------------------------------------------------------------------===//

#ifndef HIDET_DIALECT_HIDET_IR_HIDETOPS_TD
#define HIDET_DIALECT_HIDET_IR_HIDETOPS_TD

include "Hidet/Dialect/Hidet/IR/HidetAttrs.td"
include "mlir/Interfaces/SideEffectInterfaces.td"

class Hidet_Op<string mnemonic, list<Trait> traits = []>
    : Op<Hidet_Dialect, mnemonic, traits>;

def Hidet_PersistentCountersOp : Hidet_Op<"persistent_counters", [
    MemoryEffects<[MemAlloc<DefaultResource>]>]> {
  let summary = "A kernel's array of counters, zero at its first launch.";
  let description = [{
    Inside a `gpu.launch`: an array of `i32` in global memory that belongs to
    the kernel and outlives each launch. It holds zeros when the kernel first
    runs, and every launch must leave it zero again (its last user resets
    what it counted). The GEMM templates count with it, per part of an
    output tile, the K slices stored so far, so that the last one adds them
    in the kernel (split-K without a second kernel).

    Function passes create it; the module pass
    `hidet-materialize-persistent-counters` turns each into a zero-initialized
    `memref.global` of the module and a `memref.get_global`, which kernel
    outlining copies into the kernel's module.

    ```mlir
    %counters = hidet.persistent_counters : memref<32xi32>
    ```
  }];
  let results = (outs Res<StaticShapeMemRefOf<[I32]>, "",
                          [MemAlloc<DefaultResource>]>:$counters);
  let assemblyFormat = "attr-dict `:` type($counters)";
  let hasVerifier = 1;
}

#endif // HIDET_DIALECT_HIDET_IR_HIDETOPS_TD
