//===- ManifestWeightTest.cpp - Tests of weight args and weights files ----===//
//
// Part of the Hidet-MLIR project.
//
//===----------------------------------------------------------------------===//
//
// `arg <i> weight <dtype> <shape> <name>` (hidet/Manifest.h): an input whose
// value comes from a weights file (hidet/Weights.h), which WeightsFile reads.
//
//===----------------------------------------------------------------------===//

#include "ManifestParser.h"
#include "WeightsFile.h"

#include <gtest/gtest.h>

#include <cstring>
#include <fstream>

using namespace hidet::run;

namespace {

bool parse(const std::string &args, Manifest &manifest, std::string &error) {
  return parseManifest("hidet-manifest 1\nfunc f 2 1\n" + args, manifest,
                       error);
}

TEST(ManifestWeight, IsAnInputWithAName) {
  Manifest manifest;
  std::string error;
  ASSERT_TRUE(parse("arg 0 in f32 4\n"
                    "arg 1 weight f16 4x8 enc.w_1\n"
                    "arg 2 out f32 8\n",
                    manifest, error))
      << error;
  const FuncSpec &f = manifest.funcs.front();
  EXPECT_TRUE(f.args[0].weight.empty());
  EXPECT_EQ(f.args[1].weight, "enc.w_1");
  EXPECT_FALSE(f.args[1].isOutput);
  EXPECT_EQ(f.args[1].dtype, DType::F16);
  EXPECT_EQ(f.args[1].shape, (std::vector<int64_t>{4, 8}));
  // Two functions differ when a weight's name does.
  Manifest other;
  ASSERT_TRUE(parse("arg 0 in f32 4\n"
                    "arg 1 weight f16 4x8 enc.w_2\n"
                    "arg 2 out f32 8\n",
                    other, error));
  EXPECT_FALSE(f.args == other.funcs.front().args);
}

TEST(ManifestWeight, RejectsMisuse) {
  Manifest manifest;
  std::string error;
  EXPECT_FALSE(parse("arg 0 in f32 4\narg 1 weight f16 4x8\narg 2 out f32 8\n",
                     manifest, error));
  EXPECT_NE(error.find("weight <dtype> <shape> <name>"), std::string::npos)
      << error;
  EXPECT_FALSE(parse("arg 0 in f32 4\narg 1 in f32 4\narg 2 weight f32 8 w\n",
                     manifest, error));
  EXPECT_NE(error.find("must be 'out'"), std::string::npos) << error;
}

TEST(ManifestWeight, NamesItsFileOnce) {
  Manifest manifest;
  std::string error;
  ASSERT_TRUE(parseManifest("hidet-manifest 1\nweights model.weights\n"
                            "func f 1 1\narg 0 weight f32 4 w\n"
                            "arg 1 out f32 4\n",
                            manifest, error))
      << error;
  EXPECT_EQ(manifest.weightsFile, "model.weights");
  EXPECT_FALSE(parseManifest("hidet-manifest 1\nweights a\nweights b\n"
                             "func f 0 0\n",
                             manifest, error));
  EXPECT_NE(error.find("'weights' is given twice"), std::string::npos) << error;
  EXPECT_FALSE(parseManifest("hidet-manifest 1\nfunc f 0 0\nweights a\n",
                             manifest, error));
  EXPECT_NE(error.find("before the first 'func'"), std::string::npos) << error;
}

TEST(ManifestWorkspace, IsAnExtraArgumentOfItsFunction) {
  Manifest manifest;
  std::string error;
  ASSERT_TRUE(parseManifest("hidet-manifest 1\nfunc f 2 1\n"
                            "workspace 1024 4096\n"
                            "arg 0 in f32 4 x\narg 1 weight f32 4 w\n"
                            "arg 2 out f32 4 y\nfunc g 0 0\n",
                            manifest, error))
      << error;
  const FuncSpec &f = manifest.funcs.front();
  EXPECT_TRUE(f.hasWorkspace);
  EXPECT_EQ(f.workspaceBytes, 1024u);
  EXPECT_EQ(f.intermediateBytes, 4096u);
  EXPECT_FALSE(manifest.funcs.back().hasWorkspace);
  // Names are kept; what a caller passes leaves the weight out.
  EXPECT_EQ(f.args[0].name, "x");
  EXPECT_EQ(f.args[2].name, "y");
  std::vector<ArgSpec> visible = f.getVisibleArgs();
  ASSERT_EQ(visible.size(), 2u);
  EXPECT_EQ(visible[0].name, "x");
  EXPECT_EQ(visible[1].name, "y");
  EXPECT_EQ(f.signature(), "(f32 4) -> (f32 4)");

  for (const char *bad :
       {"workspace 1024\n", "workspace -1 0\n", "workspace 1 2 3\n"}) {
    EXPECT_FALSE(parseManifest(
        std::string("hidet-manifest 1\nfunc f 0 0\n") + bad, manifest, error))
        << bad;
    EXPECT_NE(error.find("expected 'workspace <bytes> <intermediate-bytes>'"),
              std::string::npos)
        << error;
  }
  EXPECT_FALSE(parseManifest("hidet-manifest 1\nworkspace 4 4\nfunc f 0 0\n",
                             manifest, error));
  EXPECT_NE(error.find("'workspace' before any 'func'"), std::string::npos)
      << error;
  EXPECT_FALSE(parseManifest("hidet-manifest 1\nfunc f 0 0\nworkspace 4 4\n"
                             "workspace 4 4\n",
                             manifest, error));
  EXPECT_NE(error.find("'workspace' is given twice for 'f'"), std::string::npos)
      << error;
}

/// Writes `text` to a temporary file and returns its path.
std::string writeTemp(const std::string &text) {
  std::string path =
      ::testing::TempDir() + "weights-" +
      ::testing::UnitTest::GetInstance()->current_test_info()->name();
  std::ofstream(path, std::ios::binary) << text;
  return path;
}

TEST(WeightsFile, ReadsTensorsAtAlignedOffsets) {
  std::string header = "hidet-weights 1\n"
                       "weight a f32 2 0 8\n"
                       "weight b i8 3 64 3\n"
                       "end\n";
  std::string text = header + std::string(64 - header.size(), '\0');
  float a[2] = {1.5f, -2.0f};
  text.append(reinterpret_cast<const char *>(a), sizeof(a));
  text.append(64 - sizeof(a), '\0');
  text.append("\x01\x02\x03", 3);
  WeightsFile file;
  std::string error;
  ASSERT_TRUE(file.open(writeTemp(text), error)) << error;
  ASSERT_EQ(file.entries().size(), 2u);
  std::vector<unsigned char> data;
  ASSERT_TRUE(file.read(*file.lookup("a"), data, error)) << error;
  float got[2];
  std::memcpy(got, data.data(), sizeof(got));
  EXPECT_EQ(got[0], 1.5f);
  EXPECT_EQ(got[1], -2.0f);
  ASSERT_TRUE(file.read(*file.lookup("b"), data, error)) << error;
  EXPECT_EQ(data, (std::vector<unsigned char>{1, 2, 3}));
  EXPECT_EQ(file.lookup("c"), nullptr);
}

TEST(WeightsFile, RejectsBadHeaders) {
  WeightsFile file;
  std::string error;
  EXPECT_FALSE(file.open(writeTemp("hidet-weights 2\nend\n"), error));
  EXPECT_NE(error.find("version 2"), std::string::npos) << error;
  WeightsFile sizes;
  EXPECT_FALSE(sizes.open(writeTemp("hidet-weights 1\nweight a f32 2 0 4\n"
                                    "end\n"),
                          error));
  EXPECT_NE(error.find("f32 2 (8 bytes) but says 4 bytes"), std::string::npos)
      << error;
  WeightsFile twice;
  EXPECT_FALSE(twice.open(writeTemp("hidet-weights 1\nweight a f32 2 0 8\n"
                                    "weight a f32 2 64 8\nend\n"),
                          error));
  EXPECT_NE(error.find("listed twice"), std::string::npos) << error;
  WeightsFile open;
  EXPECT_FALSE(
      open.open(writeTemp("hidet-weights 1\nweight a f32 2 0 8\n"), error));
  EXPECT_NE(error.find("no 'end' line"), std::string::npos) << error;
}

} // namespace
