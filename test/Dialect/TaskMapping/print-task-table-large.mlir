// RUN: hidet-opt %s --allow-unregistered-dialect --tm-print-task-table='max-workers=2' -o /dev/null | FileCheck %s
// RUN: hidet-opt %s --allow-unregistered-dialect --tm-print-task-table='view=grid max-workers=2' -o /dev/null | FileCheck %s --check-prefix=GRID

// tm-print-task-table on mappings too large to enumerate: the printer must
// not build a worker's full task list (2^30 tasks here: std::bad_alloc), nor
// the grid view enumerate every worker of a projection with 2^40 workers.

// CHECK-LABEL: mapping #tm.repeat<[1048576, 1024]> (tm.num_workers)
// CHECK-NEXT: num_workers = 1, task_shape = [1048576, 1024], tasks_per_worker = 1073741824
// CHECK-NEXT: worker 0: (1073741824 tasks, too many to list){{$}}
// GRID-LABEL: mapping #tm.repeat<[1048576, 1024]> (tm.num_workers)
// GRID-NEXT: num_workers = 1, task_shape = [1048576, 1024], tasks_per_worker = 1073741824
// GRID-NEXT: (grid view needs a rank-2 mapping of at most 65536 tasks; listing workers)
// GRID-NEXT: worker 0: (1073741824 tasks, too many to list){{$}}
%0 = tm.num_workers #tm.repeat<[1048576, 1024]>

// The task grid is [1, 1] but every one of the 2^40 workers owns its cell.
// CHECK-LABEL: mapping #tm.project<spatial<[1048576, 1048576]>, dims = [0, 1]> (tm.num_workers)
// CHECK-NEXT: num_workers = 1099511627776, task_shape = [1, 1], tasks_per_worker = 1
// CHECK-NEXT: worker 0: (0, 0){{$}}
// CHECK-NEXT: worker 1: (0, 0){{$}}
// CHECK-NEXT: ... 1099511627774 more workers{{$}}
// GRID-LABEL: mapping #tm.project<spatial<[1048576, 1048576]>, dims = [0, 1]> (tm.num_workers)
// GRID-NEXT: num_workers = 1099511627776, task_shape = [1, 1], tasks_per_worker = 1
// GRID-NEXT: (grid view needs a rank-2 mapping of at most 65536 tasks; listing workers)
// GRID-NEXT: worker 0: (0, 0){{$}}
%1 = tm.num_workers #tm.project<spatial<[1048576, 1048576]>, dims = [0, 1]>

// A worker of a huge spatial mapping is listed: it owns one task.
// CHECK-LABEL: mapping #tm.spatial<[1048576, 1048576]> (tm.num_workers)
// CHECK-NEXT: num_workers = 1099511627776, task_shape = [1048576, 1048576], tasks_per_worker = 1
// CHECK-NEXT: worker 0: (0, 0){{$}}
// CHECK-NEXT: worker 1: (0, 1){{$}}
// CHECK-NEXT: ... 1099511627774 more workers{{$}}
%2 = tm.num_workers #tm.spatial<[1048576, 1048576]>
