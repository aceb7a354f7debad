//===- KernelPasses.td - Kernel lowering passes ------------*- tablegen -*-===//
//
// Part of the Hidet-MLIR project.
//
//===----------------------------------------------------------------------===//

#ifndef HIDET_TRANSFORMS_KERNEL_PASSES_TD
#define HIDET_TRANSFORMS_KERNEL_PASSES_TD

include "mlir/Pass/PassBase.td"

def MaterializePersistentCounters
    : Pass<"hidet-materialize-persistent-counters", "::mlir::ModuleOp"> {
  let summary = "Gives each kernel's persistent counters a module global.";
  let description = [{
    Replaces each `hidet.persistent_counters` (created inside a `gpu.launch`
    by function passes, which may not add symbols to the module) with a
    `memref.get_global` of a new private, zero-initialized `memref.global`
    of the module, named after the launch's kernel (`<kernel>_counters`,
    renamed if taken). `gpu-kernel-outlining` copies the global into the
    kernel's module; the GPU loads it with zeros when it loads the module,
    and the kernel keeps it zero between launches.

    ```mlir
    // Before:
    gpu.launch ... function(@main_wgmma) {
      %c = hidet.persistent_counters : memref<32xi32>
    // After:
    memref.global "private" @main_wgmma_counters : memref<32xi32> = dense<0>
    gpu.launch ... function(@main_wgmma) {
      %c = memref.get_global @main_wgmma_counters : memref<32xi32>
    ```
  }];
  let dependentDialects = ["::mlir::memref::MemRefDialect"];
}

def CopiesToLinalg : Pass<"hidet-copies-to-linalg", "::mlir::func::FuncOp"> {
  let summary = "Rewrites memref.copy as linalg.copy.";
  let description = [{
    Bufferization writes copies (for example of `tensor.pad`'s source into
    its padded buffer) as `memref.copy`. Outside GPU kernels these become
    `linalg.copy`, a structured op like any other: the GPU schedulers give
    it a kernel, and the CPU reference lowers it to loops, where a
    `memref.copy` between strided buffers would call the C runner library.
  }];
  let dependentDialects = ["::mlir::linalg::LinalgDialect"];
}

def PipelineSharedCopies
    : Pass<"hidet-pipeline-shared-copies", "::mlir::func::FuncOp"> {
  let summary = "Turns the synchronous global-to-shared copies of a K loop "
                "into an N-stage cp.async pipeline.";
  let description = [{
    Takes each `scf.for` marked `hidet.pipeline_stages = N` (N in [2, 8]),
    whose body the templates write synchronously:

    ```mlir
    scf.for %k = ... {hidet.pipeline_stages = 3 : i64} {
      gpu.barrier            // the tile about to be overwritten was read
      <vector.transfer_read (global, masked) + vector.transfer_write (shared)>
      gpu.barrier            // the copies are visible
      <math reading the shared tiles>
    }
    ```

    and pipelines it:
    - the copies become `nvgpu.device_async_copy` in one commit group per
      iteration (upstream `nvgpu::createAsyncGroups`; a masked read becomes
      a copy with that many source elements, the rest zero-filled);
    - each shared tile they write (a workgroup `memref.alloc`) gets N
      buffers (upstream `memref::multiBuffer`);
    - the loop is software-pipelined (upstream `scf::pipelineForLoop`): the
      copies of the first N - 1 iterations form a prologue, each iteration
      waits until at most N - 2 groups are pending, synchronizes once,
      issues the copies N - 1 iterations ahead and runs its math. Copies
      past the last iteration are predicated to copy nothing (their groups
      still count), so there is no epilogue and any trip count works; a
      wait for all groups follows the loop.

    A marked loop of another form, or copies that cp.async cannot do (it
    moves 4, 8 or 16 bytes), is an error.
  }];
  let dependentDialects = ["::mlir::affine::AffineDialect",
                           "::mlir::arith::ArithDialect",
                           "::mlir::gpu::GPUDialect",
                           "::mlir::memref::MemRefDialect",
                           "::mlir::nvgpu::NVGPUDialect"];
}

