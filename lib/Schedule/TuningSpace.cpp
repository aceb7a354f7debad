//===- TuningSpace.cpp - The candidates a tuner measures ------------------===//
//
// Part of the Hidet-MLIR project.
//
//===----------------------------------------------------------------------===//

#include "Hidet/Schedule/TuningSpace.h"

using namespace hidet::schedule;

std::optional<SpaceLevel>
hidet::schedule::parseSpaceLevel(const std::string &name) {
  if (name == "default")
    return SpaceLevel::Default;
  if (name == "small")
    return SpaceLevel::Small;
  if (name == "full")
    return SpaceLevel::Full;
  return std::nullopt;
}

namespace {
/// Whether `s` belongs to the small space around the heuristic's `d`. For
/// the SIMT template that is the heuristic's own tiles at every staging:
/// its choice among them rests on a model of waves and occupancy that a
/// measurement settles (on the H100, TF32 off, 4096 x 2304 x 768 with a
/// bias ran 0.406 ms on the 128 x 128 tile it picks and 0.325 on the
/// 64 x 128 tile with 4 stages, while 4096 x 50257 x 768 ran 7.14 and 7.53).
bool near(const SimtMatmulSchedule &s, const SimtMatmulSchedule &d) {
  return s.grid == d.grid && isHeuristicSimtTile(s);
}
bool near(const MmaMatmulSchedule &s, const MmaMatmulSchedule &d) {
  return s.grid == d.grid && s.stages == d.stages && s.mma == d.mma &&
         s.block[2] == d.block[2] && s.numWarps() == d.numWarps();
}
bool near(const WgmmaMatmulSchedule &s, const WgmmaMatmulSchedule &d) {
  return s.grid == d.grid && s.stages == d.stages;
}

bool same(const SimtMatmulSchedule &a, const SimtMatmulSchedule &b) {
  return a == b;
}
bool same(const MmaMatmulSchedule &a, const MmaMatmulSchedule &b) {
  return near(a, b) && a.block == b.block && a.warp == b.warp;
}
bool same(const WgmmaMatmulSchedule &a, const WgmmaMatmulSchedule &b) {
  return near(a, b) && a.block == b.block && a.persistent == b.persistent &&
         a.pingpong == b.pingpong;
}

/// The K extent of one step of `s`'s main loop.
int64_t blockK(const SimtMatmulSchedule &s) { return s.blockK; }
int64_t blockK(const MmaMatmulSchedule &s) { return s.block[2]; }
int64_t blockK(const WgmmaMatmulSchedule &) {
  return WgmmaMatmulSchedule::kBlockK;
}

/// Whether `s` is the heuristic's `d` with another split-K factor that
/// leaves each slice at least kMinStepsPerSlice K steps of `g`: the
/// heuristic's cost model picks the split from a fitted rate, and where the
/// output tiles do not fill the GPU (a 7x7 convolution's 1568 rows) the
/// best split is the measurement's to find.
template <typename Schedule>
bool splitSibling(const Schedule &s, const Schedule &d, const GemmDesc &g) {
  Schedule resplit = s;
  resplit.grid.splitK = d.grid.splitK;
  int64_t steps = (g.k + blockK(s) - 1) / blockK(s);
  return s.grid.splitK != d.grid.splitK && same(resplit, d) &&
         steps / s.grid.splitK >= kMinStepsPerSlice;
}

/// The heuristic's `d` first, then the space's schedules that the level
/// keeps.
template <typename Schedule>
std::vector<AnySchedule> candidates(const Schedule &d,
                                    const std::vector<Schedule> &space,
                                    const GemmDesc &g, SpaceLevel level) {
  std::vector<AnySchedule> out = {d};
  if (level == SpaceLevel::Default)
    return out;
  for (const Schedule &s : space)
    if ((level == SpaceLevel::Full || near(s, d) || splitSibling(s, d, g)) &&
        !same(s, d))
      out.push_back(s);
  return out;
}
} // namespace

std::vector<AnySchedule>
hidet::schedule::tuningCandidates(const GemmDesc &g, TemplateKind kind,
                                  const TargetLimits &target,
                                  SpaceLevel level) {
  AnySchedule d = defaultSchedule(g, kind, target);
  switch (kind) {
  case TemplateKind::None:
    return {};
  case TemplateKind::Simt:
    return candidates(std::get<SimtMatmulSchedule>(d),
                      enumerateSimtSpace(target), g, level);
  case TemplateKind::Mma:
    return candidates(std::get<MmaMatmulSchedule>(d),
                      enumerateMmaSpace(target, mmaShapeFor(g)), g, level);
  case TemplateKind::Wgmma:
    return candidates(std::get<WgmmaMatmulSchedule>(d),
                      enumerateWgmmaSpace(target), g, level);
  }
  return {};
}
