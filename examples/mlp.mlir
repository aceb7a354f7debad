// A transformer MLP block written in linalg on tensors:
//   y = x + (gelu(x @ W1 + b1) @ W2 + b2)
// with the tanh form of GELU. utils/run-demo.sh compiles it for the GPU
// (hidet-compile) and for the CPU (the independent reference), then, where
// a GPU is present, runs both on random inputs with hidet-run, which
// compares them and times the GPU library.
#mk = affine_map<(m, n) -> (m, n)>
#n = affine_map<(m, n) -> (n)>
func.func @mlp(%x: tensor<256x512xf32>, %w1: tensor<512x1024xf32>, %b1: tensor<1024xf32>,
               %w2: tensor<1024x512xf32>, %b2: tensor<512xf32>) -> tensor<256x512xf32> {
  %zero = arith.constant 0.0 : f32
  %e1 = tensor.empty() : tensor<256x1024xf32>
  %z1 = linalg.fill ins(%zero : f32) outs(%e1 : tensor<256x1024xf32>) -> tensor<256x1024xf32>
  %h = linalg.matmul ins(%x, %w1 : tensor<256x512xf32>, tensor<512x1024xf32>) outs(%z1 : tensor<256x1024xf32>) -> tensor<256x1024xf32>
  %e2 = tensor.empty() : tensor<256x1024xf32>
  %g = linalg.generic {indexing_maps = [#mk, #n, #mk], iterator_types = ["parallel", "parallel"]}
      ins(%h, %b1 : tensor<256x1024xf32>, tensor<1024xf32>) outs(%e2 : tensor<256x1024xf32>) {
  ^bb0(%v: f32, %b: f32, %o: f32):
    %half = arith.constant 0.5 : f32
    %one = arith.constant 1.0 : f32
    %k0 = arith.constant 0.7978845608 : f32
    %k1 = arith.constant 0.044715 : f32
    %a = arith.addf %v, %b : f32
    %a2 = arith.mulf %a, %a : f32
    %a3 = arith.mulf %a2, %a : f32
    %c = arith.mulf %a3, %k1 : f32
    %s = arith.addf %a, %c : f32
    %t = arith.mulf %s, %k0 : f32
    %th = math.tanh %t : f32
    %p = arith.addf %th, %one : f32
    %q = arith.mulf %a, %p : f32
    %r = arith.mulf %q, %half : f32
    linalg.yield %r : f32
  } -> tensor<256x1024xf32>
  %e3 = tensor.empty() : tensor<256x512xf32>
  %z3 = linalg.fill ins(%zero : f32) outs(%e3 : tensor<256x512xf32>) -> tensor<256x512xf32>
  %o = linalg.matmul ins(%g, %w2 : tensor<256x1024xf32>, tensor<1024x512xf32>) outs(%z3 : tensor<256x512xf32>) -> tensor<256x512xf32>
  %e4 = tensor.empty() : tensor<256x512xf32>
  %y = linalg.generic {indexing_maps = [#mk, #n, #mk, #mk], iterator_types = ["parallel", "parallel"]}
      ins(%o, %b2, %x : tensor<256x512xf32>, tensor<512xf32>, tensor<256x512xf32>) outs(%e4 : tensor<256x512xf32>) {
  ^bb0(%v: f32, %b: f32, %res: f32, %out: f32):
    %a = arith.addf %v, %b : f32
    %r = arith.addf %a, %res : f32
    linalg.yield %r : f32
  } -> tensor<256x512xf32>
  return %y : tensor<256x512xf32>
}