def WorkgroupAllocsToDynamicShared
    : Pass<"hidet-workgroup-allocs-to-dynamic-shared", "::mlir::func::FuncOp"> {
  let summary = "Places a kernel's workgroup allocations in dynamic shared "
                "memory.";
  let description = [{
    The templates allocate their shared tiles with `memref.alloc` in the
    workgroup address space inside a `gpu.launch`, the form upstream
    transformations such as `memref::multiBuffer` work on. This pass gives
    each such allocation its place in the block's dynamic shared memory: a
    `memref.view` of `gpu.dynamic_shared_memory` at an offset aligned to
    `alignment` bytes, and adds their sizes to the launch's
    `dynamic_shared_memory_size`. Deallocations of them are dropped.

    Unlike workgroup attributions (static shared memory, at most 48 KiB),
    dynamic shared memory may grow to what the GPU allows after an opt-in
    (227 KiB on sm_90), which the runtime does at launch.

    ```mlir
    gpu.launch ... {
      %a = memref.alloc() : memref<2x64x32xf16, #gpu.address_space<workgroup>>
    ```
    becomes
    ```mlir
    gpu.launch ... dynamic_shared_memory_size %c8192_i32 {
      %0 = gpu.dynamic_shared_memory : memref<?xi8, #gpu.address_space<workgroup>>
      %a = memref.view %0[%c0][] : memref<?xi8, #gpu.address_space<workgroup>>
          to memref<2x64x32xf16, #gpu.address_space<workgroup>>
    ```

    An allocation with a dynamic shape or a non-identity layout, or a
    launch whose dynamic shared memory size is not a constant, is an error.
  }];
  let options = [
    Option<"alignment", "alignment", "int64_t", /*default=*/"128",
           "Byte alignment of each buffer (a power of two, at least 16: "
           "cp.async and ldmatrix need 16)">,
  ];
  let dependentDialects = ["::mlir::arith::ArithDialect",
                           "::mlir::gpu::GPUDialect",
                           "::mlir::memref::MemRefDialect"];
}

def ExternDynamicShared
    : Pass<"hidet-extern-dynamic-shared", "::mlir::gpu::GPUModuleOp"> {
  let summary = "Declares a GPU module's dynamic shared memory as the "
                "external symbol that PTX places after static shared memory.";
  let description = [{
    A kernel's dynamic shared memory (`gpu.dynamic_shared_memory`) starts
    after its static shared variables (workgroup attributions, the
    `nvgpu.mbarrier.create` barriers): PTX gets its address from an
    `.extern .shared` array of unknown size. Upstream's NVVM lowering
    declares the symbol with internal linkage, which the NVPTX backend
    emits as a one-byte static variable; ptxas then places it at the start
    of static shared memory, so that the dynamic buffers overlap the
    kernel's other static variables (in the Hopper template, its stage
    buffers overlapped its mbarriers).

    This pass, run on a `gpu.module` before `convert-gpu-to-nvvm`, declares
    that symbol itself with external linkage (a zero-sized i8 array in
    address space 3, aligned to 16 bytes), which the lowering then reuses:

    ```mlir
    gpu.module @kernels {
      llvm.mlir.global external @__hidet_dynamic_shared()
          {addr_space = 3 : i32, alignment = 16 : i64} : !llvm.array<0 x i8>
    ```
    and PTX reads `.extern .shared .align 16 .b8 __hidet_dynamic_shared[];`.
    A module without `gpu.dynamic_shared_memory` is left unchanged.
  }];
  let dependentDialects = ["::mlir::LLVM::LLVMDialect"];
}

def OutlineKernels : Pass<"hidet-outline-kernels", "::mlir::ModuleOp"> {
  let summary = "Upstream's gpu-kernel-outlining, keeping the launches' "
                "nvvm.* attributes on the kernels.";
  let description = [{
    A template that plans its kernel for a number of resident blocks per SM
    records that promise on its `gpu.launch` as `nvvm.minctasm` (with the
    block size that `known_block_size` gives, ptxas then keeps the kernel's
    registers within `65536 / (blocks x threads)`). Upstream's
    `gpu-kernel-outlining` creates the `gpu.func` without the launch's
    attributes; this pass runs it and moves every attribute of the `nvvm`
    namespace of each outlined launch onto its kernel, from where
    `convert-gpu-to-nvvm` carries it to the `llvm.func` and the NVPTX back
    end to PTX (`.minnctapersm`):

    ```mlir
    gpu.launch blocks(...) in (...) threads(...) in (...) {
      ...
    } {nvvm.minctasm = 2 : i32}
    // becomes
    gpu.launch_func @k::@k blocks in (...) threads in (...) args(...)
    gpu.module @k {
      gpu.func @k(...) kernel attributes {known_block_size = ...,
                                          nvvm.minctasm = 2 : i32} {...}
    }
    ```

    Other attributes of a launch are dropped as upstream drops them.
    `hidet-lower-gpu` runs it where it would run `gpu-kernel-outlining`.
  }];
}

