//===- FileSetTest.cpp - Tests of all-or-nothing output files -------------===//
//
// Part of the Hidet-MLIR project.
//
//===----------------------------------------------------------------------===//
//
// Output files appear only on commit, all together; a set given up, or one
// that fails to stage, leaves nothing behind, not even temporary files.
//
//===----------------------------------------------------------------------===//

#include "FileSet.h"
#include "Tensor.h"

#include <gtest/gtest.h>

#include <cstdlib>
#include <dirent.h>
#include <string>
#include <sys/stat.h>
#include <unistd.h>
#include <vector>

using namespace hidet::run;

namespace {

/// A fresh directory, removed with its files at the end of the test.
class FileSetTest : public testing::Test {
protected:
  void SetUp() override {
    std::string pattern = testing::TempDir() + "hidet-run-fileset-XXXXXX";
    ASSERT_NE(mkdtemp(pattern.data()), nullptr);
    dir = pattern + "/";
  }

  void TearDown() override {
    for (const std::string &name : list())
      std::remove((dir + name).c_str());
    rmdir(dir.c_str());
  }

  /// The names in the directory, hidden ones too.
  std::vector<std::string> list() const {
    std::vector<std::string> names;
    DIR *handle = opendir(dir.c_str());
    if (!handle)
      return names;
    while (dirent *entry = readdir(handle)) {
      std::string name = entry->d_name;
      if (name != "." && name != "..")
        names.push_back(name);
    }
    closedir(handle);
    return names;
  }

  std::string read(const std::string &name) const {
    std::vector<unsigned char> bytes;
    std::string error;
    EXPECT_TRUE(readFileBytes(dir + name, bytes, error)) << error;
    return std::string(bytes.begin(), bytes.end());
  }

  std::string dir;
};

TEST_F(FileSetTest, CommitPutsAllInPlace) {
  OutputFileSet set;
  std::string error;
  ASSERT_TRUE(set.stage(dir + "a.npy", "head", "AB", 2, error)) << error;
  ASSERT_TRUE(set.stage(dir + "b.npy", "", "C", 1, error)) << error;
  // Before the commit only hidden temporary files exist.
  for (const std::string &name : list())
    EXPECT_EQ(name[0], '.') << name;
  ASSERT_TRUE(set.commit(error)) << error;
  EXPECT_EQ(read("a.npy"), "headAB");
  EXPECT_EQ(read("b.npy"), "C");
  EXPECT_EQ(list().size(), 2u);
  // Created like any file: readable by others unless the umask says not.
  struct stat info;
  ASSERT_EQ(stat((dir + "a.npy").c_str(), &info), 0);
  mode_t mask = umask(0);
  umask(mask);
  EXPECT_EQ(info.st_mode & 0777, 0666 & ~mask);
  // An error after the commit takes them away again.
  set.removeCommitted();
  EXPECT_TRUE(list().empty());
}

TEST_F(FileSetTest, NothingWithoutCommit) {
  {
    OutputFileSet set;
    std::string error;
    ASSERT_TRUE(set.stage(dir + "a.npy", "head", "AB", 2, error)) << error;
    EXPECT_FALSE(list().empty());
  }
  EXPECT_TRUE(list().empty());
}

TEST_F(FileSetTest, ExistingFilesStayUntilCommit) {
  {
    OutputFileSet set;
    std::string error;
    ASSERT_TRUE(set.stage(dir + "a.npy", "", "new", 3, error)) << error;
    ASSERT_TRUE(set.commit(error)) << error;
  }
  {
    OutputFileSet set;
    std::string error;
    ASSERT_TRUE(set.stage(dir + "a.npy", "", "newer", 5, error)) << error;
    EXPECT_EQ(read("a.npy"), "new");
  }
  EXPECT_EQ(read("a.npy"), "new");
  EXPECT_EQ(list().size(), 1u);
}

TEST_F(FileSetTest, StagingErrorsSayWhy) {
  OutputFileSet set;
  std::string error;
  EXPECT_FALSE(set.stage(dir + "missing/a.npy", "", "", 0, error));
  EXPECT_EQ(error, "cannot create a temporary file in its directory: No such "
                   "file or directory");
  EXPECT_TRUE(list().empty());
}

} // namespace
