// RUN: hidet-opt %s -split-input-file --hidet-pipeline-shared-copies -verify-diagnostics | FileCheck %s

// A K loop written synchronously (barrier, a masked global read into a
// shared tile, barrier, math) with 3 stages. The copy becomes a cp.async
// of %n source elements, the tile gets 3 buffers (iteration k uses buffer
// (k - lb) mod 3), and the loop is pipelined: a prologue issues the copies
// of the first two iterations (each predicated on its iteration existing:
// 0 source elements otherwise), and each iteration waits until at most one
// group is pending, synchronizes once, issues the copy two iterations
// ahead (predicated the same way) and runs its math on its own buffer.
// After the loop, a wait for all groups.
// CHECK-DAG:   #[[BUF:.*]] = affine_map<(d0)[s0] -> ((d0 - s0) mod 3)>
// CHECK-LABEL: func.func @three_stages(
// CHECK-SAME:      %[[A:[^:]*]]: memref<4096xf16>, %[[LB:[^:]*]]: index, %[[UB:[^:]*]]: index, %[[N:[^:]*]]: index
// CHECK:         %[[TILE:.*]] = memref.alloc() : memref<3x16x64xf16, #gpu.address_space<workgroup>>
// CHECK-NOT:     memref.alloc
// CHECK:         %[[IN0:.*]] = arith.cmpi slt, %{{.*}}, %[[UB]]
// CHECK:         %[[B0:.*]] = affine.apply #[[BUF]](%{{.*}})[%[[LB]]]
// CHECK:         %[[S0:.*]] = memref.subview %[[TILE]][%[[B0]], 0, 0] [1, 16, 64] [1, 1, 1]
// CHECK:         %[[E0:.*]] = arith.select %[[IN0]], %[[N]], %c0{{.*}} : index
// CHECK:         %[[C0:.*]] = nvgpu.device_async_copy %[[A]][%{{.*}}], %[[S0]][%{{.*}}, %{{.*}}], 8, %[[E0]] {bypassL1}
// CHECK:         %[[G0:.*]] = nvgpu.device_async_create_group %[[C0]]
// CHECK:         %[[IN1:.*]] = arith.cmpi slt, %{{.*}}, %[[UB]]
// CHECK:         %[[E1:.*]] = arith.select %[[IN1]], %[[N]], %c0{{.*}} : index
// CHECK:         %[[C1:.*]] = nvgpu.device_async_copy {{.*}}, 8, %[[E1]] {bypassL1}
// CHECK:         %[[G1:.*]] = nvgpu.device_async_create_group %[[C1]]
// CHECK:         scf.for %[[K:.*]] = %[[LB]] to %[[UB]] step %{{.*}} iter_args(%[[W:.*]] = %[[G0]], %[[NEXT:.*]] = %[[G1]])
// CHECK:           %[[AHEAD:.*]] = arith.cmpi slt, %[[K]], %{{.*}} : index
// CHECK:           nvgpu.device_async_wait %[[W]] {numGroups = 1 : i32}
// CHECK-NEXT:      gpu.barrier
// CHECK-NOT:       gpu.barrier
// CHECK:           %[[K2:.*]] = arith.addi %[[K]], %{{.*}} : index
// CHECK:           %[[B2:.*]] = affine.apply #[[BUF]](%[[K2]])[%[[LB]]]
// CHECK:           %[[S2:.*]] = memref.subview %[[TILE]][%[[B2]], 0, 0]
// CHECK:           %[[E2:.*]] = arith.select %[[AHEAD]], %[[N]], %c0{{.*}} : index
// CHECK:           %[[C2:.*]] = nvgpu.device_async_copy %[[A]][%{{.*}}], %[[S2]][%{{.*}}, %{{.*}}], 8, %[[E2]] {bypassL1}
// CHECK:           %[[G2:.*]] = nvgpu.device_async_create_group %[[C2]]
// CHECK:           %[[BK:.*]] = affine.apply #[[BUF]](%{{.*}})[%[[LB]]]
// CHECK:           %[[SK:.*]] = memref.subview %[[TILE]][%[[BK]], 0, 0]
// CHECK-NOT:       vector.transfer_read
// CHECK:           vector.load %[[SK]]
// CHECK:           scf.yield %[[NEXT]], %[[G2]]
// CHECK:         nvgpu.device_async_wait %[[G1]] {numGroups = 0 : i32}
// CHECK-NEXT:    gpu.terminator
func.func @three_stages(%a: memref<4096xf16>, %lb: index, %ub: index, %n: index, %out: memref<8xf16>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c8 = arith.constant 8 : index
  %pad = arith.constant 0.0 : f16
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c1, %sy = %c1, %sz = %c1) {
    %tile = memref.alloc() : memref<16x64xf16, #gpu.address_space<workgroup>>
    scf.for %k = %lb to %ub step %c1 {
      gpu.barrier
      %off = arith.muli %k, %c8 : index
      %mask = vector.create_mask %n : vector<8xi1>
      %v = vector.transfer_read %a[%off], %pad, %mask {in_bounds = [true]} : memref<4096xf16>, vector<8xf16>
      vector.transfer_write %v, %tile[%tx, %c0] {in_bounds = [true]} : vector<8xf16>, memref<16x64xf16, #gpu.address_space<workgroup>>
      gpu.barrier
      %r = vector.load %tile[%tx, %c8] : memref<16x64xf16, #gpu.address_space<workgroup>>, vector<8xf16>
      vector.store %r, %out[%c0] : memref<8xf16>, vector<8xf16>
    } {hidet.pipeline_stages = 3 : i64}
    gpu.terminator
  }
  return
}