def GpuModuleToBinary : Pass<"hidet-gpu-module-to-binary"> {
  let summary = "Serializes gpu.modules to gpu.binary ops, in parallel.";
  let description = [{
    Upstream's `gpu-module-to-binary`, with the same options and the same
    result, but serializing the gpu.modules nested directly in the op in
    parallel (on the context's thread pool). For each module and target it
    calls the same `TargetAttrInterface::serializeToObject` (for NVVM:
    LLVM's NVPTX back end, then `ptxas` for `bin` and `fatbin`), then
    creates the objects and the `gpu.binary` ops in the modules' order.
    A model's pipeline outlines a module per kernel, and their
    serialization dominates its compile time; upstream serializes them one
    after the other. `hidet-lower-gpu` runs it where upstream's NVVM
    pipeline runs `gpu-module-to-binary`.

    The `format` option takes upstream's values: `offloading` or `llvm`,
    `assembly` or `isa`, `binary` or `bin`, `fatbinary` or `fatbin`.
  }];
  let options = [
    Option<"toolkitPath", "toolkit", "std::string", [{""}],
           "Toolkit path (as gpu-module-to-binary)">,
    ListOption<"linkFiles", "l", "std::string",
               "Extra files to link to (as gpu-module-to-binary)">,
    Option<"cmdOptions", "opts", "std::string", [{""}],
           "Command line options to pass to the tools (as "
           "gpu-module-to-binary)">,
    Option<"compilationTarget", "format", "std::string", [{"fatbin"}],
           "The target representation of the compilation process (as "
           "gpu-module-to-binary)">,
    Option<"elfSection", "section", "std::string", [{""}],
           "ELF section where the binary is to be located (as "
           "gpu-module-to-binary)">,
  ];
  let dependentDialects = ["::mlir::gpu::GPUDialect"];
}

def RemfToLibdevice
    : Pass<"hidet-remf-to-libdevice", "::mlir::gpu::GPUModuleOp"> {
  let summary = "Calls libdevice's fmod for the floating-point remainders "
                "of GPU kernels.";
  let description = [{
    `arith.remf` (C's `fmod`, ONNX `Mod` with `fmod = 1`) has no PTX
    instruction. Upstream's NVVM lowering maps it to libdevice's
    `__nv_fmodf`, but `gpu-lower-to-nvvm-pipeline` converts arith to LLVM
    before it, and the `llvm.frem` that results is illegal there. This pass,
    run on a `gpu.module` before that pipeline, calls libdevice itself:
    f32 and f64 remainders become calls of `__nv_fmodf` and `__nv_fmod`,
    16-bit ones are computed in f32 and rounded once, and vectors element
    by element.

    ```mlir
    %r = arith.remf %x, %y : f32
    ```
    becomes
    ```mlir
    %r = func.call @__nv_fmodf(%x, %y) : (f32, f32) -> f32
    ```
  }];
  let dependentDialects = ["::mlir::arith::ArithDialect",
                           "::mlir::func::FuncDialect",
                           "::mlir::vector::VectorDialect"];
}

def AccumulateInF32
    : Pass<"hidet-accumulate-in-f32", "::mlir::func::FuncOp"> {
  let summary = "Gives 16-bit matmuls, convolutions and softmaxes on "
                "tensors f32 accumulators.";
  let description = [{
    The GPU templates accumulate f16 and bf16 products in f32 whatever the
    result type; upstream's loops accumulate in the result type, and no
    upstream pass widens an accumulator. This pass, which both CPU pipelines
    run (and the GPU path does not) so that the reference computes what the
    GPU does, rewrites each `linalg.matmul`, `linalg.batch_matmul` and named
    convolution on tensors whose result is f16 or bf16 into the same op with
    an f32 result (its init extended to f32; named ops extend their 16-bit
    operands in their bodies) followed by one rounding to the 16-bit type.
    A `linalg.generic` contraction of floats (an Einsum's) is built again
    the same way, with a body that extends both operands to f32. A 16-bit
    `linalg.softmax` becomes the same softmax of its input extended to
    f32, rounded once to the 16-bit type, as PyTorch computes a 16-bit
    softmax and the fused attention template computes its rows: a sum of a
    long row in 16-bit steps is further from the exact result than the
    comparison's bound.

    ```mlir
    %r = linalg.matmul ins(%a, %b : tensor<4x8xf16>, tensor<8x2xf16>)
                       outs(%c : tensor<4x2xf16>) -> tensor<4x2xf16>
    ```
    becomes an `arith.extf` generic of `%c`, the matmul into
    `tensor<4x2xf32>`, and an `arith.truncf` generic back to f16.
  }];
  let dependentDialects = ["::mlir::arith::ArithDialect",
                           "::mlir::linalg::LinalgDialect",
                           "::mlir::tensor::TensorDialect"];
}

#endif // HIDET_TRANSFORMS_KERNEL_PASSES_TD
