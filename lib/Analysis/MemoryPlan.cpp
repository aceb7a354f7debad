//===- MemoryPlan.cpp - Offsets of buffers in one arena -------------------===//
//
// Part of the Hidet-MLIR project.
//
//===----------------------------------------------------------------------===//

#include "Hidet/Analysis/MemoryPlan.h"

#include <algorithm>
#include <cassert>
#include <numeric>

using namespace hidet;

static uint64_t alignTo(uint64_t n, uint64_t alignment) {
  return (n + alignment - 1) & ~(alignment - 1);
}

static bool liveTogether(const BufferLiveRange &a, const BufferLiveRange &b) {
  return a.first <= b.last && b.first <= a.last;
}

/// The in-place hints that are taken (see BufferLiveRange::inPlaceOf).
static std::vector<std::optional<size_t>>
acceptInPlace(const std::vector<BufferLiveRange> &buffers) {
  std::vector<std::optional<size_t>> accepted(buffers.size());
  std::vector<bool> claimed(buffers.size(), false);
  for (size_t i = 0; i < buffers.size(); ++i) {
    std::optional<size_t> target = buffers[i].inPlaceOf;
    if (!target || *target >= buffers.size() || *target == i ||
        claimed[*target])
      continue;
    const BufferLiveRange &old = buffers[*target];
    if (old.last != buffers[i].first || old.first >= old.last)
      continue;
    claimed[*target] = true;
    accepted[i] = target;
  }
  return accepted;
}

unsigned MemoryPlan::getNumInPlace() const {
  return static_cast<unsigned>(std::count_if(
      inPlaceOf.begin(), inPlaceOf.end(),
      [](const std::optional<size_t> &t) { return t.has_value(); }));
}

MemoryPlan hidet::planMemory(const std::vector<BufferLiveRange> &buffers,
                             uint64_t alignment) {
  assert(alignment && (alignment & (alignment - 1)) == 0 &&
         "alignment must be a power of two");
  MemoryPlan plan;
  size_t n = buffers.size();
  plan.offsets.assign(n, 0);
  plan.inPlaceOf = acceptInPlace(buffers);
  for (const BufferLiveRange &b : buffers)
    plan.sumOfSizes += alignTo(b.size, alignment);

  // Buffers overwritten in place form chains; each chain is planned as one
  // buffer of the largest member's size over the union of their ranges.
  std::vector<size_t> group(n);
  std::iota(group.begin(), group.end(), 0);
  auto find = [&](size_t i) {
    while (group[i] != i)
      i = group[i] = group[group[i]];
    return i;
  };
  for (size_t i = 0; i < n; ++i)
    if (plan.inPlaceOf[i])
      group[find(i)] = find(*plan.inPlaceOf[i]);
  std::vector<BufferLiveRange> merged(n);
  std::vector<bool> isRoot(n, false);
  for (size_t i = 0; i < n; ++i) {
    size_t r = find(i);
    BufferLiveRange &m = merged[r];
    if (!isRoot[r]) {
      isRoot[r] = true;
      m = buffers[i];
      m.size = alignTo(m.size, alignment);
      continue;
    }
    m.size = std::max(m.size, alignTo(buffers[i].size, alignment));
    m.first = std::min(m.first, buffers[i].first);
    m.last = std::max(m.last, buffers[i].last);
  }

  // Largest first; ties by earlier first use, then by index.
  std::vector<size_t> order;
  for (size_t i = 0; i < n; ++i)
    if (isRoot[i])
      order.push_back(i);
  std::stable_sort(order.begin(), order.end(), [&](size_t a, size_t b) {
    if (merged[a].size != merged[b].size)
      return merged[a].size > merged[b].size;
    return merged[a].first < merged[b].first;
  });

  std::vector<size_t> placed;
  std::vector<std::pair<uint64_t, uint64_t>> busy; // [begin, end) in bytes
  for (size_t i : order) {
    const BufferLiveRange &b = merged[i];
    busy.clear();
    for (size_t j : placed)
      if (liveTogether(b, merged[j]) && merged[j].size)
        busy.push_back({plan.offsets[j], plan.offsets[j] + merged[j].size});
    std::sort(busy.begin(), busy.end());
    // The smallest gap that fits, else the end of the busy ranges.
    uint64_t best = UINT64_MAX, bestGap = UINT64_MAX, at = 0;
    for (const auto &[begin, end] : busy) {
      if (begin >= at && begin - at >= b.size && begin - at < bestGap) {
        best = at;
        bestGap = begin - at;
      }
      at = std::max(at, end);
    }
    plan.offsets[i] = best != UINT64_MAX ? best : at;
    plan.arenaSize = std::max(plan.arenaSize, plan.offsets[i] + b.size);
    placed.push_back(i);
  }
  for (size_t i = 0; i < n; ++i)
    plan.offsets[i] = plan.offsets[find(i)];
  return plan;
}

std::optional<std::string>
hidet::verifyMemoryPlan(const std::vector<BufferLiveRange> &buffers,
                        const MemoryPlan &plan, uint64_t alignment) {
  if (plan.offsets.size() != buffers.size())
    return std::string("the plan has ") + std::to_string(plan.offsets.size()) +
           " offsets for " + std::to_string(buffers.size()) + " buffers";
  for (size_t i = 0; i < buffers.size(); ++i) {
    if (plan.offsets[i] % alignment)
      return "buffer " + std::to_string(i) + " is not aligned";
    if (plan.offsets[i] + buffers[i].size > plan.arenaSize)
      return "buffer " + std::to_string(i) + " ends beyond the arena";
  }
  for (size_t i = 0; i < buffers.size(); ++i) {
    for (size_t j = i + 1; j < buffers.size(); ++j) {
      const BufferLiveRange &a = buffers[i], &b = buffers[j];
      if (!a.size || !b.size || !liveTogether(a, b))
        continue;
      bool inPlace = (plan.inPlaceOf.size() > j && plan.inPlaceOf[j] == i) ||
                     (plan.inPlaceOf.size() > i && plan.inPlaceOf[i] == j);
      if (inPlace && plan.offsets[i] == plan.offsets[j])
        continue;
      if (plan.offsets[i] < plan.offsets[j] + b.size &&
          plan.offsets[j] < plan.offsets[i] + a.size)
        return "buffers " + std::to_string(i) + " and " + std::to_string(j) +
               " are live together and overlap";
    }
  }
  return std::nullopt;
}
