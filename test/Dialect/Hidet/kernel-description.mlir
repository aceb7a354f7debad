// RUN: hidet-opt %s -split-input-file -verify-diagnostics --allow-unregistered-dialect | FileCheck %s

// A kernel's description (the templates and the rule-based schedules write
// it, hidet-summarize-kernels reads it) round-trips on its gpu.launch.
// CHECK-LABEL: func.func @described
// CHECK: gpu.terminator
// CHECK-NEXT: } {hidet.kernel = {anchor = "matmul", epilogue = ["elementwise", "layout"], gemm = array<i64: 1, 128, 256, 64, 1>, kind = "wgmma", loads = "tma", prologue = [], scores = [], softmax = ["zero_nan_rows"]}}
func.func @described() {
  %c1 = arith.constant 1 : index
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1) threads(%tx, %ty, %tz) in (%sx = %c1, %sy = %c1, %sz = %c1) {
    gpu.terminator
  } {hidet.kernel = {kind = "wgmma", anchor = "matmul", gemm = array<i64: 1, 128, 256, 64, 1>, prologue = [], epilogue = ["elementwise", "layout"], scores = [], softmax = ["zero_nan_rows"], loads = "tma"}}
  return
}

// -----

// expected-error @+1 {{'hidet.kernel' must be on a gpu.launch, not on 'test.op'}}
"test.op"() {hidet.kernel = {kind = "simt"}} : () -> ()

// -----

func.func @not_a_dictionary() {
  %c1 = arith.constant 1 : index
  // expected-error @+1 {{'hidet.kernel' must be a dictionary, got "simt"}}
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1) threads(%tx, %ty, %tz) in (%sx = %c1, %sy = %c1, %sz = %c1) {
    gpu.terminator
  } {hidet.kernel = "simt"}
  return
}

// -----

func.func @no_kind() {
  %c1 = arith.constant 1 : index
  // expected-error @+1 {{'hidet.kernel' needs a string 'kind'}}
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1) threads(%tx, %ty, %tz) in (%sx = %c1, %sy = %c1, %sz = %c1) {
    gpu.terminator
  } {hidet.kernel = {anchor = "matmul"}}
  return
}

// -----

func.func @kind_not_a_string() {
  %c1 = arith.constant 1 : index
  // expected-error @+1 {{'hidet.kernel' needs a string 'kind'}}
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1) threads(%tx, %ty, %tz) in (%sx = %c1, %sy = %c1, %sz = %c1) {
    gpu.terminator
  } {hidet.kernel = {kind = 3 : i64}}
  return
}

// -----

func.func @anchor_not_a_string() {
  %c1 = arith.constant 1 : index
  // expected-error @+1 {{'hidet.kernel' 'anchor' must be a string, got 1 : i64}}
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1) threads(%tx, %ty, %tz) in (%sx = %c1, %sy = %c1, %sz = %c1) {
    gpu.terminator
  } {hidet.kernel = {kind = "mma", anchor = 1 : i64}}
  return
}

// -----

func.func @softmax_not_an_array() {
  %c1 = arith.constant 1 : index
  // expected-error @+1 {{'hidet.kernel' 'softmax' must be an array of strings, got "zero_nan_rows"}}
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1) threads(%tx, %ty, %tz) in (%sx = %c1, %sy = %c1, %sz = %c1) {
    gpu.terminator
  } {hidet.kernel = {kind = "attention", softmax = "zero_nan_rows"}}
  return
}

// -----

func.func @epilogue_not_strings() {
  %c1 = arith.constant 1 : index
  // expected-error @+1 {{'hidet.kernel' 'epilogue' must be an array of strings, got ["elementwise", 2]}}
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1) threads(%tx, %ty, %tz) in (%sx = %c1, %sy = %c1, %sz = %c1) {
    gpu.terminator
  } {hidet.kernel = {kind = "mma", epilogue = ["elementwise", 2 : i64]}}
  return
}

// -----

func.func @gemm_short() {
  %c1 = arith.constant 1 : index
  // expected-error @+1 {{'hidet.kernel' 'gemm' must be array<i64: batch, M, N, K, taps> of non-negative values, got array<i64: 1, 128, 128, 64>}}
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1) threads(%tx, %ty, %tz) in (%sx = %c1, %sy = %c1, %sz = %c1) {
    gpu.terminator
  } {hidet.kernel = {kind = "mma", gemm = array<i64: 1, 128, 128, 64>}}
  return
}

// -----

func.func @gemm_negative() {
  %c1 = arith.constant 1 : index
  // expected-error @+1 {{'hidet.kernel' 'gemm' must be array<i64: batch, M, N, K, taps> of non-negative values, got array<i64: 1, -128, 128, 64, 1>}}
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1) threads(%tx, %ty, %tz) in (%sx = %c1, %sy = %c1, %sz = %c1) {
    gpu.terminator
  } {hidet.kernel = {kind = "mma", gemm = array<i64: 1, -128, 128, 64, 1>}}
  return
}

// -----

func.func @unknown_key() {
  %c1 = arith.constant 1 : index
  // expected-error @+1 {{'hidet.kernel' has an unknown key 'tile' (kind, anchor, gemm, prologue, epilogue, scores, softmax, loads)}}
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1) threads(%tx, %ty, %tz) in (%sx = %c1, %sy = %c1, %sz = %c1) {
    gpu.terminator
  } {hidet.kernel = {kind = "mma", tile = 64 : i64}}
  return
}
