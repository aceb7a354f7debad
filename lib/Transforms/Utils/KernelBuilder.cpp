//===- KernelBuilder.cpp - Helpers that build GPU kernels -----------------===//
//
// Part of the Hidet-MLIR project.
//
//===----------------------------------------------------------------------===//
//
// Index constants and comparisons, launches whose grid comes from a task
// mapping, and the alignment of vector accesses.
//
//===----------------------------------------------------------------------===//

#include "KernelBuilder.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Interfaces/FunctionInterfaces.h"

#include "llvm/ADT/StringExtras.h"

using namespace mlir;

namespace hidet {
namespace kernel {

Value cst(OpBuilder &b, Location loc, int64_t v) {
  return arith::ConstantIndexOp::create(b, loc, v);
}

Value lessThan(OpBuilder &b, Location loc, Value v, int64_t bound) {
  return arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ult, v,
                               cst(b, loc, bound));
}

StringRef locationName(Location loc) {
  StringRef found;
  loc->walk([&](Location inner) {
    if (auto named = dyn_cast<NameLoc>(inner)) {
      found = named.getName().getValue();
      return WalkResult::interrupt();
    }
    return WalkResult::advance();
  });
  return found;
}

std::string kernelName(Location loc, StringRef kind, StringRef parent) {
  StringRef name = locationName(loc);
  std::string raw = name.empty() ? (parent + "_" + kind).str()
                                 : (kind + "_" + name).str();
  // A symbol and a PTX identifier: other characters become one '_'.
  std::string out;
  for (char c : raw) {
    bool keep = llvm::isAlnum(c) || c == '_';
    if (keep)
      out += c;
    else if (!out.empty() && out.back() != '_')
      out += '_';
  }
  while (!out.empty() && out.back() == '_')
    out.pop_back();
  constexpr size_t kMaxLength = 96;
  if (out.size() > kMaxLength)
    out.resize(kMaxLength);
  return out.empty() ? kind.str() : out;
}

/// Creates a 1-D `gpu.launch` of ceil(num_workers(mapping) / perBlock)
/// blocks of `blockSize` threads and calls `body` inside it. The grid size is
/// computed from the mapping in the IR, so it cannot drift from it.
void createLaunch(OpBuilder &b, Location loc, StringRef kind,
                  hidet::tm::TaskMappingAttrInterface mapping,
                  int64_t workersPerBlock, int64_t blockSize,
                  function_ref<void(OpBuilder &, gpu::LaunchOp)> body,
                  TypeRange workgroupBuffers) {
  Value workers =
      hidet::tm::NumWorkersOp::create(b, loc, b.getIndexType(), mapping);
  Value block = cst(b, loc, blockSize);
  Value perBlock =
      workersPerBlock == blockSize ? block : cst(b, loc, workersPerBlock);
  Value grid = arith::CeilDivUIOp::create(b, loc, workers, perBlock);
  Value one = cst(b, loc, 1);
  auto launch = gpu::LaunchOp::create(
      b, loc, grid, one, one, block, one, one,
      /*dynamicSharedMemorySize=*/nullptr, /*asyncTokenType=*/nullptr,
      /*asyncDependencies=*/{}, workgroupBuffers);
  StringRef parent;
  if (auto func = launch->getParentOfType<FunctionOpInterface>())
    parent = func.getName();
  launch.setFunctionAttr(
      FlatSymbolRefAttr::get(b.getContext(), kernelName(loc, kind, parent)));
  describeKernel(launch, "kind", b.getStringAttr(kind));
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPointToStart(&launch.getBody().front());
  body(b, launch);
  gpu::TerminatorOp::create(b, loc);
}

/// The first gpu.launch between `before` (or the start of `at`'s block) and
/// `at`, or null.
static Operation *firstLaunch(Operation *before, Operation *at) {
  Block::iterator it =
      before ? std::next(before->getIterator()) : at->getBlock()->begin();
  for (; &*it != at; ++it)
    if (isa<gpu::LaunchOp>(*it))
      return &*it;
  return nullptr;
}

void recordOnFirstLaunch(Operation *before, Operation *at, StringRef name,
                         Attribute value) {
  if (Operation *launch = firstLaunch(before, at))
    launch->setAttr(name, value);
}

void describeKernel(Operation *launch, StringRef key, Attribute value) {
  NamedAttrList entries;
  if (auto old = launch->getAttrOfType<DictionaryAttr>(kKernelAttrName))
    entries.append(old.getValue());
  entries.set(key, value);
  launch->setAttr(kKernelAttrName,
                  entries.getDictionary(launch->getContext()));
}

void describeFirstLaunch(Operation *before, Operation *at, StringRef key,
                         Attribute value) {
  if (Operation *launch = firstLaunch(before, at))
    describeKernel(launch, key, value);
}

ArrayAttr stringArray(MLIRContext *ctx, ArrayRef<std::string> items) {
  Builder b(ctx);
  return b.getArrayAttr(llvm::map_to_vector(
      items, [&](const std::string &s) -> Attribute {
        return b.getStringAttr(s);
      }));
}

llvm::MaybeAlign vectorAlign(Type elt, int64_t width) {
  return llvm::MaybeAlign(width * ((elt.getIntOrFloatBitWidth() + 7) / 8));
}

bool isVectorizableElement(Type t) {
  return t.isIntOrFloat() && t.getIntOrFloatBitWidth() >= 8;
}

} // namespace kernel
} // namespace hidet
