//===- ManifestTargetTest.cpp - Tests of the manifest's target ------------===//
//
// Part of the Hidet-MLIR project.
//
//===----------------------------------------------------------------------===//
//
// The `target` statement (hidet/Manifest.h): optional, at most once, before
// the first func, and either cpu or gpu.
//
//===----------------------------------------------------------------------===//

#include "ManifestParser.h"

#include <gtest/gtest.h>

using namespace hidet::run;

namespace {

const char *const kFunc = "func f 1 1\n"
                          "arg 0 in f32 4\n"
                          "arg 1 out f32 4\n";

/// Parses a manifest of `header` lines, then kFunc, then `trailer`.
bool parse(const std::string &header, Manifest &manifest, std::string &error,
           const std::string &trailer = "") {
  return parseManifest("hidet-manifest 1\n" + header + kFunc + trailer,
                       manifest, error);
}

TEST(ManifestTarget, NamesWhereBuffersLive) {
  Manifest manifest;
  std::string error;
  ASSERT_TRUE(parse("target cpu\n", manifest, error)) << error;
  EXPECT_EQ(manifest.target, Target::Cpu);
  ASSERT_TRUE(parse("# built for\ntarget\tgpu\n", manifest, error)) << error;
  EXPECT_EQ(manifest.target, Target::Gpu);
  EXPECT_STREQ(getTargetName(Target::Cpu), "cpu");
  EXPECT_STREQ(getTargetName(Target::Gpu), "gpu");
}

TEST(ManifestTarget, IsOptional) {
  Manifest manifest;
  std::string error;
  ASSERT_TRUE(parse("target cpu\n", manifest, error)) << error;
  // A manifest parsed again starts afresh.
  ASSERT_TRUE(parse("", manifest, error)) << error;
  EXPECT_FALSE(manifest.target.has_value());
}

TEST(ManifestTarget, RejectsMisuse) {
  Manifest manifest;
  std::string error;
  EXPECT_FALSE(parse("target tpu\n", manifest, error));
  EXPECT_EQ(error, "line 2: expected 'target cpu' or 'target gpu'");
  EXPECT_FALSE(parse("target\n", manifest, error));
  EXPECT_EQ(error, "line 2: expected 'target cpu' or 'target gpu'");
  EXPECT_FALSE(parse("target cpu\ntarget gpu\n", manifest, error));
  EXPECT_EQ(error, "line 3: 'target' is given twice");
  EXPECT_FALSE(parse("", manifest, error, "target gpu\n"));
  EXPECT_EQ(error, "line 5: 'target' must come before the first 'func'");
  EXPECT_FALSE(parse("targets cpu\n", manifest, error));
  EXPECT_EQ(error, "line 2: unknown statement 'targets'; expected 'target', "
                   "'weights', 'func', 'workspace', 'arg' or 'check'");
}

} // namespace
