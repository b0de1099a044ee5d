// Temporary-file-and-rename writes.
#include "autofuse/support/file_write.h"

#include <filesystem>
#include <fstream>

#include "autofuse/support/error.h"

namespace af {

void WriteFileReplacing(const std::string& path, const std::string& text) {
  const std::string tmp = path + ".afc-tmp";
  std::error_code ec;
  {
    std::ofstream out(tmp, std::ios::binary | std::ios::trunc);
    if (!out) throw InputError({path, 0, 0}, "cannot write");
    out << text;
    if (!out.flush()) {
      out.close();
      std::filesystem::remove(tmp, ec);
      throw InputError({path, 0, 0}, "write failed");
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
