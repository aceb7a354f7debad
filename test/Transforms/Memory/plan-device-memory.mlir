// RUN: hidet-opt %s -split-input-file --pass-pipeline="builtin.module(func.func(hidet-plan-device-memory))" -allow-unregistered-dialect -verify-diagnostics | FileCheck %s
// RUN: hidet-opt %s -split-input-file --pass-pipeline="builtin.module(func.func(hidet-plan-device-memory{alignment=1024}))" -allow-unregistered-dialect -verify-diagnostics | FileCheck %s --check-prefix=ALIGN

// A chain of three temporaries: %a's last use is the op that writes %b, and
// %c's first use is a later op, so %a and %c share bytes while %b, live with
// both, lives apart. The allocations become views of a new
// last argument, the deallocations go, and the function records the arena.
// CHECK-LABEL: func.func @chain(
// CHECK-SAME:    %{{.*}}: memref<16xf32>, %[[OUT:.*]]: memref<16xf32>, %[[WS:.*]]: memref<?xi8> {hidet.workspace})
// CHECK-SAME:    hidet.workspace = {buffers = 3 : i64, intermediates = 1536 : i64, size = 1024 : i64}
// CHECK:         %[[C0:.*]] = arith.constant 0 : index
// CHECK-NEXT:    %[[A:.*]] = memref.view %[[WS]][%[[C0]]][] : memref<?xi8> to memref<128xf32>
// CHECK-NEXT:    %[[C512:.*]] = arith.constant 512 : index
// CHECK-NEXT:    %[[B:.*]] = memref.view %[[WS]][%[[C512]]][] : memref<?xi8> to memref<128xf32>
// CHECK-NEXT:    %[[C0B:.*]] = arith.constant 0 : index
// CHECK-NEXT:    %[[C:.*]] = memref.view %[[WS]][%[[C0B]]][] : memref<?xi8> to memref<128xf32>
// CHECK:         "test.read_write"(%[[A]], %[[B]])
// CHECK-NEXT:    "test.read_write"(%[[B]], %[[C]])
// CHECK-NOT:     gpu.alloc
// CHECK-NOT:     gpu.dealloc
// ALIGN-LABEL: func.func @chain(
// ALIGN-SAME:    hidet.workspace = {buffers = 3 : i64, intermediates = 3072 : i64, size = 2048 : i64}
func.func @chain(%in: memref<16xf32>, %out: memref<16xf32>) {
  %a = gpu.alloc () : memref<128xf32>
  %b = gpu.alloc () : memref<128xf32>
  %c = gpu.alloc () : memref<128xf32>
  memref.copy %in, %out : memref<16xf32> to memref<16xf32>
  "test.write"(%a) : (memref<128xf32>) -> ()
  "test.read_write"(%a, %b) : (memref<128xf32>, memref<128xf32>) -> ()
  "test.read_write"(%b, %c) : (memref<128xf32>, memref<128xf32>) -> ()
  "test.read"(%c) : (memref<128xf32>) -> ()
  gpu.dealloc %a : memref<128xf32>
  gpu.dealloc %b : memref<128xf32>
  gpu.dealloc %c : memref<128xf32>
  return
}

// -----

// A value derived from a buffer carries it: %a is read only through the
// descriptor that "test.describe" makes of it (as a TMA load reads it), so
// it is live until the op that takes the descriptor, which writes %c:
// the two do not share bytes.
// CHECK-LABEL: func.func @derived(
// CHECK-SAME:    hidet.workspace = {buffers = 2 : i64, intermediates = 1024 : i64, size = 1024 : i64}
// CHECK:         %[[C0:.*]] = arith.constant 0 : index
// CHECK-NEXT:    %[[A:.*]] = memref.view %{{.*}}[%[[C0]]][] : memref<?xi8> to memref<128xf32>
// CHECK-NEXT:    %[[C512:.*]] = arith.constant 512 : index
// CHECK-NEXT:    %[[C:.*]] = memref.view %{{.*}}[%[[C512]]][] : memref<?xi8> to memref<128xf32>
// CHECK:         %[[D:.*]] = "test.describe"(%[[A]])
// CHECK-NEXT:    "test.read_through_write"(%[[D]], %[[C]])
func.func @derived() {
  %a = gpu.alloc () : memref<128xf32>
  %c = gpu.alloc () : memref<128xf32>
  "test.write"(%a) : (memref<128xf32>) -> ()
  %d = "test.describe"(%a) : (memref<128xf32>) -> i64
  "test.read_through_write"(%d, %c) : (i64, memref<128xf32>) -> ()
  "test.read"(%c) : (memref<128xf32>) -> ()
  gpu.dealloc %a : memref<128xf32>
  gpu.dealloc %c : memref<128xf32>
  return
}

// -----

// Uses through views count, and a use inside a region counts at the op that
// holds it: %a is live until the launch that reads its subview.
// CHECK-LABEL: func.func @views(
// CHECK-SAME:    hidet.workspace = {buffers = 2 : i64, intermediates = 1024 : i64, size = 1024 : i64}
func.func @views() {
  %c1 = arith.constant 1 : index
  %a = gpu.alloc () : memref<8x16xf32>
  %b = gpu.alloc () : memref<8x16xf32>
  "test.write"(%a) : (memref<8x16xf32>) -> ()
  %flat = memref.collapse_shape %a [[0, 1]] : memref<8x16xf32> into memref<128xf32>
  "test.write"(%b) : (memref<8x16xf32>) -> ()
  gpu.launch blocks(%bx, %by, %bz) in (%x = %c1, %y = %c1, %z = %c1)
             threads(%tx, %ty, %tz) in (%u = %c1, %v = %c1, %w = %c1) {
    %c0 = arith.constant 0 : index
    %v0 = memref.load %flat[%c0] : memref<128xf32>
    memref.store %v0, %b[%c0, %c0] : memref<8x16xf32>
    gpu.terminator
  }
  gpu.dealloc %a : memref<8x16xf32>
  gpu.dealloc %b : memref<8x16xf32>
  return
}

// -----

// Temporaries of dynamic shape stay allocations, and private functions
// (whose callers would need the new argument) are left alone.
// CHECK-LABEL: func.func @dynamic(
// CHECK-SAME:    %{{.*}}: index)
// CHECK-NOT:     hidet.workspace
// CHECK:         gpu.alloc (%{{.*}}) : memref<?xf32>
// CHECK-LABEL: func.func private @helper()
// CHECK:         gpu.alloc () : memref<4xf32>
func.func @dynamic(%n: index) {
  %a = gpu.alloc (%n) : memref<?xf32>
  "test.write"(%a) : (memref<?xf32>) -> ()
  gpu.dealloc %a : memref<?xf32>
  return
}
func.func private @helper() {
  %a = gpu.alloc () : memref<4xf32>
  "test.write"(%a) : (memref<4xf32>) -> ()
  gpu.dealloc %a : memref<4xf32>
  return
}
