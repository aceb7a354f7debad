// hidet.weight names an input's tensor in a weights file, as one manifest
// token: a name of letters, digits, '_' and '.', once per function.
// Anything else is an error naming the argument, and no library is written.
// RUN: not hidet-compile %s --target=cpu -o %t.so 2>&1 | FileCheck %s
// RUN: test ! -e %t.so
// CHECK-DAG: error: hidet-compile: hidet.weight of argument 1 must be a name of letters, digits, '_' and '.'; got "a b"
// CHECK-DAG: error: hidet-compile: hidet.weight of argument 0 must be a name of letters, digits, '_' and '.'; got 3 : i64
// CHECK-DAG: error: hidet-compile: two arguments are the weight 'w'
func.func @spaced(%x: tensor<4xf32>, %w: tensor<4xf32> {hidet.weight = "a b"}) -> tensor<4xf32> {
  return %x : tensor<4xf32>
}

func.func @number(%w: tensor<4xf32> {hidet.weight = 3}) -> tensor<4xf32> {
  return %w : tensor<4xf32>
}

func.func @twice(%v: tensor<4xf32> {hidet.weight = "w"}, %w: tensor<4xf32> {hidet.weight = "w"}) -> tensor<4xf32> {
  return %v : tensor<4xf32>
}
