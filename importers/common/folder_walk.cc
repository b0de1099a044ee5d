// The bounded folder walk of folder_walk.h.
#include "folder_walk.h"

#include <string>
#include <system_error>

#include "autofuse/support/error.h"

namespace af::importers {

namespace fs = std::filesystem;

WalkEnd WalkFiles(const fs::path& root, const WalkLimits& limits,
                  const std::function<bool(const fs::path&)>& on_file) {
  std::error_code ec;
  fs::recursive_directory_iterator it(root, fs::directory_options::skip_permission_denied, ec);
  if (ec) return WalkEnd::kCannotList;
  std::size_t entries = 0;
  for (; it != fs::recursive_directory_iterator(); it.increment(ec)) {
    if (ec) break;
    if (++entries > limits.max_entries) return WalkEnd::kTooManyEntries;
    if (it.depth() >= limits.max_depth) it.disable_recursion_pending();
    const fs::directory_entry& e = *it;
    std::error_code entry_ec;
    if (e.is_symlink(entry_ec)) {
      it.disable_recursion_pending();
      continue;
    }
    if (!e.is_regular_file(entry_ec)) continue;
    if (!on_file(e.path())) return WalkEnd::kStopped;
  }
  return WalkEnd::kDone;
}

void WalkFilesOrThrow(const fs::path& root, const WalkLimits& limits,
                      const std::function<void(const fs::path&)>& on_file) {
  const WalkEnd end = WalkFiles(root, limits, [&](const fs::path& p) {
    on_file(p);
    return true;
  });
  if (end == WalkEnd::kCannotList) {
    throw InputError(SourceLoc{root.string(), 0, 0}, "cannot list the folder");
  }
  if (end == WalkEnd::kTooManyEntries) {
    throw InputError(
        SourceLoc{root.string(), 0, 0},
        "more than " + std::to_string(limits.max_entries) + " entries below the folder");
  }
}

}  // namespace af::importers
