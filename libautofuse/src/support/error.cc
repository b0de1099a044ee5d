// Input errors with their source location.
#include "autofuse/support/error.h"

namespace af {

std::string SourceLoc::ToString() const {
  std::string s = file.empty() ? "<input>" : file;
  if (line > 0) {
    s += ":" + std::to_string(line);
    if (col > 0) s += ":" + std::to_string(col);
  }
  return s;
}

InputError::InputError(SourceLoc loc, const std::string& cause)
    : std::runtime_error(loc.ToString() + ": " + cause), loc_(std::move(loc)), cause_(cause) {}

SourceLoc LocateOffset(const std::string& file, const std::string& text, std::size_t offset) {
  SourceLoc loc{file, 1, 1};
  const std::size_t end = offset < text.size() ? offset : text.size();
  for (std::size_t i = 0; i < end; ++i) {
    if (text[i] == '\n') {
      ++loc.line;
      loc.col = 1;
    } else {
      ++loc.col;
    }
  }
  return loc;
}

}  // namespace af
