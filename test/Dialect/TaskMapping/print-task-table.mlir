// RUN: hidet-opt %s --allow-unregistered-dialect --tm-print-task-table='workers=0,5,13,45' -o /dev/null | FileCheck %s
// RUN: hidet-opt %s --allow-unregistered-dialect --tm-print-task-table -o /dev/null | FileCheck %s --check-prefix=ALL
// RUN: hidet-opt %s --allow-unregistered-dialect --tm-print-task-table='max-workers=4' -o /dev/null | FileCheck %s --check-prefix=TRUNC
// RUN: hidet-opt %s --allow-unregistered-dialect --tm-print-task-table='view=grid' -o /dev/null | FileCheck %s --check-prefix=GRID --strict-whitespace
// RUN: not hidet-opt %s --allow-unregistered-dialect --tm-print-task-table='view=table' -o /dev/null 2>&1 | FileCheck %s --check-prefix=BADVIEW

// The worker -> tasks tables of tm-print-task-table, which specify the
// mappings: every row of the worked examples of hidet-semantics.md 1.8, the
// mma.sync fragment maps of 1.10, auto_map, the grid view and the options.
// The expected tasks were computed from the definitions of section 1,
// independently of the algebra. The IR itself goes to /dev/null.
//
// Prefixes: CHECK lists workers 0, 5, 13 and 45 (workers=...); ALL lists
// every worker (the default max-workers=64 covers 32 lanes); TRUNC shows
// max-workers=4; GRID shows view=grid; BADVIEW an unknown view.

//===----------------------------------------------------------------------===//
// mma.sync fragment maps (hidet-semantics.md 1.10), all 32 lanes. Rows 4
// and 5 of the worked examples (1.8) are the C and the m16n8k16 A maps.
//===----------------------------------------------------------------------===//

