// CPU reference of ../matmul-mma-f16.mlir: 16-bit results are accumulated in f32
// and rounded once, the semantics the tensor-core template implements.

func.func @mm_ragged(%a: tensor<333x555xf16>, %b: tensor<555x444xf16>) -> tensor<333x444xf32> {
  %z = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<333x444xf32>
  %f = linalg.fill ins(%z : f32) outs(%e : tensor<333x444xf32>) -> tensor<333x444xf32>
  %r = linalg.matmul ins(%a, %b : tensor<333x555xf16>, tensor<555x444xf16>) outs(%f : tensor<333x444xf32>) -> tensor<333x444xf32>
  return %r : tensor<333x444xf32>
}

func.func @mm_ragged_f16(%a: tensor<333x555xf16>, %b: tensor<555x444xf16>) -> tensor<333x444xf16> {
  %z = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<333x444xf32>
  %f = linalg.fill ins(%z : f32) outs(%e : tensor<333x444xf32>) -> tensor<333x444xf32>
  %r = linalg.matmul ins(%a, %b : tensor<333x555xf16>, tensor<555x444xf16>) outs(%f : tensor<333x444xf32>) -> tensor<333x444xf32>
  %o = tensor.empty() : tensor<333x444xf16>
  %t = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]}
      ins(%r : tensor<333x444xf32>) outs(%o : tensor<333x444xf16>) {
  ^bb0(%x: f32, %y: f16):
    %c = arith.truncf %x : f32 to f16
    linalg.yield %c : f16
  } -> tensor<333x444xf16>
  return %t : tensor<333x444xf16>
}

func.func @mm_square(%a: tensor<256x256xf16>, %b: tensor<256x256xf16>) -> tensor<256x256xf16> {
  %z = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<256x256xf32>
  %f = linalg.fill ins(%z : f32) outs(%e : tensor<256x256xf32>) -> tensor<256x256xf32>
  %r = linalg.matmul ins(%a, %b : tensor<256x256xf16>, tensor<256x256xf16>) outs(%f : tensor<256x256xf32>) -> tensor<256x256xf32>
  %o = tensor.empty() : tensor<256x256xf16>
  %t = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]}
      ins(%r : tensor<256x256xf32>) outs(%o : tensor<256x256xf16>) {
  ^bb0(%x: f32, %y: f16):
    %c = arith.truncf %x : f32 to f16
    linalg.yield %c : f16
  } -> tensor<256x256xf16>
  return %t : tensor<256x256xf16>
}

func.func @mm_m1(%a: tensor<1x768xf16>, %b: tensor<768x1000xf16>) -> tensor<1x1000xf16> {
  %z = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<1x1000xf32>
  %f = linalg.fill ins(%z : f32) outs(%e : tensor<1x1000xf32>) -> tensor<1x1000xf32>
  %r = linalg.matmul ins(%a, %b : tensor<1x768xf16>, tensor<768x1000xf16>) outs(%f : tensor<1x1000xf32>) -> tensor<1x1000xf32>
  %o = tensor.empty() : tensor<1x1000xf16>
  %t = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]}
      ins(%r : tensor<1x1000xf32>) outs(%o : tensor<1x1000xf16>) {
  ^bb0(%x: f32, %y: f16):
    %c = arith.truncf %x : f32 to f16
    linalg.yield %c : f16
  } -> tensor<1x1000xf16>
  return %t : tensor<1x1000xf16>
}

func.func @mm_m16(%a: tensor<16x300xf16>, %b: tensor<300x130xf16>) -> tensor<16x130xf32> {
  %z = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<16x130xf32>
  %f = linalg.fill ins(%z : f32) outs(%e : tensor<16x130xf32>) -> tensor<16x130xf32>
  %r = linalg.matmul ins(%a, %b : tensor<16x300xf16>, tensor<300x130xf16>) outs(%f : tensor<16x130xf32>) -> tensor<16x130xf32>
  return %r : tensor<16x130xf32>
}

func.func @mm_m128(%a: tensor<128x512xf16>, %b: tensor<512x1024xf16>) -> tensor<128x1024xf16> {
  %z = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<128x1024xf32>
  %f = linalg.fill ins(%z : f32) outs(%e : tensor<128x1024xf32>) -> tensor<128x1024xf32>
  %r = linalg.matmul ins(%a, %b : tensor<128x512xf16>, tensor<512x1024xf16>) outs(%f : tensor<128x1024xf32>) -> tensor<128x1024xf32>
  %o = tensor.empty() : tensor<128x1024xf16>
  %t = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]}
      ins(%r : tensor<128x1024xf32>) outs(%o : tensor<128x1024xf16>) {
  ^bb0(%x: f32, %y: f16):
    %c = arith.truncf %x : f32 to f16
    linalg.yield %c : f16
  } -> tensor<128x1024xf16>
  return %t : tensor<128x1024xf16>
}

