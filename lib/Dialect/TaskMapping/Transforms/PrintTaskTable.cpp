//===- PrintTaskTable.cpp - Print worker -> tasks tables ------------------===//
//
// Part of the Hidet-MLIR project.
//
//===----------------------------------------------------------------------===//
//
// This file implements `tm-print-task-table`, which prints, for every task
// mapping in the IR, which tasks each worker performs, in order. The tables
// come from the algebra's enumeration (TaskMapping::tasksOf), so they state
// what a mapping means independently of how it is lowered.
//
//===----------------------------------------------------------------------===//

#include "Hidet/Dialect/TaskMapping/IR/TaskMapping.h"
#include "Hidet/Dialect/TaskMapping/Transforms/Passes.h"

#include "mlir/IR/BuiltinAttributes.h"
#include "llvm/ADT/SetVector.h"
#include "llvm/Support/raw_ostream.h"

namespace hidet {
namespace tm {
#define GEN_PASS_DEF_PRINTTASKTABLE
#include "Hidet/Dialect/TaskMapping/Transforms/Passes.h.inc"
} // namespace tm
} // namespace hidet

using namespace mlir;
using namespace hidet;
using namespace hidet::tm;

/// Collects the mappings in `attr`, looking through arrays and dictionaries
/// but not into mappings (a composition's factors are part of it).
static void collectMappings(
    Attribute attr, Operation *owner,
    llvm::SetVector<std::pair<TaskMappingAttrInterface, Operation *>> &out,
    llvm::DenseSet<Attribute> &seen) {
  if (auto m = dyn_cast<TaskMappingAttrInterface>(attr)) {
    if (seen.insert(m).second)
      out.insert({m, owner});
    return;
  }
  if (auto array = dyn_cast<ArrayAttr>(attr))
    for (Attribute a : array)
      collectMappings(a, owner, out, seen);
  if (auto dict = dyn_cast<DictionaryAttr>(attr))
    for (NamedAttribute a : dict)
      collectMappings(a.getValue(), owner, out, seen);
}

static void printTask(llvm::raw_ostream &os, const algebra::Task &t) {
  os << "(";
  llvm::interleaveComma(t, os);
  os << ")";
}

/// Enumeration is exact but costs O(tasks): huge task lists are summarized.
static constexpr int64_t kMaxListedTasks = 1 << 16;

static void printWorkerView(llvm::raw_ostream &os,
                            const algebra::TaskMapping &m,
                            ArrayRef<int64_t> workers, int64_t maxWorkers) {
  auto printWorker = [&](int64_t w) {
    os << "  worker " << w << ":";
    if (m.getTasksPerWorker() > kMaxListedTasks) {
      os << " (" << m.getTasksPerWorker() << " tasks, too many to list)\n";
      return;
    }
    for (const algebra::Task &t : m.tasksOf(w)) {
      os << " ";
      printTask(os, t);
    }
    os << "\n";
  };
  if (!workers.empty()) {
    for (int64_t w : workers) {
      if (w < 0 || w >= m.getNumWorkers())
        os << "  worker " << w << ": (out of range)\n";
      else
        printWorker(w);
    }
    return;
  }
  int64_t shown = std::min(m.getNumWorkers(), std::max<int64_t>(maxWorkers, 0));
  for (int64_t w = 0; w < shown; ++w)
    printWorker(w);
  if (shown < m.getNumWorkers())
    os << "  ... " << m.getNumWorkers() - shown << " more workers\n";
}

static void printGridView(llvm::raw_ostream &os,
                          const algebra::TaskMapping &m) {
  const algebra::Shape &shape = m.getTaskShape();
  std::vector<std::vector<std::string>> owners(
      shape[0], std::vector<std::string>(shape[1]));
  for (int64_t w = 0; w < m.getNumWorkers(); ++w)
    for (const algebra::Task &t : m.tasksOf(w)) {
      std::string &cell = owners[t[0]][t[1]];
      cell += (cell.empty() ? "" : "/") + std::to_string(w);
    }
  size_t width = 1;
  for (const auto &row : owners)
    for (const std::string &cell : row)
      width = std::max(width, cell.size());
  for (const auto &row : owners) {
    os << " ";
    for (const std::string &cell : row) {
      os << " ";
      os.indent(width - (cell.empty() ? 1 : cell.size()))
          << (cell.empty() ? "." : cell);
    }
    os << "\n";
  }
}

namespace {
struct PrintTaskTablePass
    : public hidet::tm::impl::PrintTaskTableBase<PrintTaskTablePass> {
  using Base::Base;

  void runOnOperation() final {
    if (view != "workers" && view != "grid") {
      getOperation()->emitError("tm-print-task-table: unknown view '")
          << view << "'; expected 'workers' or 'grid'";
      return signalPassFailure();
    }
    llvm::SetVector<std::pair<TaskMappingAttrInterface, Operation *>> found;
    llvm::DenseSet<Attribute> seen;
    getOperation()->walk<WalkOrder::PreOrder>([&](Operation *op) {
      for (NamedAttribute attr : op->getAttrs())
        collectMappings(attr.getValue(), op, found, seen);
    });

    llvm::raw_ostream &os = llvm::outs();
    // Enumeration is exact but costs O(tasks): refuse to print huge grids.
    constexpr int64_t kMaxGridTasks = kMaxListedTasks;
    for (auto [attr, owner] : found) {
      algebra::TaskMapping m = attr.toAlgebra();
      os << "mapping " << Attribute(attr) << " (" << owner->getName()
         << ")\n";
      os << "  num_workers = " << m.getNumWorkers() << ", task_shape = [";
      llvm::interleaveComma(m.getTaskShape(), os);
      os << "], tasks_per_worker = " << m.getTasksPerWorker() << "\n";
      // The grid view enumerates the tasks of every worker.
      if (view == "grid" && m.getRank() == 2 &&
          algebra::product(m.getTaskShape()) <= kMaxGridTasks &&
          m.getTasksPerWorker() <= kMaxGridTasks / m.getNumWorkers()) {
        printGridView(os, m);
        continue;
      }
      if (view == "grid")
        os << "  (grid view needs a rank-2 mapping of at most "
           << kMaxGridTasks << " tasks; listing workers)\n";
      printWorkerView(os, m, workers, maxWorkers);
    }
    os.flush();
    markAllAnalysesPreserved();
  }
};
} // namespace
