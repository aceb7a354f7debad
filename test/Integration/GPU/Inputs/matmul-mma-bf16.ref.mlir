// CPU reference of ../matmul-mma-bf16.mlir: 16-bit results are accumulated in f32
// and rounded once, the semantics the tensor-core template implements.

func.func @mm_ragged(%a: tensor<333x555xbf16>, %b: tensor<555x444xbf16>) -> tensor<333x444xf32> {
  %z = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<333x444xf32>
  %f = linalg.fill ins(%z : f32) outs(%e : tensor<333x444xf32>) -> tensor<333x444xf32>
  %r = linalg.matmul ins(%a, %b : tensor<333x555xbf16>, tensor<555x444xbf16>) outs(%f : tensor<333x444xf32>) -> tensor<333x444xf32>
  return %r : tensor<333x444xf32>
}

func.func @mm_ragged_bf16(%a: tensor<333x555xbf16>, %b: tensor<555x444xbf16>) -> tensor<333x444xbf16> {
  %z = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<333x444xf32>
  %f = linalg.fill ins(%z : f32) outs(%e : tensor<333x444xf32>) -> tensor<333x444xf32>
  %r = linalg.matmul ins(%a, %b : tensor<333x555xbf16>, tensor<555x444xbf16>) outs(%f : tensor<333x444xf32>) -> tensor<333x444xf32>
  %o = tensor.empty() : tensor<333x444xbf16>
  %t = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]}
      ins(%r : tensor<333x444xf32>) outs(%o : tensor<333x444xbf16>) {
  ^bb0(%x: f32, %y: bf16):
    %c = arith.truncf %x : f32 to bf16
    linalg.yield %c : bf16
  } -> tensor<333x444xbf16>
  return %t : tensor<333x444xbf16>
}

func.func @mm_square(%a: tensor<512x512xbf16>, %b: tensor<512x512xbf16>) -> tensor<512x512xbf16> {
  %z = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<512x512xf32>
  %f = linalg.fill ins(%z : f32) outs(%e : tensor<512x512xf32>) -> tensor<512x512xf32>
  %r = linalg.matmul ins(%a, %b : tensor<512x512xbf16>, tensor<512x512xbf16>) outs(%f : tensor<512x512xf32>) -> tensor<512x512xf32>
  %o = tensor.empty() : tensor<512x512xbf16>
  %t = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]}
      ins(%r : tensor<512x512xf32>) outs(%o : tensor<512x512xbf16>) {
  ^bb0(%x: f32, %y: bf16):
    %c = arith.truncf %x : f32 to bf16
    linalg.yield %c : bf16
  } -> tensor<512x512xbf16>
  return %t : tensor<512x512xbf16>
}

func.func @mm_m1(%a: tensor<1x1024xbf16>, %b: tensor<1024x1024xbf16>) -> tensor<1x1024xbf16> {
  %z = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<1x1024xf32>
  %f = linalg.fill ins(%z : f32) outs(%e : tensor<1x1024xf32>) -> tensor<1x1024xf32>
  %r = linalg.matmul ins(%a, %b : tensor<1x1024xbf16>, tensor<1024x1024xbf16>) outs(%f : tensor<1x1024xf32>) -> tensor<1x1024xf32>
  %o = tensor.empty() : tensor<1x1024xbf16>
  %t = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]}
      ins(%r : tensor<1x1024xf32>) outs(%o : tensor<1x1024xbf16>) {
  ^bb0(%x: f32, %y: bf16):
    %c = arith.truncf %x : f32 to bf16
    linalg.yield %c : bf16
  } -> tensor<1x1024xbf16>
  return %t : tensor<1x1024xbf16>
}

func.func @mm_m16(%a: tensor<16x256xbf16>, %b: tensor<256x512xbf16>) -> tensor<16x512xf32> {
  %z = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<16x512xf32>
  %f = linalg.fill ins(%z : f32) outs(%e : tensor<16x512xf32>) -> tensor<16x512xf32>
  %r = linalg.matmul ins(%a, %b : tensor<16x256xbf16>, tensor<256x512xbf16>) outs(%f : tensor<16x512xf32>) -> tensor<16x512xf32>
  return %r : tensor<16x512xf32>
}

func.func @mm_m128(%a: tensor<128x768xbf16>, %b: tensor<768x768xbf16>) -> tensor<128x768xbf16> {
  %z = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<128x768xf32>
  %f = linalg.fill ins(%z : f32) outs(%e : tensor<128x768xf32>) -> tensor<128x768xf32>
  %r = linalg.matmul ins(%a, %b : tensor<128x768xbf16>, tensor<768x768xbf16>) outs(%f : tensor<128x768xf32>) -> tensor<128x768xf32>
  %o = tensor.empty() : tensor<128x768xbf16>
  %t = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]}
      ins(%r : tensor<128x768xf32>) outs(%o : tensor<128x768xbf16>) {
  ^bb0(%x: f32, %y: bf16):
    %c = arith.truncf %x : f32 to bf16
    linalg.yield %c : bf16
  } -> tensor<128x768xbf16>
  return %t : tensor<128x768xbf16>
}

func.func @mm_transposed_b(%a: tensor<256x320xbf16>, %b: tensor<192x320xbf16>) -> tensor<256x192xbf16> {
  %z = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<256x192xf32>
  %f = linalg.fill ins(%z : f32) outs(%e : tensor<256x192xf32>) -> tensor<256x192xf32>
  %r = linalg.matmul indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>, affine_map<(m, n, k) -> (m, n)>]
      ins(%a, %b : tensor<256x320xbf16>, tensor<192x320xbf16>) outs(%f : tensor<256x192xf32>) -> tensor<256x192xf32>
  %o = tensor.empty() : tensor<256x192xbf16>
  %t = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]}
      ins(%r : tensor<256x192xf32>) outs(%o : tensor<256x192xbf16>) {
  ^bb0(%x: f32, %y: bf16):
    %c = arith.truncf %x : f32 to bf16
    linalg.yield %c : bf16
  } -> tensor<256x192xbf16>
  return %t : tensor<256x192xbf16>
}
