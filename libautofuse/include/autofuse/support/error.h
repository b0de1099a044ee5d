// Errors about user input: every message names the file, the line (and column where known) and
// the cause, so `afc` can print it as-is and exit with code 2.
#pragma once

#include <stdexcept>
#include <string>

namespace af {

struct SourceLoc {
  std::string file;              // may be empty for in-memory text
  int line = 0;                  // 1-based; 0 = unknown
  int col = 0;                   // 1-based; 0 = unknown
  std::string ToString() const;  // "file:line:col" (parts that are unknown are left out)
};

// Bad input: a malformed file, a graph that breaks the IR's rules, an unknown op. `what()` is
// "file:line:col: cause".
class InputError : public std::runtime_error {
 public:
  InputError(SourceLoc loc, const std::string& cause);
  const SourceLoc& loc() const { return loc_; }
  const std::string& cause() const { return cause_; }

 private:
  SourceLoc loc_;
  std::string cause_;
};

// Converts a 0-based byte offset in `text` to a 1-based line and column.
SourceLoc LocateOffset(const std::string& file, const std::string& text, std::size_t offset);

}  // namespace af