func.func @mma_fragment_maps() {
  // The C map of m16n8k8 and m16n8k16 (also the m16n8k8 A map):
  // repeat(2,1)*spatial(8,4)*repeat(1,2). Worked example: lane 13 -> (3,2),
  // (3,3),(11,2),(11,3); lane 0 -> (0,0),(0,1),(8,0),(8,1).
  // CHECK-LABEL: mapping #tm.compose<repeat<[2, 1]> * spatial<[8, 4]> * repeat<[1, 2]>> (tm.foreach)
  // CHECK-NEXT: num_workers = 32, task_shape = [16, 8], tasks_per_worker = 4
  // CHECK-NEXT: worker 0: (0, 0) (0, 1) (8, 0) (8, 1){{$}}
  // CHECK-NEXT: worker 5: (1, 2) (1, 3) (9, 2) (9, 3){{$}}
  // CHECK-NEXT: worker 13: (3, 2) (3, 3) (11, 2) (11, 3){{$}}
  // CHECK-NEXT: worker 45: (out of range){{$}}
  // ALL: mapping #tm.compose<repeat<[2, 1]> * spatial<[8, 4]> * repeat<[1, 2]>> (tm.foreach)
  // ALL-NEXT: num_workers = 32, task_shape = [16, 8], tasks_per_worker = 4
  // ALL-NEXT: worker 0: (0, 0) (0, 1) (8, 0) (8, 1){{$}}
  // ALL-NEXT: worker 1: (0, 2) (0, 3) (8, 2) (8, 3){{$}}
  // ALL-NEXT: worker 2: (0, 4) (0, 5) (8, 4) (8, 5){{$}}
  // ALL-NEXT: worker 3: (0, 6) (0, 7) (8, 6) (8, 7){{$}}
  // ALL-NEXT: worker 4: (1, 0) (1, 1) (9, 0) (9, 1){{$}}
  // ALL-NEXT: worker 5: (1, 2) (1, 3) (9, 2) (9, 3){{$}}
  // ALL-NEXT: worker 6: (1, 4) (1, 5) (9, 4) (9, 5){{$}}
  // ALL-NEXT: worker 7: (1, 6) (1, 7) (9, 6) (9, 7){{$}}
  // ALL-NEXT: worker 8: (2, 0) (2, 1) (10, 0) (10, 1){{$}}
  // ALL-NEXT: worker 9: (2, 2) (2, 3) (10, 2) (10, 3){{$}}
  // ALL-NEXT: worker 10: (2, 4) (2, 5) (10, 4) (10, 5){{$}}
  // ALL-NEXT: worker 11: (2, 6) (2, 7) (10, 6) (10, 7){{$}}
  // ALL-NEXT: worker 12: (3, 0) (3, 1) (11, 0) (11, 1){{$}}
  // ALL-NEXT: worker 13: (3, 2) (3, 3) (11, 2) (11, 3){{$}}
  // ALL-NEXT: worker 14: (3, 4) (3, 5) (11, 4) (11, 5){{$}}
  // ALL-NEXT: worker 15: (3, 6) (3, 7) (11, 6) (11, 7){{$}}
  // ALL-NEXT: worker 16: (4, 0) (4, 1) (12, 0) (12, 1){{$}}
  // ALL-NEXT: worker 17: (4, 2) (4, 3) (12, 2) (12, 3){{$}}
  // ALL-NEXT: worker 18: (4, 4) (4, 5) (12, 4) (12, 5){{$}}
  // ALL-NEXT: worker 19: (4, 6) (4, 7) (12, 6) (12, 7){{$}}
  // ALL-NEXT: worker 20: (5, 0) (5, 1) (13, 0) (13, 1){{$}}
  // ALL-NEXT: worker 21: (5, 2) (5, 3) (13, 2) (13, 3){{$}}
  // ALL-NEXT: worker 22: (5, 4) (5, 5) (13, 4) (13, 5){{$}}
  // ALL-NEXT: worker 23: (5, 6) (5, 7) (13, 6) (13, 7){{$}}
  // ALL-NEXT: worker 24: (6, 0) (6, 1) (14, 0) (14, 1){{$}}
  // ALL-NEXT: worker 25: (6, 2) (6, 3) (14, 2) (14, 3){{$}}
  // ALL-NEXT: worker 26: (6, 4) (6, 5) (14, 4) (14, 5){{$}}
  // ALL-NEXT: worker 27: (6, 6) (6, 7) (14, 6) (14, 7){{$}}
  // ALL-NEXT: worker 28: (7, 0) (7, 1) (15, 0) (15, 1){{$}}
  // ALL-NEXT: worker 29: (7, 2) (7, 3) (15, 2) (15, 3){{$}}
  // ALL-NEXT: worker 30: (7, 4) (7, 5) (15, 4) (15, 5){{$}}
  // ALL-NEXT: worker 31: (7, 6) (7, 7) (15, 6) (15, 7){{$}}
  // ALL-NOT: worker 32:
  tm.foreach (%i, %j) in #tm.compose<repeat<[2, 1]> * spatial<[8, 4]> * repeat<[1, 2]>> on lane {
    "test.use"(%i, %j) : (index, index) -> ()
  }

  // The m16n8k8 B map: col_spatial(4,8)*col_repeat(2,1).
  // CHECK-LABEL: mapping #tm.compose<spatial<[4, 8], ranks = [1, 0]> * repeat<[2, 1], ranks = [1, 0]>> (tm.foreach)
  // CHECK-NEXT: num_workers = 32, task_shape = [8, 8], tasks_per_worker = 2
  // CHECK-NEXT: worker 0: (0, 0) (1, 0){{$}}
  // CHECK-NEXT: worker 5: (2, 1) (3, 1){{$}}
  // CHECK-NEXT: worker 13: (2, 3) (3, 3){{$}}
  // CHECK-NEXT: worker 45: (out of range){{$}}
  // ALL: mapping #tm.compose<spatial<[4, 8], ranks = [1, 0]> * repeat<[2, 1], ranks = [1, 0]>> (tm.foreach)
  // ALL-NEXT: num_workers = 32, task_shape = [8, 8], tasks_per_worker = 2
  // ALL-NEXT: worker 0: (0, 0) (1, 0){{$}}
  // ALL-NEXT: worker 1: (2, 0) (3, 0){{$}}
  // ALL-NEXT: worker 2: (4, 0) (5, 0){{$}}
  // ALL-NEXT: worker 3: (6, 0) (7, 0){{$}}
  // ALL-NEXT: worker 4: (0, 1) (1, 1){{$}}
  // ALL-NEXT: worker 5: (2, 1) (3, 1){{$}}
  // ALL-NEXT: worker 6: (4, 1) (5, 1){{$}}
  // ALL-NEXT: worker 7: (6, 1) (7, 1){{$}}
  // ALL-NEXT: worker 8: (0, 2) (1, 2){{$}}
  // ALL-NEXT: worker 9: (2, 2) (3, 2){{$}}
  // ALL-NEXT: worker 10: (4, 2) (5, 2){{$}}
  // ALL-NEXT: worker 11: (6, 2) (7, 2){{$}}
  // ALL-NEXT: worker 12: (0, 3) (1, 3){{$}}
  // ALL-NEXT: worker 13: (2, 3) (3, 3){{$}}
  // ALL-NEXT: worker 14: (4, 3) (5, 3){{$}}
  // ALL-NEXT: worker 15: (6, 3) (7, 3){{$}}
  // ALL-NEXT: worker 16: (0, 4) (1, 4){{$}}
  // ALL-NEXT: worker 17: (2, 4) (3, 4){{$}}
  // ALL-NEXT: worker 18: (4, 4) (5, 4){{$}}
  // ALL-NEXT: worker 19: (6, 4) (7, 4){{$}}
  // ALL-NEXT: worker 20: (0, 5) (1, 5){{$}}
  // ALL-NEXT: worker 21: (2, 5) (3, 5){{$}}
  // ALL-NEXT: worker 22: (4, 5) (5, 5){{$}}
  // ALL-NEXT: worker 23: (6, 5) (7, 5){{$}}
  // ALL-NEXT: worker 24: (0, 6) (1, 6){{$}}
  // ALL-NEXT: worker 25: (2, 6) (3, 6){{$}}
  // ALL-NEXT: worker 26: (4, 6) (5, 6){{$}}
  // ALL-NEXT: worker 27: (6, 6) (7, 6){{$}}
  // ALL-NEXT: worker 28: (0, 7) (1, 7){{$}}
  // ALL-NEXT: worker 29: (2, 7) (3, 7){{$}}
  // ALL-NEXT: worker 30: (4, 7) (5, 7){{$}}
  // ALL-NEXT: worker 31: (6, 7) (7, 7){{$}}
  // ALL-NOT: worker 32:
  tm.foreach (%i, %j) in #tm.compose<spatial<[4, 8], ranks = [1, 0]> * repeat<[2, 1], ranks = [1, 0]>> on lane {
    "test.use"(%i, %j) : (index, index) -> ()
  }

  // The m16n8k16 A map: col_repeat(2,2)*spatial(8,4)*repeat(1,2). Worked
  // example: lane 13 -> (3,2),(3,3),(11,2),(11,3),(3,10),(3,11),(11,10),
  // (11,11).
  // CHECK-LABEL: mapping #tm.compose<repeat<[2, 2], ranks = [1, 0]> * spatial<[8, 4]> * repeat<[1, 2]>> (tm.foreach)
  // CHECK-NEXT: num_workers = 32, task_shape = [16, 16], tasks_per_worker = 8
  // CHECK-NEXT: worker 0: (0, 0) (0, 1) (8, 0) (8, 1) (0, 8) (0, 9) (8, 8) (8, 9){{$}}
  // CHECK-NEXT: worker 5: (1, 2) (1, 3) (9, 2) (9, 3) (1, 10) (1, 11) (9, 10) (9, 11){{$}}
  // CHECK-NEXT: worker 13: (3, 2) (3, 3) (11, 2) (11, 3) (3, 10) (3, 11) (11, 10) (11, 11){{$}}
  // CHECK-NEXT: worker 45: (out of range){{$}}
  // ALL: mapping #tm.compose<repeat<[2, 2], ranks = [1, 0]> * spatial<[8, 4]> * repeat<[1, 2]>> (tm.foreach)
  // ALL-NEXT: num_workers = 32, task_shape = [16, 16], tasks_per_worker = 8
  // ALL-NEXT: worker 0: (0, 0) (0, 1) (8, 0) (8, 1) (0, 8) (0, 9) (8, 8) (8, 9){{$}}
  // ALL-NEXT: worker 1: (0, 2) (0, 3) (8, 2) (8, 3) (0, 10) (0, 11) (8, 10) (8, 11){{$}}
  // ALL-NEXT: worker 2: (0, 4) (0, 5) (8, 4) (8, 5) (0, 12) (0, 13) (8, 12) (8, 13){{$}}
  // ALL-NEXT: worker 3: (0, 6) (0, 7) (8, 6) (8, 7) (0, 14) (0, 15) (8, 14) (8, 15){{$}}
  // ALL-NEXT: worker 4: (1, 0) (1, 1) (9, 0) (9, 1) (1, 8) (1, 9) (9, 8) (9, 9){{$}}
  // ALL-NEXT: worker 5: (1, 2) (1, 3) (9, 2) (9, 3) (1, 10) (1, 11) (9, 10) (9, 11){{$}}
  // ALL-NEXT: worker 6: (1, 4) (1, 5) (9, 4) (9, 5) (1, 12) (1, 13) (9, 12) (9, 13){{$}}
  // ALL-NEXT: worker 7: (1, 6) (1, 7) (9, 6) (9, 7) (1, 14) (1, 15) (9, 14) (9, 15){{$}}
  // ALL-NEXT: worker 8: (2, 0) (2, 1) (10, 0) (10, 1) (2, 8) (2, 9) (10, 8) (10, 9){{$}}
  // ALL-NEXT: worker 9: (2, 2) (2, 3) (10, 2) (10, 3) (2, 10) (2, 11) (10, 10) (10, 11){{$}}
  // ALL-NEXT: worker 10: (2, 4) (2, 5) (10, 4) (10, 5) (2, 12) (2, 13) (10, 12) (10, 13){{$}}
  // ALL-NEXT: worker 11: (2, 6) (2, 7) (10, 6) (10, 7) (2, 14) (2, 15) (10, 14) (10, 15){{$}}
  // ALL-NEXT: worker 12: (3, 0) (3, 1) (11, 0) (11, 1) (3, 8) (3, 9) (11, 8) (11, 9){{$}}
  // ALL-NEXT: worker 13: (3, 2) (3, 3) (11, 2) (11, 3) (3, 10) (3, 11) (11, 10) (11, 11){{$}}
  // ALL-NEXT: worker 14: (3, 4) (3, 5) (11, 4) (11, 5) (3, 12) (3, 13) (11, 12) (11, 13){{$}}
  // ALL-NEXT: worker 15: (3, 6) (3, 7) (11, 6) (11, 7) (3, 14) (3, 15) (11, 14) (11, 15){{$}}
  // ALL-NEXT: worker 16: (4, 0) (4, 1) (12, 0) (12, 1) (4, 8) (4, 9) (12, 8) (12, 9){{$}}
  // ALL-NEXT: worker 17: (4, 2) (4, 3) (12, 2) (12, 3) (4, 10) (4, 11) (12, 10) (12, 11){{$}}
  // ALL-NEXT: worker 18: (4, 4) (4, 5) (12, 4) (12, 5) (4, 12) (4, 13) (12, 12) (12, 13){{$}}
  // ALL-NEXT: worker 19: (4, 6) (4, 7) (12, 6) (12, 7) (4, 14) (4, 15) (12, 14) (12, 15){{$}}
  // ALL-NEXT: worker 20: (5, 0) (5, 1) (13, 0) (13, 1) (5, 8) (5, 9) (13, 8) (13, 9){{$}}
  // ALL-NEXT: worker 21: (5, 2) (5, 3) (13, 2) (13, 3) (5, 10) (5, 11) (13, 10) (13, 11){{$}}
  // ALL-NEXT: worker 22: (5, 4) (5, 5) (13, 4) (13, 5) (5, 12) (5, 13) (13, 12) (13, 13){{$}}
  // ALL-NEXT: worker 23: (5, 6) (5, 7) (13, 6) (13, 7) (5, 14) (5, 15) (13, 14) (13, 15){{$}}
  // ALL-NEXT: worker 24: (6, 0) (6, 1) (14, 0) (14, 1) (6, 8) (6, 9) (14, 8) (14, 9){{$}}
  // ALL-NEXT: worker 25: (6, 2) (6, 3) (14, 2) (14, 3) (6, 10) (6, 11) (14, 10) (14, 11){{$}}
  // ALL-NEXT: worker 26: (6, 4) (6, 5) (14, 4) (14, 5) (6, 12) (6, 13) (14, 12) (14, 13){{$}}
  // ALL-NEXT: worker 27: (6, 6) (6, 7) (14, 6) (14, 7) (6, 14) (6, 15) (14, 14) (14, 15){{$}}
  // ALL-NEXT: worker 28: (7, 0) (7, 1) (15, 0) (15, 1) (7, 8) (7, 9) (15, 8) (15, 9){{$}}
  // ALL-NEXT: worker 29: (7, 2) (7, 3) (15, 2) (15, 3) (7, 10) (7, 11) (15, 10) (15, 11){{$}}
  // ALL-NEXT: worker 30: (7, 4) (7, 5) (15, 4) (15, 5) (7, 12) (7, 13) (15, 12) (15, 13){{$}}
  // ALL-NEXT: worker 31: (7, 6) (7, 7) (15, 6) (15, 7) (7, 14) (7, 15) (15, 14) (15, 15){{$}}
  // ALL-NOT: worker 32:
  tm.foreach (%i, %j) in #tm.compose<repeat<[2, 2], ranks = [1, 0]> * spatial<[8, 4]> * repeat<[1, 2]>> on lane {
    "test.use"(%i, %j) : (index, index) -> ()
  }

  // The m16n8k16 B map: col_repeat(2,1)*col_spatial(4,8)*col_repeat(2,1).
  // CHECK-LABEL: mapping #tm.compose<repeat<[2, 1], ranks = [1, 0]> * spatial<[4, 8], ranks = [1, 0]> * repeat<[2, 1], ranks = [1, 0]>> (tm.foreach)
  // CHECK-NEXT: num_workers = 32, task_shape = [16, 8], tasks_per_worker = 4
  // CHECK-NEXT: worker 0: (0, 0) (1, 0) (8, 0) (9, 0){{$}}
  // CHECK-NEXT: worker 5: (2, 1) (3, 1) (10, 1) (11, 1){{$}}
  // CHECK-NEXT: worker 13: (2, 3) (3, 3) (10, 3) (11, 3){{$}}
  // CHECK-NEXT: worker 45: (out of range){{$}}
  // ALL: mapping #tm.compose<repeat<[2, 1], ranks = [1, 0]> * spatial<[4, 8], ranks = [1, 0]> * repeat<[2, 1], ranks = [1, 0]>> (tm.foreach)
  // ALL-NEXT: num_workers = 32, task_shape = [16, 8], tasks_per_worker = 4
  // ALL-NEXT: worker 0: (0, 0) (1, 0) (8, 0) (9, 0){{$}}
  // ALL-NEXT: worker 1: (2, 0) (3, 0) (10, 0) (11, 0){{$}}
  // ALL-NEXT: worker 2: (4, 0) (5, 0) (12, 0) (13, 0){{$}}
  // ALL-NEXT: worker 3: (6, 0) (7, 0) (14, 0) (15, 0){{$}}
  // ALL-NEXT: worker 4: (0, 1) (1, 1) (8, 1) (9, 1){{$}}
  // ALL-NEXT: worker 5: (2, 1) (3, 1) (10, 1) (11, 1){{$}}
  // ALL-NEXT: worker 6: (4, 1) (5, 1) (12, 1) (13, 1){{$}}
  // ALL-NEXT: worker 7: (6, 1) (7, 1) (14, 1) (15, 1){{$}}
  // ALL-NEXT: worker 8: (0, 2) (1, 2) (8, 2) (9, 2){{$}}
  // ALL-NEXT: worker 9: (2, 2) (3, 2) (10, 2) (11, 2){{$}}
  // ALL-NEXT: worker 10: (4, 2) (5, 2) (12, 2) (13, 2){{$}}
  // ALL-NEXT: worker 11: (6, 2) (7, 2) (14, 2) (15, 2){{$}}
  // ALL-NEXT: worker 12: (0, 3) (1, 3) (8, 3) (9, 3){{$}}
  // ALL-NEXT: worker 13: (2, 3) (3, 3) (10, 3) (11, 3){{$}}
  // ALL-NEXT: worker 14: (4, 3) (5, 3) (12, 3) (13, 3){{$}}
  // ALL-NEXT: worker 15: (6, 3) (7, 3) (14, 3) (15, 3){{$}}
  // ALL-NEXT: worker 16: (0, 4) (1, 4) (8, 4) (9, 4){{$}}
  // ALL-NEXT: worker 17: (2, 4) (3, 4) (10, 4) (11, 4){{$}}
  // ALL-NEXT: worker 18: (4, 4) (5, 4) (12, 4) (13, 4){{$}}
  // ALL-NEXT: worker 19: (6, 4) (7, 4) (14, 4) (15, 4){{$}}
  // ALL-NEXT: worker 20: (0, 5) (1, 5) (8, 5) (9, 5){{$}}
  // ALL-NEXT: worker 21: (2, 5) (3, 5) (10, 5) (11, 5){{$}}
  // ALL-NEXT: worker 22: (4, 5) (5, 5) (12, 5) (13, 5){{$}}
  // ALL-NEXT: worker 23: (6, 5) (7, 5) (14, 5) (15, 5){{$}}
  // ALL-NEXT: worker 24: (0, 6) (1, 6) (8, 6) (9, 6){{$}}
  // ALL-NEXT: worker 25: (2, 6) (3, 6) (10, 6) (11, 6){{$}}
  // ALL-NEXT: worker 26: (4, 6) (5, 6) (12, 6) (13, 6){{$}}
  // ALL-NEXT: worker 27: (6, 6) (7, 6) (14, 6) (15, 6){{$}}
  // ALL-NEXT: worker 28: (0, 7) (1, 7) (8, 7) (9, 7){{$}}
  // ALL-NEXT: worker 29: (2, 7) (3, 7) (10, 7) (11, 7){{$}}
  // ALL-NEXT: worker 30: (4, 7) (5, 7) (12, 7) (13, 7){{$}}
  // ALL-NEXT: worker 31: (6, 7) (7, 7) (14, 7) (15, 7){{$}}
  // ALL-NOT: worker 32:
  tm.foreach (%i, %j) in #tm.compose<repeat<[2, 1], ranks = [1, 0]> * spatial<[4, 8], ranks = [1, 0]> * repeat<[2, 1], ranks = [1, 0]>> on lane {
    "test.use"(%i, %j) : (index, index) -> ()
  }

  // A mapping is listed once, at its first use.
  // CHECK-NOT: mapping #tm.compose<repeat<[2, 1]> * spatial<[8, 4]> * repeat<[1, 2]>>
  // ALL-NOT: mapping #tm.compose<repeat<[2, 1]> * spatial<[8, 4]> * repeat<[1, 2]>>
  %n = tm.num_workers #tm.compose<repeat<[2, 1]> * spatial<[8, 4]> * repeat<[1, 2]>>
  return
}

