// Three chained matmuls on the Hopper template: the temporaries t1 = x w1
// and t2 = t1 w2 live in the workspace, and the second and third kernels
// read t1 and t2 only through TMA descriptors made on the host before each
// launch. The device memory plan must keep t1 live until the launch that
// takes its descriptor, which writes t2: were t2 placed over t1, the
// second kernel would overwrite its own operand. Checked against the CPU
// build on random inputs.
// REQUIRES: cuda
// RUN: hidet-compile %s -o %t.gpu.so --runtime-dir=%hidet_libs
// RUN: hidet-compile %s --target=cpu -o %t.cpu.so
// RUN: hidet-run %t.gpu.so --ref %t.cpu.so --reps 0 | FileCheck %s
// CHECK: chain PASS

func.func @chain(%x: tensor<256x256xf16>, %w1: tensor<256x256xf16>,
                 %w2: tensor<256x256xf16>, %w3: tensor<256x256xf16>) -> tensor<256x256xf16> {
  %z = arith.constant 0.0 : f16
  %e1 = tensor.empty() : tensor<256x256xf16>
  %f1 = linalg.fill ins(%z : f16) outs(%e1 : tensor<256x256xf16>) -> tensor<256x256xf16>
  %t1 = linalg.matmul ins(%x, %w1 : tensor<256x256xf16>, tensor<256x256xf16>) outs(%f1 : tensor<256x256xf16>) -> tensor<256x256xf16>
  %e2 = tensor.empty() : tensor<256x256xf16>
  %f2 = linalg.fill ins(%z : f16) outs(%e2 : tensor<256x256xf16>) -> tensor<256x256xf16>
  %t2 = linalg.matmul ins(%t1, %w2 : tensor<256x256xf16>, tensor<256x256xf16>) outs(%f2 : tensor<256x256xf16>) -> tensor<256x256xf16>
  %e3 = tensor.empty() : tensor<256x256xf16>
  %f3 = linalg.fill ins(%z : f16) outs(%e3 : tensor<256x256xf16>) -> tensor<256x256xf16>
  %r = linalg.matmul ins(%t2, %w3 : tensor<256x256xf16>, tensor<256x256xf16>) outs(%f3 : tensor<256x256xf16>) -> tensor<256x256xf16>
  return %r : tensor<256x256xf16>
}
