// The pass lists of the CPU pipelines. The reference runs upstream passes
// and two passes of this project that the GPU pipeline does not run; any
// other project pass (hidet-...) in it fails the REF checks, and either of
// the two in the GPU pipeline fails the GPU checks.
// RUN: hidet-opt %s --hidet-cpu-reference-pipeline --dump-pass-pipeline -o /dev/null 2>&1 | FileCheck %s --check-prefix=REF --implicit-check-not=hidet-
// hidet-compile runs the index checks before either pipeline, unless
// --check-indices=0 (GPUExecution.md says why the reference keeps them).
// RUN: hidet-compile %s --target=cpu --dump-pass-pipeline --emit=mlir -o %t.ref.mlir 2>&1 | FileCheck %s --check-prefixes=CHECKS,REF --implicit-check-not=hidet-
// RUN: hidet-compile %s --target=cpu --cpu-pipeline=reference --check-indices=0 --dump-pass-pipeline --emit=mlir -o %t.ref.mlir 2>&1 | FileCheck %s --check-prefix=REF --implicit-check-not=hidet-
// RUN: hidet-opt %s --hidet-cpu-reference-pipeline=from-tosa=1 --dump-pass-pipeline -o /dev/null 2>&1 | FileCheck %s --check-prefix=TOSA --implicit-check-not=hidet-
// RUN: hidet-opt %s --hidet-gpu-pipeline --dump-pass-pipeline -o /dev/null 2>&1 | FileCheck %s --check-prefix=GPU --implicit-check-not=hidet-accumulate-in-f32 --implicit-check-not=hidet-reference-bufferize
// RUN: hidet-opt %s --hidet-cpu-pipeline --dump-pass-pipeline -o /dev/null 2>&1 | FileCheck %s --check-prefix=FAST --implicit-check-not=hidet-
// RUN: hidet-compile %s --target=cpu --cpu-pipeline=fast --dump-pass-pipeline --emit=mlir -o %t.fast.mlir 2>&1 | FileCheck %s --check-prefixes=CHECKS,FAST --implicit-check-not=hidet-

// CHECKS:      builtin.module(
// CHECKS-NEXT:   hidet-check-indices
// CHECKS-NEXT: {{^}})

// REF:      builtin.module(
// REF-NEXT:   func.func(
// REF-NEXT:     hidet-accumulate-in-f32
// REF-NEXT:   ),
// REF-NEXT:   hidet-reference-bufferize,
// REF-NEXT:   buffer-results-to-out-params{{{.*}} hoist-static-allocs=false modify-public-functions=true},
// REF-NEXT:   canonicalize{{{.*}}},
// REF-NEXT:   expand-realloc{{{.*}}},
// REF-NEXT:   canonicalize{{{.*}}},
// REF-NEXT:   ownership-based-buffer-deallocation{{{.*}}},
// REF-NEXT:   canonicalize{{{.*}}},
// REF-NEXT:   buffer-deallocation-simplification,
// REF-NEXT:   bufferization-lower-deallocations,
// REF-NEXT:   cse,
// REF-NEXT:   canonicalize{{{.*}}},
// REF-NEXT:   func.func(
// REF-NEXT:     convert-linalg-to-loops
// REF-NEXT:   ),
// REF-NEXT:   expand-strided-metadata,
// REF-NEXT:   lower-affine,
// REF-NEXT:   func.func(
// REF-NEXT:     math-extend-to-supported-types{ target-type=f32},
// REF-NEXT:     arith-emulate-unsupported-floats{source-types={bf16} target-type=f32},
// REF-NEXT:     arith-expand{include-bf16=true{{.*}}}
// REF-NEXT:   ),
// REF-NEXT:   convert-math-to-llvm{{{.*}}},
// REF-NEXT:   convert-math-to-libm,
// REF-NEXT:   convert-scf-to-cf{{{.*}}},
// REF-NEXT:   convert-to-llvm{{{.*}}},
// REF-NEXT:   reconcile-unrealized-casts
// REF-NEXT: {{^}})

// TOSA:      builtin.module(
// TOSA:        tosa-to-linalg{{({.*})?}}
// TOSA:        hidet-accumulate-in-f32
// TOSA:        hidet-reference-bufferize,

// GPU:       hidet-unshare-inits
// GPU:       hidet-gpu-module-to-binary

// FAST:      builtin.module(
// FAST:        hidet-accumulate-in-f32
// FAST:        hidet-sink-scalar-reads
// FAST:        hidet-propagate-transposes
// FAST:        hidet-unshare-inits
// FAST:        hidet-slice-producers
// FAST:        hidet-decompose-aggregates
// FAST:        hidet-distinct-results
// FAST:        one-shot-bufferize{{{.*}}}
// FAST-NEXT:   buffer-results-to-out-params{{{.*}} hoist-static-allocs=true modify-public-functions=true},
// FAST:        hidet-results-in-place
// FAST:        hidet-copies-to-linalg
// FAST:        ownership-based-buffer-deallocation
// FAST:        convert-linalg-to-loops
// FAST:        reconcile-unrealized-casts

// What both compile to: a temporary (the softmax's row maxima and sums)
// allocated and freed in the function, the strided copies of the
// concatenation as loops, never a call of the C runner library's
// memrefCopy.
// RUN: FileCheck %s --input-file=%t.ref.mlir --check-prefix=IR --implicit-check-not=memrefCopy
// RUN: FileCheck %s --input-file=%t.fast.mlir --check-prefix=IR --implicit-check-not=memrefCopy
// IR-LABEL: llvm.func @softmax_concat(
// IR:         llvm.call @malloc
// IR:         llvm.call @free
// IR:         llvm.return
func.func @softmax_concat(%a: tensor<4x16xf32>, %b: tensor<4x3xf32>) -> tensor<4x19xf32> {
  %e = tensor.empty() : tensor<4x16xf32>
  %s = linalg.softmax dimension(1) ins(%a : tensor<4x16xf32>) outs(%e : tensor<4x16xf32>) -> tensor<4x16xf32>
  %cat = tensor.concat dim(1) %s, %b : (tensor<4x16xf32>, tensor<4x3xf32>) -> tensor<4x19xf32>
  return %cat : tensor<4x19xf32>
}