//===----------------------------------------------------------------------===//
// Worked examples (hidet-semantics.md 1.8): rows 1, 2, 3 and 6; rows 4
// and 5 are above. Worker 45 is out of range of the 32-worker mappings.
//===----------------------------------------------------------------------===//

func.func @worked_examples() {
  // Row 1, repeat(2,1) * spatial(4,8): strided ownership, w=13 -> (1,5),(5,5).
  // CHECK-LABEL: mapping #tm.compose<repeat<[2, 1]> * spatial<[4, 8]>> (tm.num_workers)
  // CHECK-NEXT: num_workers = 32, task_shape = [8, 8], tasks_per_worker = 2
  // CHECK-NEXT: worker 0: (0, 0) (4, 0){{$}}
  // CHECK-NEXT: worker 5: (0, 5) (4, 5){{$}}
  // CHECK-NEXT: worker 13: (1, 5) (5, 5){{$}}
  // CHECK-NEXT: worker 45: (out of range){{$}}
  // ALL: mapping #tm.compose<repeat<[2, 1]> * spatial<[4, 8]>> (tm.num_workers)
  // TRUNC-LABEL: mapping #tm.compose<repeat<[2, 1]> * spatial<[4, 8]>> (tm.num_workers)
  // TRUNC-NEXT: num_workers = 32, task_shape = [8, 8], tasks_per_worker = 2
  // TRUNC-NEXT: worker 0: (0, 0) (4, 0){{$}}
  // TRUNC-NEXT: worker 1: (0, 1) (4, 1){{$}}
  // TRUNC-NEXT: worker 2: (0, 2) (4, 2){{$}}
  // TRUNC-NEXT: worker 3: (0, 3) (4, 3){{$}}
  // TRUNC-NEXT: ... 28 more workers{{$}}
  // GRID-LABEL: mapping #tm.compose<repeat<[2, 1]> * spatial<[4, 8]>> (tm.num_workers)
  // GRID-NEXT: {{^}}  num_workers = 32, task_shape = [8, 8], tasks_per_worker = 2{{$}}
  // GRID-NEXT: {{^}}   0  1  2  3  4  5  6  7{{$}}
  // GRID-NEXT: {{^}}   8  9 10 11 12 13 14 15{{$}}
  // GRID-NEXT: {{^}}  16 17 18 19 20 21 22 23{{$}}
  // GRID-NEXT: {{^}}  24 25 26 27 28 29 30 31{{$}}
  // GRID-NEXT: {{^}}   0  1  2  3  4  5  6  7{{$}}
  // GRID-NEXT: {{^}}   8  9 10 11 12 13 14 15{{$}}
  // GRID-NEXT: {{^}}  16 17 18 19 20 21 22 23{{$}}
  // GRID-NEXT: {{^}}  24 25 26 27 28 29 30 31{{$}}
  %0 = tm.num_workers #tm.compose<repeat<[2, 1]> * spatial<[4, 8]>>

  // Row 2, spatial(4,8) * repeat(2,1): blocked ownership, w=13 -> (2,5),(3,5).
  // CHECK-LABEL: mapping #tm.compose<spatial<[4, 8]> * repeat<[2, 1]>> (tm.num_workers)
  // CHECK-NEXT: num_workers = 32, task_shape = [8, 8], tasks_per_worker = 2
  // CHECK-NEXT: worker 0: (0, 0) (1, 0){{$}}
  // CHECK-NEXT: worker 5: (0, 5) (1, 5){{$}}
  // CHECK-NEXT: worker 13: (2, 5) (3, 5){{$}}
  // CHECK-NEXT: worker 45: (out of range){{$}}
  // GRID-LABEL: mapping #tm.compose<spatial<[4, 8]> * repeat<[2, 1]>> (tm.num_workers)
  // GRID-NEXT: {{^}}  num_workers = 32, task_shape = [8, 8], tasks_per_worker = 2{{$}}
  // GRID-NEXT: {{^}}   0  1  2  3  4  5  6  7{{$}}
  // GRID-NEXT: {{^}}   0  1  2  3  4  5  6  7{{$}}
  // GRID-NEXT: {{^}}   8  9 10 11 12 13 14 15{{$}}
  // GRID-NEXT: {{^}}   8  9 10 11 12 13 14 15{{$}}
  // GRID-NEXT: {{^}}  16 17 18 19 20 21 22 23{{$}}
  // GRID-NEXT: {{^}}  16 17 18 19 20 21 22 23{{$}}
  // GRID-NEXT: {{^}}  24 25 26 27 28 29 30 31{{$}}
  // GRID-NEXT: {{^}}  24 25 26 27 28 29 30 31{{$}}
  %1 = tm.num_workers #tm.compose<spatial<[4, 8]> * repeat<[2, 1]>>

  // Row 3, spatial(2,4) * spatial(4,8): w=13 -> (1,5); w=45 -> (1,13).
  // CHECK-LABEL: mapping #tm.compose<spatial<[2, 4]> * spatial<[4, 8]>> (tm.num_workers)
  // CHECK-NEXT: num_workers = 256, task_shape = [8, 32], tasks_per_worker = 1
  // CHECK-NEXT: worker 0: (0, 0){{$}}
  // CHECK-NEXT: worker 5: (0, 5){{$}}
  // CHECK-NEXT: worker 13: (1, 5){{$}}
  // CHECK-NEXT: worker 45: (1, 13){{$}}
  // TRUNC-LABEL: mapping #tm.compose<spatial<[2, 4]> * spatial<[4, 8]>> (tm.num_workers)
  // TRUNC-NEXT: num_workers = 256, task_shape = [8, 32], tasks_per_worker = 1
  // TRUNC-NEXT: worker 0: (0, 0){{$}}
  // TRUNC-NEXT: worker 1: (0, 1){{$}}
  // TRUNC-NEXT: worker 2: (0, 2){{$}}
  // TRUNC-NEXT: worker 3: (0, 3){{$}}
  // TRUNC-NEXT: ... 252 more workers{{$}}
  %2 = tm.num_workers #tm.compose<spatial<[2, 4]> * spatial<[4, 8]>>

  // Row 6, auto_map(128, 2, workers=128) = repeat(2,1) * spatial(64,2):
  // w=5 -> (2,1),(66,1).
  // CHECK-LABEL: mapping #tm.compose<repeat<[2, 1]> * spatial<[64, 2]>> (tm.num_workers)
  // CHECK-NEXT: num_workers = 128, task_shape = [128, 2], tasks_per_worker = 2
  // CHECK-NEXT: worker 0: (0, 0) (64, 0){{$}}
  // CHECK-NEXT: worker 5: (2, 1) (66, 1){{$}}
  // CHECK-NEXT: worker 13: (6, 1) (70, 1){{$}}
  // CHECK-NEXT: worker 45: (22, 1) (86, 1){{$}}
  %3 = tm.num_workers #tm.auto_map<[128, 2], workers = 128>

  return
}

