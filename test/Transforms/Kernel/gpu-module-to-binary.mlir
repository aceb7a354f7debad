// RUN: hidet-opt %s --hidet-gpu-module-to-binary=format=isa --split-input-file --verify-diagnostics | FileCheck %s
// RUN: not hidet-opt %s --split-input-file --hidet-gpu-module-to-binary=format=cubin 2>&1 | FileCheck %s --check-prefix=FORMAT
// REQUIRES: cuda-toolkit

// Every module becomes a gpu.binary of the same name, in the modules'
// order, with the PTX of each target (here two chips for the second).
// CHECK-LABEL: module attributes {gpu.container_module}
// CHECK:         gpu.binary @first [#gpu.object<#nvvm.target<chip = "sm_90a">, {{.*}}assembly = "{{.*}}.target sm_90a{{.*}}.entry first_kernel
// CHECK-NEXT:    gpu.binary @second [#gpu.object<#nvvm.target<chip = "sm_80">, {{.*}}.target sm_80{{.*}}, #gpu.object<#nvvm.target<chip = "sm_90a">, {{.*}}.target sm_90a{{.*}}.entry second_kernel
// CHECK-NOT:     gpu.module
// FORMAT: error: hidet-gpu-module-to-binary: invalid format 'cubin' (offloading, llvm, assembly, isa, binary, bin, fatbinary or fatbin)
module attributes {gpu.container_module} {
  gpu.module @first [#nvvm.target<chip = "sm_90a">] {
    llvm.func @first_kernel(%p: !llvm.ptr<1>) attributes {gpu.kernel, nvvm.kernel} {
      %c = llvm.mlir.constant(1.0 : f32) : f32
      llvm.store %c, %p : f32, !llvm.ptr<1>
      llvm.return
    }
  }
  gpu.module @second [#nvvm.target<chip = "sm_80">, #nvvm.target<chip = "sm_90a">] {
    llvm.func @second_kernel() attributes {gpu.kernel, nvvm.kernel} {
      llvm.return
    }
  }
}

// -----

module attributes {gpu.container_module} {
  // expected-error @below {{the module has no target attributes}}
  gpu.module @untargeted {
    llvm.func @kernel() attributes {gpu.kernel} {
      llvm.return
    }
  }
}
