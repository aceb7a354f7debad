// CPU reference of ../matmul-mma-async.mlir: 16-bit results are accumulated
// in f32 and rounded once.

func.func @async3_ragged(%a: tensor<333x554xf16>, %b: tensor<554x444xf16>) -> tensor<333x444xf32> {
  %z = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<333x444xf32>
  %f = linalg.fill ins(%z : f32) outs(%e : tensor<333x444xf32>) -> tensor<333x444xf32>
  %r = linalg.matmul ins(%a, %b : tensor<333x554xf16>, tensor<554x444xf16>) outs(%f : tensor<333x444xf32>) -> tensor<333x444xf32>
  return %r : tensor<333x444xf32>
}

func.func @async3_ragged_f16(%a: tensor<333x554xf16>, %b: tensor<554x444xf16>) -> tensor<333x444xf16> {
  %z = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<333x444xf32>
  %f = linalg.fill ins(%z : f32) outs(%e : tensor<333x444xf32>) -> tensor<333x444xf32>
  %r = linalg.matmul ins(%a, %b : tensor<333x554xf16>, tensor<554x444xf16>) outs(%f : tensor<333x444xf32>) -> tensor<333x444xf32>
  %o = tensor.empty() : tensor<333x444xf16>
  %t = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]}
      ins(%r : tensor<333x444xf32>) outs(%o : tensor<333x444xf16>) {
  ^bb0(%x: f32, %y: f16):
    %c = arith.truncf %x : f32 to f16
    linalg.yield %c : f16
  } -> tensor<333x444xf16>
  return %t : tensor<333x444xf16>
}

func.func @async2_square_bf16(%a: tensor<256x256xbf16>, %b: tensor<256x256xbf16>) -> tensor<256x256xbf16> {
  %z = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<256x256xf32>
  %f = linalg.fill ins(%z : f32) outs(%e : tensor<256x256xf32>) -> tensor<256x256xf32>
  %r = linalg.matmul ins(%a, %b : tensor<256x256xbf16>, tensor<256x256xbf16>) outs(%f : tensor<256x256xf32>) -> tensor<256x256xf32>
  %o = tensor.empty() : tensor<256x256xbf16>
  %t = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]}
      ins(%r : tensor<256x256xf32>) outs(%o : tensor<256x256xbf16>) {
  ^bb0(%x: f32, %y: bf16):
    %c = arith.truncf %x : f32 to bf16
    linalg.yield %c : bf16
  } -> tensor<256x256xbf16>
  return %t : tensor<256x256xbf16>
}

func.func @async4_k_short(%a: tensor<200x40xf16>, %b: tensor<40x136xf16>) -> tensor<200x136xf32> {
  %z = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<200x136xf32>
  %f = linalg.fill ins(%z : f32) outs(%e : tensor<200x136xf32>) -> tensor<200x136xf32>
  %r = linalg.matmul ins(%a, %b : tensor<200x40xf16>, tensor<40x136xf16>) outs(%f : tensor<200x136xf32>) -> tensor<200x136xf32>
  return %r : tensor<200x136xf32>
}

func.func @async3_transposed(%a: tensor<264x200xf16>, %b: tensor<136x264xf16>) -> tensor<200x136xf16> {
  %z = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<200x136xf32>
  %f = linalg.fill ins(%z : f32) outs(%e : tensor<200x136xf32>) -> tensor<200x136xf32>
  %r = linalg.matmul indexing_maps = [affine_map<(m, n, k) -> (k, m)>, affine_map<(m, n, k) -> (n, k)>, affine_map<(m, n, k) -> (m, n)>]
      ins(%a, %b : tensor<264x200xf16>, tensor<136x264xf16>) outs(%f : tensor<200x136xf32>) -> tensor<200x136xf32>
  %o = tensor.empty() : tensor<200x136xf16>
  %t = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]}
      ins(%r : tensor<200x136xf32>) outs(%o : tensor<200x136xf16>) {
  ^bb0(%x: f32, %y: f16):
    %c = arith.truncf %x : f32 to f16
    linalg.yield %c : f16
  } -> tensor<200x136xf16>
  return %t : tensor<200x136xf16>
}

func.func @async3_split_k(%a: tensor<48x2048xf16>, %b: tensor<2048x64xf16>) -> tensor<48x64xf16> {
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

func.func @async4_large_shared(%a: tensor<333x554xf16>, %b: tensor<554x444xf16>) -> tensor<333x444xf32> {
  %z = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<333x444xf32>
  %f = linalg.fill ins(%z : f32) outs(%e : tensor<333x444xf32>) -> tensor<333x444xf32>
  %r = linalg.matmul ins(%a, %b : tensor<333x554xf16>, tensor<554x444xf16>) outs(%f : tensor<333x444xf32>) -> tensor<333x444xf32>
  return %r : tensor<333x444xf32>
}