// -----

// Four stages, two tiles: one group of two copies per iteration, three
// groups in the prologue, waits of depth 2, both tiles with 4 buffers.
// CHECK-LABEL: func.func @four_stages_two_tiles(
// CHECK-DAG:     memref.alloc() : memref<4x16x64xf16, #gpu.address_space<workgroup>>
// CHECK-DAG:     memref.alloc() : memref<4x64x16xf16, #gpu.address_space<workgroup>>
// CHECK-COUNT-3: nvgpu.device_async_create_group %{{.*}}, %{{.*}}
// CHECK-NOT:     nvgpu.device_async_create_group
// CHECK:         scf.for {{.*}} iter_args(%[[W:[^ ]*]] = {{.*}}) -> (!nvgpu.device.async.token, !nvgpu.device.async.token, !nvgpu.device.async.token)
// CHECK:           nvgpu.device_async_wait %[[W]] {numGroups = 2 : i32}
// CHECK:           nvgpu.device_async_create_group %{{.*}}, %{{.*}}
// CHECK:           scf.yield
// CHECK:         nvgpu.device_async_wait %{{.*}} {numGroups = 0 : i32}
func.func @four_stages_two_tiles(%a: memref<4096xf16>, %b: memref<4096xf16>, %lb: index, %ub: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c8 = arith.constant 8 : index
  %pad = arith.constant 0.0 : f16
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c1, %sy = %c1, %sz = %c1) {
    %ta = memref.alloc() : memref<16x64xf16, #gpu.address_space<workgroup>>
    %tb = memref.alloc() : memref<64x16xf16, #gpu.address_space<workgroup>>
    scf.for %k = %lb to %ub step %c1 {
      gpu.barrier
      %off = arith.muli %k, %c8 : index
      %va = vector.transfer_read %a[%off], %pad {in_bounds = [true]} : memref<4096xf16>, vector<8xf16>
      vector.transfer_write %va, %ta[%tx, %c0] {in_bounds = [true]} : vector<8xf16>, memref<16x64xf16, #gpu.address_space<workgroup>>
      %vb = vector.transfer_read %b[%off], %pad {in_bounds = [true]} : memref<4096xf16>, vector<8xf16>
      vector.transfer_write %vb, %tb[%tx, %c0] {in_bounds = [true]} : vector<8xf16>, memref<64x16xf16, #gpu.address_space<workgroup>>
      gpu.barrier
      %x = vector.load %ta[%tx, %c8] : memref<16x64xf16, #gpu.address_space<workgroup>>, vector<8xf16>
      %y = vector.load %tb[%tx, %c8] : memref<64x16xf16, #gpu.address_space<workgroup>>, vector<8xf16>
      %s = arith.addf %x, %y : vector<8xf16>
      vector.store %s, %a[%off] : memref<4096xf16>, vector<8xf16>
    } {hidet.pipeline_stages = 4 : i64}
    gpu.terminator
  }
  return
}

// -----

