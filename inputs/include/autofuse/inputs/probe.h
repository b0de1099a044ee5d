// What a format's recogniser looks at: the path, whether it is a folder or a file, the first
// bytes, and (read on first use) the whole text. One Probe per input, so a large dump is read at
// most once while the registry's formats are tried in order.
#pragma once

#include <optional>
#include <string>

namespace af::inputs {

class Probe {
 public:
  explicit Probe(std::string path);

  const std::string& path() const { return path_; }
  bool exists() const { return exists_; }
  bool is_dir() const { return is_dir_; }
  bool is_file() const { return is_file_; }
  std::string filename() const;
  // The first 4096 bytes of a file ("" for folders and unreadable files).
  const std::string& head() const { return head_; }
  // The whole file, read on first use; throws af::InputError when it cannot be read.
  const std::string& text() const;

 private:
  std::string path_;
  bool exists_ = false;
  bool is_dir_ = false;
  bool is_file_ = false;
  std::string head_;
  mutable std::optional<std::string> text_;
};

}  // namespace af::inputs