func.func @mm_k_odd(%a: tensor<64x77xf16>, %b: tensor<77x96xf16>) -> tensor<64x96xf32> {
  %z = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<64x96xf32>
  %f = linalg.fill ins(%z : f32) outs(%e : tensor<64x96xf32>) -> tensor<64x96xf32>
  %r = linalg.matmul ins(%a, %b : tensor<64x77xf16>, tensor<77x96xf16>) outs(%f : tensor<64x96xf32>) -> tensor<64x96xf32>
  return %r : tensor<64x96xf32>
}

func.func @mm_transposed_a(%a: tensor<264x200xf16>, %b: tensor<264x136xf16>) -> tensor<200x136xf32> {
  %z = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<200x136xf32>
  %f = linalg.fill ins(%z : f32) outs(%e : tensor<200x136xf32>) -> tensor<200x136xf32>
  %r = linalg.matmul indexing_maps = [affine_map<(m, n, k) -> (k, m)>, affine_map<(m, n, k) -> (k, n)>, affine_map<(m, n, k) -> (m, n)>]
      ins(%a, %b : tensor<264x200xf16>, tensor<264x136xf16>) outs(%f : tensor<200x136xf32>) -> tensor<200x136xf32>
  return %r : tensor<200x136xf32>
}

func.func @mm_transposed_b(%a: tensor<200x264xf16>, %b: tensor<136x264xf16>) -> tensor<200x136xf16> {
  %z = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<200x136xf32>
  %f = linalg.fill ins(%z : f32) outs(%e : tensor<200x136xf32>) -> tensor<200x136xf32>
  %r = linalg.matmul indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>, affine_map<(m, n, k) -> (m, n)>]
      ins(%a, %b : tensor<200x264xf16>, tensor<136x264xf16>) outs(%f : tensor<200x136xf32>) -> tensor<200x136xf32>
  %o = tensor.empty() : tensor<200x136xf16>
  %t = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]}
      ins(%r : tensor<200x136xf32>) outs(%o : tensor<200x136xf16>) {
  ^bb0(%x: f32, %y: f16):
    %c = arith.truncf %x : f32 to f16
    linalg.yield %c : f16
  } -> tensor<200x136xf16>
  return %t : tensor<200x136xf16>
}

func.func @mm_split_k(%a: tensor<48x2048xf16>, %b: tensor<2048x64xf16>) -> tensor<48x64xf16> {
  %z = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<48x64xf32>
  %f = linalg.fill ins(%z : f32) outs(%e : tensor<48x64xf32>) -> tensor<48x64xf32>
  %r = linalg.matmul ins(%a, %b : tensor<48x2048xf16>, tensor<2048x64xf16>) outs(%f : tensor<48x64xf32>) -> tensor<48x64xf32>
  %o = tensor.empty() : tensor<48x64xf16>
  %t = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]}
      ins(%r : tensor<48x64xf32>) outs(%o : tensor<48x64xf16>) {
  ^bb0(%x: f32, %y: f16):
    %c = arith.truncf %x : f32 to f16
    linalg.yield %c : f16
  } -> tensor<48x64xf16>
  return %t : tensor<48x64xf16>
}

func.func @mm_scheduled(%a: tensor<300x136xf16>, %b: tensor<136x520xf16>) -> tensor<300x520xf32> {
  %z = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<300x520xf32>
  %f = linalg.fill ins(%z : f32) outs(%e : tensor<300x520xf32>) -> tensor<300x520xf32>
  %r = linalg.matmul ins(%a, %b : tensor<300x136xf16>, tensor<136x520xf16>) outs(%f : tensor<300x520xf32>) -> tensor<300x520xf32>
  return %r : tensor<300x520xf32>
}

func.func @mm_large_tiles(%a: tensor<1024x1024xf16>, %b: tensor<1024x1024xf16>) -> tensor<1024x1024xf16> {
  %z = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<1024x1024xf32>
  %f = linalg.fill ins(%z : f32) outs(%e : tensor<1024x1024xf32>) -> tensor<1024x1024xf32>
  %r = linalg.matmul ins(%a, %b : tensor<1024x1024xf16>, tensor<1024x1024xf16>) outs(%f : tensor<1024x1024xf32>) -> tensor<1024x1024xf32>
  %o = tensor.empty() : tensor<1024x1024xf16>
  %t = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]}
      ins(%r : tensor<1024x1024xf32>) outs(%o : tensor<1024x1024xf16>) {
  ^bb0(%x: f32, %y: f16):
    %c = arith.truncf %x : f32 to f16
    linalg.yield %c : f16
  } -> tensor<1024x1024xf16>
  return %t : tensor<1024x1024xf16>
}