// Two stages: one tile in flight, so each iteration waits for all groups.
// CHECK-LABEL: func.func @two_stages(
// CHECK:         memref.alloc() : memref<2x16x64xf16, #gpu.address_space<workgroup>>
// CHECK-COUNT-1: nvgpu.device_async_create_group
// CHECK:         scf.for
// CHECK:           nvgpu.device_async_wait %{{.*}} {numGroups = 0 : i32}
func.func @two_stages(%a: memref<4096xf16>, %lb: index, %ub: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c8 = arith.constant 8 : index
  %pad = arith.constant 0.0 : f16
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c1, %sy = %c1, %sz = %c1) {
    %tile = memref.alloc() : memref<16x64xf16, #gpu.address_space<workgroup>>
    scf.for %k = %lb to %ub step %c1 {
      gpu.barrier
      %off = arith.muli %k, %c8 : index
      %v = vector.transfer_read %a[%off], %pad {in_bounds = [true]} : memref<4096xf16>, vector<8xf16>
      vector.transfer_write %v, %tile[%tx, %c0] {in_bounds = [true]} : vector<8xf16>, memref<16x64xf16, #gpu.address_space<workgroup>>
      gpu.barrier
      %r = vector.load %tile[%tx, %c8] : memref<16x64xf16, #gpu.address_space<workgroup>>, vector<8xf16>
      vector.store %r, %a[%off] : memref<4096xf16>, vector<8xf16>
    } {hidet.pipeline_stages = 2 : i64}
    gpu.terminator
  }
  return
}

// -----

func.func @one_stage(%lb: index, %ub: index) {
  %c1 = arith.constant 1 : index
  // expected-error @+1 {{'hidet.pipeline_stages' must be an integer in [2, 8], got 1 : i64}}
  scf.for %k = %lb to %ub step %c1 {
    gpu.barrier
  } {hidet.pipeline_stages = 1 : i64}
  return
}

// -----

func.func @one_barrier(%a: memref<4096xf16>, %lb: index, %ub: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %pad = arith.constant 0.0 : f16
  %tile = memref.alloc() : memref<64xf16, #gpu.address_space<workgroup>>
  // expected-error @+1 {{a loop marked 'hidet.pipeline_stages' must have exactly two gpu.barrier ops, before and after its copies into shared memory; found 1}}
  scf.for %k = %lb to %ub step %c1 {
    %v = vector.transfer_read %a[%k], %pad {in_bounds = [true]} : memref<4096xf16>, vector<8xf16>
    vector.transfer_write %v, %tile[%c0] {in_bounds = [true]} : vector<8xf16>, memref<64xf16, #gpu.address_space<workgroup>>
    gpu.barrier
  } {hidet.pipeline_stages = 3 : i64}
  return
}

// -----

// cp.async moves 4, 8 or 16 bytes; a 2-byte copy stays a plain copy.
func.func @two_bytes(%a: memref<4096xf16>, %lb: index, %ub: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %pad = arith.constant 0.0 : f16
  %tile = memref.alloc() : memref<64xf16, #gpu.address_space<workgroup>>
  // expected-error @+1 {{a copy into shared memory in this loop cannot become a cp.async copy (it moves 4, 8 or 16 contiguous bytes from global memory)}}
  scf.for %k = %lb to %ub step %c1 {
    gpu.barrier
    %v = vector.transfer_read %a[%k], %pad {in_bounds = [true]} : memref<4096xf16>, vector<1xf16>
    vector.transfer_write %v, %tile[%c0] {in_bounds = [true]} : vector<1xf16>, memref<64xf16, #gpu.address_space<workgroup>>
    gpu.barrier
  } {hidet.pipeline_stages = 3 : i64}
  return
}

// -----

// A tile also read after the loop cannot be multi-buffered.
func.func @tile_used_after(%a: memref<4096xf16>, %lb: index, %ub: index) -> vector<8xf16> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %pad = arith.constant 0.0 : f16
  // expected-error @+1 {{cannot give this shared tile 3 buffers: it is used outside the pipelined loop}}
  %tile = memref.alloc() : memref<64xf16, #gpu.address_space<workgroup>>
  scf.for %k = %lb to %ub step %c1 {
    gpu.barrier
    %v = vector.transfer_read %a[%k], %pad {in_bounds = [true]} : memref<4096xf16>, vector<8xf16>
    vector.transfer_write %v, %tile[%c0] {in_bounds = [true]} : vector<8xf16>, memref<64xf16, #gpu.address_space<workgroup>>
    gpu.barrier
  } {hidet.pipeline_stages = 3 : i64}
  %r = vector.load %tile[%c0] : memref<64xf16, #gpu.address_space<workgroup>>, vector<8xf16>
  return %r : vector<8xf16>
}

// -----

func.func @not_scf_for() {
  // expected-error @+1 {{only scf.for loops are pipelined; 'hidet.pipeline_stages' is on 'affine.for'}}
  affine.for %k = 0 to 4 {
  } {hidet.pipeline_stages = 3 : i64}
  return
}
