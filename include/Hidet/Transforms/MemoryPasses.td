//===- MemoryPasses.td - Buffer and weight passes ----------*- tablegen -*-===//
//
// Part of the Hidet-MLIR project.
//
//===----------------------------------------------------------------------===//

#ifndef HIDET_TRANSFORMS_MEMORY_PASSES_TD
#define HIDET_TRANSFORMS_MEMORY_PASSES_TD

include "mlir/Pass/PassBase.td"

def HostBuffersToDevice : Pass<"hidet-host-buffers-to-device",
                               "::mlir::func::FuncOp"> {
  let summary = "Places the host function's temporary buffers in device "
                "memory.";
  let description = [{
    After scheduling, every kernel reads and writes device memory, and the
    host function only passes buffers around. This pass rewrites the host
    function's `memref.alloc`/`memref.dealloc` into `gpu.alloc`/
    `gpu.dealloc`, copies `memref.get_global` constants into device buffers
    once per call (`gpu.memcpy`), and turns a remaining `memref.copy`
    between device buffers into `gpu.memcpy`. Function arguments are assumed
    to be device buffers (the calling convention of the GPU library).

    The host cannot dereference a device pointer, so any op left in the host
    code that reads or writes a device buffer (an argument, a `gpu.alloc`,
    or a view of one) is an error at that op: a `memref.load` from a
    scalar read at the top level that something other than a linalg body
    uses (`hidet-sink-scalar-reads` moves the others into the kernels), a
    `memref.store` of `tensor.from_elements` or `tensor.insert`, a linalg
    op that no kernel was built for.
  }];
  let dependentDialects = ["::mlir::gpu::GPUDialect",
                           "::mlir::memref::MemRefDialect"];
}

