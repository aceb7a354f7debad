// The fused attention template (#hidet.attention) against an f32 reference
// with masks as models write them: bf16 with BERT's attention mask (a bool
// per key made 0 or -inf, one row per batch broadcast over 4 heads) over 77
// keys and heads of 32; f16 with a causal mask at -inf (linalg.index in the
// scores' epilogue) over 100 keys, heads of 64 (attention-padded-rows.mlir
// adds left padding); heads of 128 with K given transposed ([head][key]:
// the tiles come through registers instead of cp.async) over 50 keys;
// values of 32 beside queries and keys of 64, 200 queries over 131 keys.
// The reference (Inputs/attention.ref.mlir) computes everything in f32 on
// the CPU and rounds the output once. The same with attention-skip-masked,
// whose warps skip the key tiles above the causal diagonal. Inputs uniform
// in (-1, 1), sparse (3 of 4 zeros) and in {-1, 0, 1}; normal inputs make
// scores large enough that rounding them to the 16-bit dtype, as the
// program does, moves the softmax beyond the default bounds.
// REQUIRES: cuda
// RUN: hidet-compile %s -o %t.gpu.so --runtime-dir=%hidet_libs
// RUN: hidet-compile %S/Inputs/attention.ref.mlir --target=cpu -o %t.cpu.so
// RUN: hidet-run %t.gpu.so --ref %t.cpu.so --reps 0 | FileCheck %s
// RUN: hidet-run %t.gpu.so --ref %t.cpu.so --reps 0 --input-dist=sparse | FileCheck %s
// RUN: hidet-run %t.gpu.so --ref %t.cpu.so --reps 0 --input-dist=zeros-and-ones | FileCheck %s
// RUN: hidet-compile %s -o %t.skip.so --runtime-dir=%hidet_libs --pipeline-options="attention-skip-masked=1"
// RUN: hidet-run %t.skip.so --ref %t.cpu.so --reps 0 | FileCheck %s
// RUN: hidet-run %t.skip.so --ref %t.cpu.so --reps 0 --input-dist=zeros-and-ones | FileCheck %s
// CHECK-DAG: hidet-run: masked_bf16 PASS
// CHECK-DAG: hidet-run: causal_f16 PASS
// CHECK-DAG: hidet-run: head128_kt_f16 PASS
// CHECK-DAG: hidet-run: values32_f16 PASS

// BERT's attention mask: a bool per key of each sequence (random here, so
// that every key tile has masked keys), made an additive mask of 0 and -inf
// and broadcast over 4 heads.
func.func @masked_bf16(%q: tensor<8x77x32xbf16>, %k: tensor<8x77x32xbf16>, %v: tensor<8x77x32xbf16>, %keep: tensor<2x77xi1>) -> tensor<8x77x32xbf16> {
  %z = arith.constant 0.0 : bf16
  %em = tensor.empty() : tensor<2x77xbf16>
  %mask = linalg.generic {indexing_maps = [affine_map<(b, j) -> (b, j)>, affine_map<(b, j) -> (b, j)>], iterator_types = ["parallel", "parallel"]} ins(%keep : tensor<2x77xi1>) outs(%em : tensor<2x77xbf16>) {
  ^bb0(%kept: i1, %o: bf16):
    %zero = arith.constant 0.0 : bf16
    %ninf = arith.constant 0xFF80 : bf16
    %m = arith.select %kept, %zero, %ninf : bf16
    linalg.yield %m : bf16
  } -> tensor<2x77xbf16>
  %ekt = tensor.empty() : tensor<8x32x77xbf16>
  %kt = linalg.transpose ins(%k : tensor<8x77x32xbf16>) outs(%ekt : tensor<8x32x77xbf16>) permutation = [0, 2, 1]
  %e = tensor.empty() : tensor<8x77x77xbf16>
  %f = linalg.fill ins(%z : bf16) outs(%e : tensor<8x77x77xbf16>) -> tensor<8x77x77xbf16>
  %s = linalg.batch_matmul ins(%q, %kt : tensor<8x77x32xbf16>, tensor<8x32x77xbf16>) outs(%f : tensor<8x77x77xbf16>) -> tensor<8x77x77xbf16>
  %s4 = tensor.expand_shape %s [[0, 1], [2], [3]] output_shape [2, 4, 77, 77] : tensor<8x77x77xbf16> into tensor<2x4x77x77xbf16>
  %e4 = tensor.empty() : tensor<2x4x77x77xbf16>
  %x4 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%s4, %mask : tensor<2x4x77x77xbf16>, tensor<2x77xbf16>) outs(%e4 : tensor<2x4x77x77xbf16>) {
  ^bb0(%a: bf16, %b: bf16, %o: bf16):
    %c = arith.constant 0.1767767 : bf16
    %y = arith.mulf %a, %c : bf16
    %w = arith.addf %y, %b : bf16
    linalg.yield %w : bf16
  } -> tensor<2x4x77x77xbf16>
  %x = tensor.collapse_shape %x4 [[0, 1], [2], [3]] : tensor<2x4x77x77xbf16> into tensor<8x77x77xbf16>
  %p = linalg.softmax dimension(2) ins(%x : tensor<8x77x77xbf16>) outs(%e : tensor<8x77x77xbf16>) -> tensor<8x77x77xbf16>
  %eo = tensor.empty() : tensor<8x77x32xbf16>
  %fo = linalg.fill ins(%z : bf16) outs(%eo : tensor<8x77x32xbf16>) -> tensor<8x77x32xbf16>
  %o = linalg.batch_matmul ins(%p, %v : tensor<8x77x77xbf16>, tensor<8x77x32xbf16>) outs(%fo : tensor<8x77x32xbf16>) -> tensor<8x77x32xbf16>
  return %o : tensor<8x77x32xbf16>
}

