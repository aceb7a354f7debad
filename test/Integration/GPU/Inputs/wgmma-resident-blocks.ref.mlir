// CPU reference of ../wgmma-resident-blocks.mlir: 16-bit results are
// accumulated in f32 and rounded once.

func.func @resident_tma4_f16(%a: tensor<4096x64xf16>, %b: tensor<64x4096xf16>) -> tensor<4096x4096xf16> {
  %z = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<4096x4096xf32>
  %f = linalg.fill ins(%z : f32) outs(%e : tensor<4096x4096xf32>) -> tensor<4096x4096xf32>
  %r = linalg.matmul ins(%a, %b : tensor<4096x64xf16>, tensor<64x4096xf16>) outs(%f : tensor<4096x4096xf32>) -> tensor<4096x4096xf32>
  %o = tensor.empty() : tensor<4096x4096xf16>
  %t = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]}
      ins(%r : tensor<4096x4096xf32>) outs(%o : tensor<4096x4096xf16>) {
  ^bb0(%x: f32, %y: f16):
    %w = arith.truncf %x : f32 to f16
    linalg.yield %w : f16
  } -> tensor<4096x4096xf16>
  return %t : tensor<4096x4096xf16>
}

func.func @resident_tma2_f32(%a: tensor<2048x128xf16>, %b: tensor<128x4096xf16>) -> tensor<2048x4096xf32> {
  %z = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<2048x4096xf32>
  %f = linalg.fill ins(%z : f32) outs(%e : tensor<2048x4096xf32>) -> tensor<2048x4096xf32>
  %r = linalg.matmul ins(%a, %b : tensor<2048x128xf16>, tensor<128x4096xf16>) outs(%f : tensor<2048x4096xf32>) -> tensor<2048x4096xf32>
  return %r : tensor<2048x4096xf32>
}

func.func @resident_async2_bmm(%a: tensor<16x1024x64xf16>, %b: tensor<16x64x1024xf16>) -> tensor<16x1024x1024xf16> {
  %z = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<16x1024x1024xf32>
  %f = linalg.fill ins(%z : f32) outs(%e : tensor<16x1024x1024xf32>) -> tensor<16x1024x1024xf32>
  %r = linalg.batch_matmul ins(%a, %b : tensor<16x1024x64xf16>, tensor<16x64x1024xf16>) outs(%f : tensor<16x1024x1024xf32>) -> tensor<16x1024x1024xf32>
  %o = tensor.empty() : tensor<16x1024x1024xf16>
  %t = linalg.generic {indexing_maps = [affine_map<(b, i, j) -> (b, i, j)>, affine_map<(b, i, j) -> (b, i, j)>], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%r : tensor<16x1024x1024xf32>) outs(%o : tensor<16x1024x1024xf16>) {
  ^bb0(%x: f32, %y: f16):
    %w = arith.truncf %x : f32 to f16
    linalg.yield %w : f16
  } -> tensor<16x1024x1024xf16>
  return %t : tensor<16x1024x1024xf16>
}
