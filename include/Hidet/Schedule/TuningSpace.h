//===- TuningSpace.h - The candidates a tuner measures ----------*- C++ -*-===//
//
// Part of the Hidet-MLIR project.
//
//===----------------------------------------------------------------------===//
//
// The schedules a tuner measures for an anchor, at three levels: the
// heuristic's alone, a small space around it (tens of schedules), and the
// template's whole space. Plain C++, like the spaces themselves.
//
//===----------------------------------------------------------------------===//

#ifndef HIDET_SCHEDULE_TUNINGSPACE_H
#define HIDET_SCHEDULE_TUNINGSPACE_H

#include "Hidet/Schedule/Heuristic.h"

#include <optional>
#include <string>
#include <vector>

namespace hidet {
namespace schedule {

/// How much of a template's space a tuner measures.
enum class SpaceLevel {
  /// The heuristic's schedule alone.
  Default,
  /// The schedules that keep the heuristic's grid (tile order, split-K),
  /// pipeline depth (stages, block K) and threads per block, and differ in
  /// the block and warp tiles (and, on Hopper, in persistence and pingpong
  /// consumers), and the heuristic's schedule with each other split-K
  /// factor that leaves every slice at least 4 K steps: tens of schedules.
  Small,
  /// The template's whole space on the target.
  Full,
};

/// The level named `default`, `small` or `full`.
std::optional<SpaceLevel> parseSpaceLevel(const std::string &name);

/// The candidates for `g` in template `kind` on `target` at `level`: the
/// heuristic's schedule first, then the others in the space's order. Every
/// candidate fits the target; whether it fits the anchor (tile shapes,
/// operand layouts) is the anchor's check. Empty for TemplateKind::None.
std::vector<AnySchedule> tuningCandidates(const GemmDesc &g, TemplateKind kind,
                                          const TargetLimits &target,
                                          SpaceLevel level);

} // namespace schedule
} // namespace hidet

#endif // HIDET_SCHEDULE_TUNINGSPACE_H
