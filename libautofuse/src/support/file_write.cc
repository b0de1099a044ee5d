// Temporary-file-and-rename writes.
#include "autofuse/support/file_write.h"

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>

#include "autofuse/support/error.h"

namespace af {
namespace {

// Why the last file operation failed, from errno ("Read-only file system", "File too large",
// "No space left on device", ...), or "unknown cause" when the stream left errno unset.
std::string ErrnoCause(int err) {
  return err != 0 ? std::strerror(err) : "unknown cause";
}

}  // namespace

void WriteFileReplacing(const std::string& path, const std::string& text) {
  const std::string tmp = path + ".afc-tmp";
  std::error_code ec;
  {
    errno = 0;
    std::ofstream out(tmp, std::ios::binary | std::ios::trunc);
    if (!out) throw InputError({path, 0, 0}, "cannot write: " + ErrnoCause(errno));
    out.write(text.data(), static_cast<std::streamsize>(text.size()));
    out.flush();
    const int err = errno;
    out.close();
    if (!out) {
      std::filesystem::remove(tmp, ec);
      throw InputError({path, 0, 0}, "write failed (" + ErrnoCause(err) +
                                         "); the old file, if any, is unchanged");
    }
  }
  std::filesystem::rename(tmp, path, ec);
  if (ec) {
    const std::string why = ec.message();
    std::filesystem::remove(tmp, ec);
    throw InputError({path, 0, 0}, "cannot replace the file: " + why);
  }
}

}  // namespace af
