// An embedding lookup: y[b, t, :] = table[ids[b, t], :] * scale, negative
// ids counting from the end as ONNX's Gather does. The table (16 x 4,
// table[i, j] = 4 i + j) is computed in the function, so that the library
// holds no constant.
func.func @main(%ids: tensor<2x8xi64> {hidet.name = "ids"},
                %scale: tensor<f32> {hidet.name = "scale"})
    -> (tensor<2x8x4xf32> {hidet.name = "y"}) {
  %te = tensor.empty() : tensor<16x4xf32>
  %table = linalg.generic {
      indexing_maps = [affine_map<(i, j) -> (i, j)>],
      iterator_types = ["parallel", "parallel"]} outs(%te : tensor<16x4xf32>) {
  ^bb0(%o: f32):
    %i = linalg.index 0 : index
    %j = linalg.index 1 : index
    %c4 = arith.constant 4 : index
    %i4 = arith.muli %i, %c4 : index
    %v = arith.addi %i4, %j : index
    %vi = arith.index_cast %v : index to i32
    %vf = arith.sitofp %vi : i32 to f32
    linalg.yield %vf : f32
  } -> tensor<16x4xf32>
  %e = tensor.empty() : tensor<2x8x4xf32>
  %y = linalg.generic {
      indexing_maps = [affine_map<(b, t, j) -> (b, t)>,
                       affine_map<(b, t, j) -> ()>,
                       affine_map<(b, t, j) -> (b, t, j)>],
      iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%ids, %scale : tensor<2x8xi64>, tensor<f32>)
      outs(%e : tensor<2x8x4xf32>) {
  ^bb0(%id: i64, %s: f32, %o: f32):
    %c0 = arith.constant 0 : index
    %c16 = arith.constant 16 : index
    %k = arith.index_cast %id : i64 to index
    %neg = arith.cmpi slt, %k, %c0 : index
    %wrapped = arith.addi %k, %c16 : index
    %row = arith.select %neg, %wrapped, %k : index
    %j = linalg.index 2 : index
    %v = tensor.extract %table[%row, %j] : tensor<16x4xf32>
    %r = arith.mulf %v, %s : f32
    linalg.yield %r : f32
  } -> tensor<2x8x4xf32> loc("Gather_ids")
  return %y : tensor<2x8x4xf32>
}