//===----------------------------------------------------------------------===//
// Collection and the grid view
//===----------------------------------------------------------------------===//

// Mappings are found inside arrays and dictionaries, in order. The grid view
// shows the owner of each cell of a rank-2 task grid; cells with several
// owners (a projection) join them with '/'.
func.func @grid_view() {
  // CHECK-LABEL: mapping #tm.spatial<[2, 4]> (test.op)
  // CHECK-NEXT: num_workers = 8, task_shape = [2, 4], tasks_per_worker = 1
  // CHECK-NEXT: worker 0: (0, 0){{$}}
  // CHECK-NEXT: worker 5: (1, 1){{$}}
  // CHECK-NEXT: worker 13: (out of range){{$}}
  // CHECK-NEXT: worker 45: (out of range){{$}}
  // CHECK-LABEL: mapping #tm.repeat<[2, 3]> (test.op)
  // CHECK-NEXT: num_workers = 1, task_shape = [2, 3], tasks_per_worker = 6
  // CHECK-NEXT: worker 0: (0, 0) (0, 1) (0, 2) (1, 0) (1, 1) (1, 2){{$}}
  // CHECK-NEXT: worker 5: (out of range){{$}}
  // CHECK-NEXT: worker 13: (out of range){{$}}
  // CHECK-NEXT: worker 45: (out of range){{$}}
  // CHECK-LABEL: mapping #tm.project<spatial<[2, 4]>, dims = [1]> (test.op)
  // CHECK-NEXT: num_workers = 8, task_shape = [2, 1], tasks_per_worker = 1
  // CHECK-NEXT: worker 0: (0, 0){{$}}
  // CHECK-NEXT: worker 5: (1, 0){{$}}
  // CHECK-NEXT: worker 13: (out of range){{$}}
  // CHECK-NEXT: worker 45: (out of range){{$}}
  // GRID-LABEL: mapping #tm.spatial<[2, 4]> (test.op)
  // GRID-NEXT: {{^}}  num_workers = 8, task_shape = [2, 4], tasks_per_worker = 1{{$}}
  // GRID-NEXT: {{^}}  0 1 2 3{{$}}
  // GRID-NEXT: {{^}}  4 5 6 7{{$}}
  // GRID-LABEL: mapping #tm.repeat<[2, 3]> (test.op)
  // GRID-NEXT: {{^}}  num_workers = 1, task_shape = [2, 3], tasks_per_worker = 6{{$}}
  // GRID-NEXT: {{^}}  0 0 0{{$}}
  // GRID-NEXT: {{^}}  0 0 0{{$}}
  // GRID-LABEL: mapping #tm.project<spatial<[2, 4]>, dims = [1]> (test.op)
  // GRID-NEXT: {{^}}  num_workers = 8, task_shape = [2, 1], tasks_per_worker = 1{{$}}
  // GRID-NEXT: {{^}}  0/1/2/3{{$}}
  // GRID-NEXT: {{^}}  4/5/6/7{{$}}
  "test.op"() {maps = [#tm.spatial<[2, 4]>, {inner = #tm.repeat<[2, 3]>}],
               proj = #tm.project<spatial<[2, 4]>, dims = [1]>} : () -> ()

  // A mapping of rank 1 has no grid: the view lists its workers.
  // GRID-LABEL: mapping #tm.spatial<[4]> (tm.num_workers)
  // GRID-NEXT: num_workers = 4, task_shape = [4], tasks_per_worker = 1
  // GRID-NEXT: (grid view needs a rank-2 mapping of at most 65536 tasks; listing workers)
  // GRID-NEXT: worker 0: (0){{$}}
  // GRID-NEXT: worker 1: (1){{$}}
  // GRID-NEXT: worker 2: (2){{$}}
  // GRID-NEXT: worker 3: (3){{$}}
  %n = tm.num_workers #tm.spatial<[4]>
  return
}

// BADVIEW: error: tm-print-task-table: unknown view 'table'; expected 'workers' or 'grid'
