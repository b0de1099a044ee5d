// The bounded folder walk the importers' discovery shares (Inductor debug dirs, AutoFuse DFX dump
// folders): the regular files below a root, never following symlinks, with a cap on the entries
// seen and on the depth entered. The limits keep a huge tree, or a cyclic one (a symlink loop, a
// mount of a parent), from hanging or exhausting an import. Private to the importers.
#pragma once

#include <cstddef>
#include <filesystem>
#include <functional>

namespace af::importers {

struct WalkLimits {
  int max_depth = 0;            // 0 = the root's own entries; folders this deep are not entered
  std::size_t max_entries = 0;  // entries of any kind (folders, files, links) before giving up
};

enum class WalkEnd {
  kDone,            // every entry within the limits seen (a listing error mid-walk ends it here)
  kStopped,         // the visitor asked to stop
  kCannotList,      // the root cannot be listed
  kTooManyEntries,  // more than max_entries entries below the root
};

// Calls `on_file` with each regular file below `root` (symlinks are skipped, never followed);
// `on_file` returns false to stop the walk.
WalkEnd WalkFiles(const std::filesystem::path& root, const WalkLimits& limits,
                  const std::function<bool(const std::filesystem::path&)>& on_file);

// WalkFiles for discovery: throws InputError naming `root` when the folder cannot be listed
// ("cannot list the folder") or holds too many entries ("more than N entries below the folder").
void WalkFilesOrThrow(const std::filesystem::path& root, const WalkLimits& limits,
                      const std::function<void(const std::filesystem::path&)>& on_file);

}  // namespace af::importers