func.func @causal_f16(%q: tensor<6x100x64xf16>, %k: tensor<6x100x64xf16>, %v: tensor<6x100x64xf16>) -> tensor<6x100x64xf16> {
  %z = arith.constant 0.0 : f16
  %ekt = tensor.empty() : tensor<6x64x100xf16>
  %kt = linalg.transpose ins(%k : tensor<6x100x64xf16>) outs(%ekt : tensor<6x64x100xf16>) permutation = [0, 2, 1]
  %e = tensor.empty() : tensor<6x100x100xf16>
  %f = linalg.fill ins(%z : f16) outs(%e : tensor<6x100x100xf16>) -> tensor<6x100x100xf16>
  %s = linalg.batch_matmul ins(%q, %kt : tensor<6x100x64xf16>, tensor<6x64x100xf16>) outs(%f : tensor<6x100x100xf16>) -> tensor<6x100x100xf16>
  %x = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%s : tensor<6x100x100xf16>) outs(%e : tensor<6x100x100xf16>) {
  ^bb0(%a: f16, %o: f16):
    %c = arith.constant 0.125 : f16
    %y = arith.mulf %a, %c : f16
    %i = linalg.index 1 : index
    %j = linalg.index 2 : index
    %keep = arith.cmpi ule, %j, %i : index
    %ninf = arith.constant 0xFC00 : f16
    %w = arith.select %keep, %y, %ninf : f16
    linalg.yield %w : f16
  } -> tensor<6x100x100xf16>
  %p = linalg.softmax dimension(2) ins(%x : tensor<6x100x100xf16>) outs(%e : tensor<6x100x100xf16>) -> tensor<6x100x100xf16>
  %eo = tensor.empty() : tensor<6x100x64xf16>
  %fo = linalg.fill ins(%z : f16) outs(%eo : tensor<6x100x64xf16>) -> tensor<6x100x64xf16>
  %o = linalg.batch_matmul ins(%p, %v : tensor<6x100x100xf16>, tensor<6x100x64xf16>) outs(%fo : tensor<6x100x64xf16>) -> tensor<6x100x64xf16>
  return %o : tensor<6x100x64xf16>
}

func.func @head128_kt_f16(%q: tensor<4x50x128xf16>, %k: tensor<4x128x50xf16>, %v: tensor<4x50x128xf16>) -> tensor<4x50x128xf16> {
  %z = arith.constant 0.0 : f16
  %e = tensor.empty() : tensor<4x50x50xf16>
  %f = linalg.fill ins(%z : f16) outs(%e : tensor<4x50x50xf16>) -> tensor<4x50x50xf16>
  %s = linalg.batch_matmul ins(%q, %k : tensor<4x50x128xf16>, tensor<4x128x50xf16>) outs(%f : tensor<4x50x50xf16>) -> tensor<4x50x50xf16>
  %x = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%s : tensor<4x50x50xf16>) outs(%e : tensor<4x50x50xf16>) {
  ^bb0(%a: f16, %o: f16):
    %c = arith.constant 0.0883883 : f16
    %y = arith.mulf %a, %c : f16
    linalg.yield %y : f16
  } -> tensor<4x50x50xf16>
  %p = linalg.softmax dimension(2) ins(%x : tensor<4x50x50xf16>) outs(%e : tensor<4x50x50xf16>) -> tensor<4x50x50xf16>
  %eo = tensor.empty() : tensor<4x50x128xf16>
  %fo = linalg.fill ins(%z : f16) outs(%eo : tensor<4x50x128xf16>) -> tensor<4x50x128xf16>
  %o = linalg.batch_matmul ins(%p, %v : tensor<4x50x50xf16>, tensor<4x50x128xf16>) outs(%fo : tensor<4x50x128xf16>) -> tensor<4x50x128xf16>
  return %o : tensor<4x50x128xf16>
}

func.func @values32_f16(%q: tensor<4x200x64xf16>, %k: tensor<4x131x64xf16>, %v: tensor<4x131x32xf16>) -> tensor<4x200x32xf16> {
  %z = arith.constant 0.0 : f16
  %ekt = tensor.empty() : tensor<4x64x131xf16>
  %kt = linalg.transpose ins(%k : tensor<4x131x64xf16>) outs(%ekt : tensor<4x64x131xf16>) permutation = [0, 2, 1]
  %e = tensor.empty() : tensor<4x200x131xf16>
  %f = linalg.fill ins(%z : f16) outs(%e : tensor<4x200x131xf16>) -> tensor<4x200x131xf16>
  %s = linalg.batch_matmul ins(%q, %kt : tensor<4x200x64xf16>, tensor<4x64x131xf16>) outs(%f : tensor<4x200x131xf16>) -> tensor<4x200x131xf16>
  %x = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%s : tensor<4x200x131xf16>) outs(%e : tensor<4x200x131xf16>) {
  ^bb0(%a: f16, %o: f16):
    %c = arith.constant 0.125 : f16
    %y = arith.mulf %a, %c : f16
    linalg.yield %y : f16
  } -> tensor<4x200x131xf16>
  %p = linalg.softmax dimension(2) ins(%x : tensor<4x200x131xf16>) outs(%e : tensor<4x200x131xf16>) -> tensor<4x200x131xf16>
  %eo = tensor.empty() : tensor<4x200x32xf16>
  %fo = linalg.fill ins(%z : f16) outs(%eo : tensor<4x200x32xf16>) -> tensor<4x200x32xf16>
  %o = linalg.batch_matmul ins(%p, %v : tensor<4x200x131xf16>, tensor<4x131x32xf16>) outs(%fo : tensor<4x200x32xf16>) -> tensor<4x200x32xf16>
  return %o : tensor<4x200x32xf16>
}
