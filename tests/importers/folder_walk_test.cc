// The importers' bounded folder walk (importers/common/folder_walk.h): a normal tree is listed in
// full, the entry and depth caps hold, symlinks (a loop among them) are skipped and never followed,
// and the throwing form names the folder in its messages.
#include "../../importers/common/folder_walk.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <fstream>
#include <string>
#include <vector>

#include "autofuse/support/error.h"
#include "fixtures.h"

namespace af::importers {
namespace {

namespace fs = std::filesystem;
using ::testing::ElementsAre;
using ::testing::HasSubstr;

void Touch(const fs::path& p) {
  fs::create_directories(p.parent_path());
  std::ofstream(p) << "x\n";
}

struct Listing {
  WalkEnd end = WalkEnd::kDone;
  std::vector<std::string> files;  // relative to the root, generic form, sorted
};

Listing List(const fs::path& root, WalkLimits limits) {
  Listing l;
  l.end = WalkFiles(root, limits, [&](const fs::path& p) {
    l.files.push_back(fs::relative(p, root).generic_string());
    return true;
  });
  std::sort(l.files.begin(), l.files.end());
  return l;
}

constexpr WalkLimits kRoomy{.max_depth = 16, .max_entries = 1000};

TEST(FolderWalk, ListsEveryRegularFileOfANormalTree) {
  const fs::path root = af::test::TempDir("walk_tree");
  Touch(root / "a.txt");
  Touch(root / "sub" / "b.py");
  Touch(root / "sub" / "deeper" / "c.log");
  Touch(root / "other" / "d.txt");
  fs::create_directories(root / "empty");
  const Listing l = List(root, kRoomy);
  EXPECT_EQ(l.end, WalkEnd::kDone);
  EXPECT_THAT(l.files, ElementsAre("a.txt", "other/d.txt", "sub/b.py", "sub/deeper/c.log"));
  fs::remove_all(root);
}

TEST(FolderWalk, DepthCapListsFilesAsDeepAsTheCapAndNoDeeper) {
  const fs::path root = af::test::TempDir("walk_depth");
  // f0 at depth 0, d1/f1 at depth 1, …, d1/d2/d3/d4/f4 at depth 4.
  fs::path dir = root;
  for (int i = 0; i <= 4; ++i) {
    if (i > 0) dir /= "d" + std::to_string(i);
    Touch(dir / ("f" + std::to_string(i)));
  }
  EXPECT_THAT(List(root, {.max_depth = 0, .max_entries = 1000}).files, ElementsAre("f0"));
  const Listing two = List(root, {.max_depth = 2, .max_entries = 1000});
  EXPECT_EQ(two.end, WalkEnd::kDone);
  EXPECT_THAT(two.files, ElementsAre("d1/d2/f2", "d1/f1", "f0"));
  EXPECT_EQ(List(root, kRoomy).files.size(), 5U);
  fs::remove_all(root);
}

TEST(FolderWalk, EntryCapCountsFoldersAndFilesAndGivesUp) {
  const fs::path root = af::test::TempDir("walk_entries");
  // 7 entries: sub, sub/1..3, 4..6.
  for (int i = 1; i <= 6; ++i)
    Touch((i <= 3 ? root / "sub" : root) / std::to_string(i));
  const Listing fits = List(root, {.max_depth = 16, .max_entries = 7});
  EXPECT_EQ(fits.end, WalkEnd::kDone);
  EXPECT_EQ(fits.files.size(), 6U);
  const Listing over = List(root, {.max_depth = 16, .max_entries = 6});
  EXPECT_EQ(over.end, WalkEnd::kTooManyEntries);
  EXPECT_LT(over.files.size(), 6U);

  try {
    WalkFilesOrThrow(root, {.max_depth = 16, .max_entries = 6}, [](const fs::path&) {});
    ADD_FAILURE() << "expected an InputError";
  } catch (const InputError& e) {
    EXPECT_EQ(e.loc().file, root.string());
    EXPECT_EQ(e.cause(), "more than 6 entries below the folder");
  }
  int seen = 0;
  WalkFilesOrThrow(root, {.max_depth = 16, .max_entries = 7}, [&](const fs::path&) { ++seen; });
  EXPECT_EQ(seen, 6);
  fs::remove_all(root);
}

TEST(FolderWalk, SymlinkLoopsAreSkippedNotFollowed) {
  const fs::path root = af::test::TempDir("walk_links");
  Touch(root / "sub" / "f.txt");
  fs::create_directory_symlink(root, root / "sub" / "up");     // a cycle back to the root
  fs::create_directory_symlink(root / "sub", root / "again");  // the same folder twice
  fs::create_symlink(root / "sub" / "f.txt", root / "f_link.txt");
  fs::create_symlink(root / "ping", root / "pong");  // a loop of two dangling links
  fs::create_symlink(root / "pong", root / "ping");
  fs::create_symlink(root / "self", root / "self");
  // Entries: sub, sub/f.txt, sub/up, again, f_link.txt, ping, pong, self = 8; a walk that followed
  // any link would see more (or never end) and hit the cap.
  const Listing l = List(root, {.max_depth = 64, .max_entries = 8});
  EXPECT_EQ(l.end, WalkEnd::kDone);
  EXPECT_THAT(l.files, ElementsAre("sub/f.txt"));
  fs::remove_all(root);
}

TEST(FolderWalk, StopsWhenTheVisitorSaysSoAndReportsAnUnlistableRoot) {
  const fs::path root = af::test::TempDir("walk_stop");
  for (int i = 0; i < 5; ++i)
    Touch(root / ("f" + std::to_string(i)));
  int seen = 0;
  EXPECT_EQ(WalkFiles(root, kRoomy,
                      [&](const fs::path&) {
                        ++seen;
                        return seen < 2;
                      }),
            WalkEnd::kStopped);
  EXPECT_EQ(seen, 2);

  const fs::path missing = root / "missing";
  EXPECT_EQ(List(missing, kRoomy).end, WalkEnd::kCannotList);
  try {
    WalkFilesOrThrow(missing, kRoomy, [](const fs::path&) {});
    ADD_FAILURE() << "expected an InputError";
  } catch (const InputError& e) {
    EXPECT_EQ(e.loc().file, missing.string());
    EXPECT_THAT(e.what(), HasSubstr("cannot list the folder"));
  }
  fs::remove_all(root);
}

}  // namespace
}  // namespace af::importers