def ReferenceBufferize : Pass<"hidet-reference-bufferize",
                              "::mlir::ModuleOp"> {
  let summary = "Bufferizes the CPU reference with upstream transform ops "
                "only.";
  let description = [{
    The CPU reference pipeline (`hidet-cpu-reference-pipeline`) must share
    no pass with the GPU path, whose stage 1 (`hidet-bufferize`) decomposes
    aggregated ops and rewrites copies with passes of this project. Upstream
    has both steps only as transform ops, so this pass applies a fixed
    script of upstream transform ops with upstream's transform interpreter
    (`transform::applyTransformNamedSequence`) and does nothing else:

    ```mlir
    %aggregates = transform.structured.match ops{["linalg.softmax"]} in %module
    transform.structured.decompose_interface %aggregates
    transform.bufferization.one_shot_bufferize layout{IdentityLayoutMap} %module
        {bufferize_function_boundaries = true, memcpy_op = "linalg.copy"}
    ```

    `linalg.softmax` (the only op of upstream's `AggregatedOpInterface`)
    becomes its max, exp, sum and division ops; the module is bufferized
    with identity layouts at function boundaries (the libraries' memref
    descriptors), and the copies that bufferization needs (a
    `tensor.insert_slice`'s source into its strided destination) are
    `linalg.copy`, which lowers to loops, where a strided `memref.copy`
    would call the C runner library. An input that one-shot bufferization
    rejects fails the pass with its diagnostic.
  }];
  let dependentDialects = ["::mlir::bufferization::BufferizationDialect",
                           "::mlir::linalg::LinalgDialect",
                           "::mlir::memref::MemRefDialect",
                           "::mlir::transform::TransformDialect"];
}

def ResultsInPlace : Pass<"hidet-results-in-place", "::mlir::func::FuncOp"> {
  let summary = "Computes results returned through a reshape in their output "
                "buffers.";
  let description = [{
    After `buffer-results-to-out-params`, a result that the function
    returned as a reshape of its own allocation (a GEMM computed on 2-D rows
    and returned as batch x tokens x features) is a copy of that reshape
    into the output buffer: upstream hoists only allocations returned as
    they are. This pass replaces the allocation with the inverse reshape of
    the output buffer (`memref.collapse_shape` for an `expand_shape`, and
    the reverse) and drops the copy, so the producers write the output
    directly. It applies where the output buffer is a function argument
    used by the copy alone, both layouts are the identity, the allocation
    is static, and every other use of the allocation comes before the copy
    in its block (its deallocations are dropped with it).

    Example:

    ```mlir
    %a = memref.alloc() : memref<32x24xf32>
    linalg.matmul ins(...) outs(%a : memref<32x24xf32>)
    %e = memref.expand_shape %a [[0, 1], [2]] output_shape [4, 8, 24] ...
    memref.copy %e, %out : memref<4x8x24xf32> to memref<4x8x24xf32>
    ```

    becomes

    ```mlir
    %a = memref.collapse_shape %out [[0, 1], [2]] : memref<4x8x24xf32> into memref<32x24xf32>
    linalg.matmul ins(...) outs(%a : memref<32x24xf32>)
    ```
  }];
  let dependentDialects = ["::mlir::memref::MemRefDialect"];
}

def PlanDeviceMemory : Pass<"hidet-plan-device-memory",
                            "::mlir::func::FuncOp"> {
  let summary = "Places a host function's device temporaries in one arena "
                "that the caller provides, shared by liveness.";
  let description = [{
    After `hidet-host-buffers-to-device`, every temporary of a public host
    function is a `gpu.alloc` released at the end of the function. This
    pass gives each one a byte offset in a single workspace buffer, passed
    by the caller as a new last argument `memref<?xi8>` marked
    `hidet.workspace`: the temporaries become `memref.view`s of it and the
    `gpu.alloc`/`gpu.dealloc` pairs disappear, so a call allocates nothing
    and can be captured in a CUDA graph.

    Live ranges are the positions, in the function's entry block, of a
    buffer's first and last use: uses of any value that an op of the block
    derives from it count (a view, a TMA descriptor or a pointer, which a
    later launch may take instead of the buffer), and a use inside a region
    counts at its top-level ancestor. Kernels run in
    program order on one stream, so buffers whose live ranges are disjoint
    share bytes. The placement is greedy by size (Hidet/Analysis/MemoryPlan.h).
    Writing in place is decided earlier, by one-shot bufferization (an op
    whose destination operand is an input's tensor writes into that
    buffer), so here every buffer is planned apart from the ones it is live
    with.

    The function gets `hidet.workspace = {size, intermediates, buffers}`:
    the arena's size and the sum of the planned buffers' sizes in bytes, and
    how many buffers were planned. `hidet-compile` writes the size into the
    library's manifest. Temporaries with dynamic shapes, non-identity
    layouts or outside the entry block are left as they are; private
    functions are left alone (their callers would need the argument).

    ```mlir
    %0 = gpu.alloc () : memref<4x8xf32>
    ...
    gpu.dealloc %0 : memref<4x8xf32>
    ```
    becomes, with `%ws: memref<?xi8> {hidet.workspace}` the new argument,
    ```mlir
    %c0 = arith.constant 0 : index
    %0 = memref.view %ws[%c0][] : memref<?xi8> to memref<4x8xf32>
    ```
  }];
  let options = [
    Option<"alignment", "alignment", "int64_t", /*default=*/"256",
           "Alignment of every buffer in the arena, in bytes (a power of "
           "two, at least 16 for TMA)">,
  ];
  let dependentDialects = ["::mlir::arith::ArithDialect",
                           "::mlir::gpu::GPUDialect",
                           "::mlir::memref::MemRefDialect"];
}

def ConstantsToWeights : Pass<"hidet-constants-to-weights",
                              "::mlir::ModuleOp"> {
  let summary = "Turns the large constants of public functions into weight "
                "arguments that a runtime uploads once.";
  let description = [{
    A constant tensor of a GPU library that stays a constant is copied from
    host memory to the device on every call. This pass makes each
    non-splat `arith.constant` of a public function with more than
    `max-inline-elements` elements an input of the function (after the
    existing inputs) marked `hidet.weight = "<name>"`, with its value kept in
    `hidet.weight_value`. `hidet-compile` moves the values into the library
    (a weights image in the format of `hidet/Weights.h`) and lists the
    arguments as `weight` in the manifest; the runtime uploads them to the
    device once, when a model is loaded.

    Names come from the constant's `dense_resource` key, else `weight<N>`,
    made unique and restricted to manifest tokens (letters, digits, `_`,
    `.`). Element types must be those of the manifest (f32, f16, bf16, f64,
    i32, i64, i8, i1; `hidet-compile` stores i1 values a byte per element);
    splats stay constants, and unused constants are not made inputs. A
    function whose arguments include any that are not tensors is left
    alone. `hidet-compile` runs it with `max-inline-elements=0`: a constant
    left in a GPU library is copied from the host on every call, which a
    CUDA graph cannot replay.
  }];
  let options = [
    Option<"maxInlineElements", "max-inline-elements", "int64_t",
           /*default=*/"16",
           "Constants with at most this many elements stay constants">,
  ];
  let dependentDialects = ["::mlir::func::FuncDialect"];
}

#endif // HIDET_TRANSFORMS_MEMORY_PASSES_TD
