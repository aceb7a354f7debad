// hidet-compile --kernel-summary writes the summary of the GPU library's
// kernels (hidet-summarize-kernels) beside the library, and only when the
// library is written: a failed compilation leaves neither. The option is
// for GPU libraries only.
// REQUIRES: cuda-toolkit
// RUN: rm -rf %t && mkdir %t
// RUN: hidet-compile %s --kernel-summary=%t/kernels.json -o %t/lib.so
// RUN: test -s %t/lib.so
// RUN: FileCheck %s < %t/kernels.json
// RUN: not hidet-compile %s --kernel-summary=%t/bad.json --emit=bad -o %t/bad.so 2>&1
// RUN: not test -e %t/bad.json
// RUN: not hidet-compile %s --target=cpu --kernel-summary=%t/cpu.json -o %t/cpu.so 2>&1 | FileCheck %s --check-prefix=CPU
// RUN: not test -e %t/cpu.json
// RUN: not test -e %t/cpu.so

// CHECK:      "kernels": [
// CHECK:        "anchor": "matmul",
// CHECK:        "features": "wgmma wgmma.matmul {{.*}}epilogue.elementwise",
// CHECK-NEXT:   "function": "relu",
// CHECK:        "kind": "wgmma",
// CHECK:        "name": "relu_wgmma",
// CPU: --kernel-summary applies to GPU libraries (--target=gpu)

func.func @relu(%a: tensor<256x128xf16>, %b: tensor<128x256xf16>) -> tensor<256x256xf16> {
  %z = arith.constant 0.0 : f16
  %e = tensor.empty() : tensor<256x256xf16>
  %f = linalg.fill ins(%z : f16) outs(%e : tensor<256x256xf16>) -> tensor<256x256xf16>
  %c = linalg.matmul ins(%a, %b : tensor<256x128xf16>, tensor<128x256xf16>) outs(%f : tensor<256x256xf16>) -> tensor<256x256xf16>
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%c : tensor<256x256xf16>) outs(%e : tensor<256x256xf16>) {
  ^bb0(%i: f16, %o: f16):
    %m = arith.maximumf %i, %z : f16
    linalg.yield %m : f16
  } -> tensor<256x256xf16>
  return %r : tensor<256x256xf16>
}
