//===- HidetAttrs.td - Hidet schedule attributes -----------*- tablegen -*-===//
//
// Part of the Hidet-MLIR project.
//
//===----------------------------------------------------------------------===//

#ifndef HIDET_DIALECT_HIDET_IR_HIDETATTRS_TD
#define HIDET_DIALECT_HIDET_IR_HIDETATTRS_TD

include "mlir/IR/OpBase.td"
include "mlir/IR/AttrTypeBase.td"

def Hidet_Dialect : Dialect {
  let name = "hidet";
  let cppNamespace = "::hidet";
  let summary = "Schedules of Hidet's anchor-op templates, as data.";
  let description = [{
    The `hidet` dialect holds the schedule attributes of the anchor-op
    templates (matmul, convolution, reduction). A schedule is chosen once
    (by a heuristic, a tuner or a user writing it in the IR) and attached to
    the anchor op as `hidet.schedule`; the passes that instantiate templates
    only read it.
  }];
  let useDefaultAttributePrinterParser = 1;
}

/// A list of integers written `[a, b]`.
def Hidet_IntList : ArrayRefParameter<"int64_t", "list of integers"> {
  let parser = "::hidet::parseIntList($_parser)";
  let printer = "::hidet::printIntList($_printer, $_self)";
}

def Hidet_SimtMatmulAttr : AttrDef<Hidet_Dialect, "SimtMatmul"> {
  let mnemonic = "simt_matmul";
  let summary = "Schedule of the SIMT (CUDA-core) matmul template.";
  let description = [{
    The paper's SIMT matmul template: the block's tile is the composed task
    mapping

    ```
    spatial(block_warps) * repeat(warp_outer) * spatial(warp_mid) * repeat(warp_inner)
    ```

    (`warp_mid` is a 32-lane spatial shape), so the block tile is
    `block_warps * warp_outer * warp_mid * warp_inner` in each dimension and
    each thread accumulates `warp_outer * warp_inner` outputs in registers.
    Each step of the K loop stages a `BM x block_k` tile of A and a
    `block_k x BN` tile of B in shared memory (zero-filled past the edges).

    Example (the default: 128 x 128 tiles, 256 threads, 64 outputs each):

    ```mlir
    #hidet.simt_matmul<block_warps = [4, 2], warp_outer = [2, 2],
                       warp_mid = [4, 8], warp_inner = [4, 4], block_k = 8>
    ```
  }];
  let parameters = (ins Hidet_IntList:$block_warps, Hidet_IntList:$warp_outer,
                        Hidet_IntList:$warp_mid, Hidet_IntList:$warp_inner,
                        "int64_t":$block_k);
  let assemblyFormat = "`<` struct(params) `>`";
  let genVerifyDecl = 1;
  let builders = [
    AttrBuilder<(ins "const ::hidet::schedule::SimtMatmulSchedule &":$s)>
  ];
  let extraClassDeclaration = [{
    /// The schedule as plain data (Hidet/Schedule/SimtMatmulSpace.h).
    ::hidet::schedule::SimtMatmulSchedule toSchedule() const;
    /// Threads per block.
    int64_t getNumThreads() const;
    /// Block tile extents (rows, columns).
    int64_t getBlockM() const;
    int64_t getBlockN() const;
  }];
}

#endif // HIDET_DIALECT_HIDET_IR_HIDETATTRS_TD
