// An argmax-like reduction (value and index, two outputs) over the last
// axis of a ragged f32 matrix: the multi-output reduction takes the serial
// rule. Ties cannot occur with random inputs; the first maximum wins.
// Inputs also normal, sparse, in {-1, 0, 1} (rows tie for their maximum:
// the first index must win on both sides) and wide.
// REQUIRES: cuda
// RUN: hidet-compile %s -o %t.gpu.so --runtime-dir=%hidet_libs
// RUN: hidet-compile %s --target=cpu -o %t.cpu.so
// RUN: hidet-run %t.gpu.so --ref %t.cpu.so | FileCheck %s
// RUN: hidet-run %t.gpu.so --ref %t.cpu.so --reps 0 --input-dist=normal | FileCheck %s
// RUN: hidet-run %t.gpu.so --ref %t.cpu.so --reps 0 --input-dist=sparse | FileCheck %s
// RUN: hidet-run %t.gpu.so --ref %t.cpu.so --reps 0 --input-dist=zeros-and-ones | FileCheck %s
// RUN: hidet-run %t.gpu.so --ref %t.cpu.so --reps 0 --input-dist=wide | FileCheck %s
// CHECK: argmax_f32 PASS

func.func @argmax_f32(%a: tensor<333x777xf32>) -> (tensor<333xf32>, tensor<333xi32>) {
  %ninf = arith.constant 0xFF800000 : f32
  %zero = arith.constant 0 : i32
  %ev = tensor.empty() : tensor<333xf32>
  %ei = tensor.empty() : tensor<333xi32>
  %fv = linalg.fill ins(%ninf : f32) outs(%ev : tensor<333xf32>) -> tensor<333xf32>
  %fi = linalg.fill ins(%zero : i32) outs(%ei : tensor<333xi32>) -> tensor<333xi32>
  %r:2 = linalg.generic {indexing_maps = [affine_map<(i, k) -> (i, k)>, affine_map<(i, k) -> (i)>, affine_map<(i, k) -> (i)>],
                         iterator_types = ["parallel", "reduction"]}
      ins(%a : tensor<333x777xf32>) outs(%fv, %fi : tensor<333xf32>, tensor<333xi32>) {
  ^bb0(%x: f32, %best: f32, %idx: i32):
    %k = linalg.index 1 : index
    %ki = arith.index_cast %k : index to i32
    %gt = arith.cmpf ogt, %x, %best : f32
    %nb = arith.select %gt, %x, %best : f32
    %ni = arith.select %gt, %ki, %idx : i32
    linalg.yield %nb, %ni : f32, i32
  } -> (tensor<333xf32>, tensor<333xi32>)
  return %r#0, %r#1 : tensor<333xf32>, tensor<333xi32>
}
