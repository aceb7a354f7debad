// Attention scores over 197 tokens (ViT-B/16's sequence), the keys scaled
// and transposed into rows of 197 f16 (394 bytes, not a multiple of 16):
// hidet-propagate-transposes folds the transpose into the batch matmul,
// which reads the keys K-major with aligned loads. Then the softmax and
// the product with the values. Checked against an f32 reference
// (Inputs/transposed-keys.ref.mlir): the CPU build of the f16 program,
// which rounds the scores and each step of the softmax to f16, is itself
// 1.8e-3 off it (relative L2), near f16's bound. Inputs uniform, normal,
// sparse and in {-1, 0, 1}.
// REQUIRES: cuda
// RUN: hidet-compile %s -o %t.gpu.so --runtime-dir=%hidet_libs
// RUN: hidet-compile %S/Inputs/transposed-keys.ref.mlir --target=cpu -o %t.cpu.so
// RUN: hidet-run %t.gpu.so --ref %t.cpu.so --reps 0 | FileCheck %s
// RUN: hidet-run %t.gpu.so --ref %t.cpu.so --reps 0 --input-dist=normal | FileCheck %s
// RUN: hidet-run %t.gpu.so --ref %t.cpu.so --reps 0 --input-dist=sparse | FileCheck %s
// RUN: hidet-run %t.gpu.so --ref %t.cpu.so --reps 0 --input-dist=zeros-and-ones | FileCheck %s
// CHECK: attention PASS

#id = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
#t = affine_map<(d0, d1, d2) -> (d0, d2, d1)>
func.func @attention(%q: tensor<24x197x64xf16>, %k: tensor<24x197x64xf16>, %v: tensor<24x197x64xf16>)
    -> tensor<24x197x64xf16> {
  %z = arith.constant 0.0 : f16
  %scale = arith.constant 0.125 : f16
  %ek = tensor.empty() : tensor<24x64x197xf16>
  %kt = linalg.generic {indexing_maps = [#t, #id], iterator_types = ["parallel", "parallel", "parallel"]} ins(%k : tensor<24x197x64xf16>) outs(%ek : tensor<24x64x197xf16>) {
  ^bb0(%x: f16, %o: f16):
    %s = arith.mulf %x, %scale : f16
    linalg.yield %s : f16
  } -> tensor<24x64x197xf16>
  %e = tensor.empty() : tensor<24x197x197xf16>
  %f = linalg.fill ins(%z : f16) outs(%e : tensor<24x197x197xf16>) -> tensor<24x197x197xf16>
  %s = linalg.batch_matmul ins(%q, %kt : tensor<24x197x64xf16>, tensor<24x64x197xf16>) outs(%f : tensor<24x197x197xf16>) -> tensor<24x197x197xf16>
  %p = linalg.softmax dimension(2) ins(%s : tensor<24x197x197xf16>) outs(%e : tensor<24x197x197xf16>) -> tensor<24x197x197xf16>
  %eo = tensor.empty() : tensor<24x197x64xf16>
  %fo = linalg.fill ins(%z : f16) outs(%eo : tensor<24x197x64xf16>) -> tensor<24x197x64xf16>
  %o = linalg.batch_matmul ins(%p, %v : tensor<24x197x197xf16>, tensor<24x197x64xf16>) outs(%fo : tensor<24x197x64xf16>) -> tensor<24x197x64xf16>
  return %o : tensor<24x197x64xf16>
}
