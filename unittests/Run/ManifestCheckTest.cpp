//===- ManifestCheckTest.cpp - Tests of `check` statements ----------------===//
//
// Part of the Hidet-MLIR project.
//
//===----------------------------------------------------------------------===//
//
// `check <input>|- <extent>|- [<node>]` (hidet/Manifest.h): a status the
// function writes after its outputs, for each op that reads at indices
// that come from data (hidet-check-indices).
//
//===----------------------------------------------------------------------===//

#include "ManifestParser.h"

#include <gtest/gtest.h>

using namespace hidet::run;

namespace {

/// A function of an i64 input, a weight and one output, then `rest`.
bool parse(const std::string &rest, Manifest &manifest, std::string &error) {
  return parseManifest("hidet-manifest 1\nfunc f 2 1\n"
                       "arg 0 in i64 2x8 ids\n"
                       "arg 1 weight f32 16x4 table\n"
                       "arg 2 out f32 2x8x4\n" +
                           rest,
                       manifest, error);
}

TEST(ManifestCheck, NamesAnInputAnExtentAndANode) {
  Manifest manifest;
  std::string error;
  ASSERT_TRUE(parse("check 0 16 Gather_0\ncheck - - \nworkspace 256 512\n",
                    manifest, error))
      << error;
  const FuncSpec &f = manifest.funcs.front();
  ASSERT_EQ(f.checks.size(), 2u);
  EXPECT_EQ(f.checks[0].input, 0);
  EXPECT_EQ(f.checks[0].extent, 16);
  EXPECT_EQ(f.checks[0].node, "Gather_0");
  EXPECT_EQ(f.checks[1].input, -1);
  EXPECT_EQ(f.checks[1].extent, -1);
  EXPECT_EQ(f.checks[1].node, "");
  EXPECT_TRUE(f.hasWorkspace);
  // Checks are not args: callers pass the inputs and outputs alone.
  EXPECT_EQ(f.args.size(), 3u);
  EXPECT_EQ(f.signature(), "(i64 2x8) -> (f32 2x8x4)");
}

TEST(ManifestCheck, RejectsWhatNamesNoInput) {
  Manifest manifest;
  std::string error;
  // An output, a weight, an index past the args, not a number.
  for (const char *input : {"2", "1", "3", "x", "-1"}) {
    EXPECT_FALSE(
        parse(std::string("check ") + input + " 16\n", manifest, error))
        << input;
    EXPECT_NE(error.find("expected the index of an 'in' arg of 'f' or '-'"),
              std::string::npos)
        << error;
  }
  EXPECT_FALSE(parse("check 0 0\n", manifest, error));
  EXPECT_NE(error.find("expected a positive integer or '-'"), std::string::npos)
      << error;
  EXPECT_FALSE(parse("check 0\n", manifest, error));
  EXPECT_NE(error.find("expected 'check <input>|- <extent>|- [<node>]'"),
            std::string::npos)
      << error;
}

TEST(ManifestCheck, ComesAfterTheArgs) {
  Manifest manifest;
  std::string error;
  EXPECT_FALSE(parseManifest("hidet-manifest 1\ncheck - -\nfunc f 0 0\n",
                             manifest, error));
  EXPECT_NE(error.find("'check' before any 'func'"), std::string::npos)
      << error;
  EXPECT_FALSE(parseManifest("hidet-manifest 1\nfunc f 1 1\n"
                             "arg 0 in i64 4\ncheck 0 8\narg 1 out f32 4\n",
                             manifest, error));
  EXPECT_NE(error.find("'check' before the last 'arg' of 'f'"),
            std::string::npos)
      << error;
}

} // namespace
