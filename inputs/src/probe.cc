// What a recogniser looks at (see probe.h).
#include "autofuse/inputs/probe.h"

#include <filesystem>
#include <fstream>

#include "autofuse/ir/load.h"

namespace af::inputs {

Probe::Probe(std::string path) : path_(std::move(path)) {
  std::error_code ec;
  is_dir_ = std::filesystem::is_directory(path_, ec);
  is_file_ = std::filesystem::is_regular_file(path_, ec);
  exists_ = std::filesystem::exists(path_, ec);
  if (!is_file_) return;
  std::ifstream in(path_, std::ios::binary);
  head_.assign(4096, '\0');
  in.read(head_.data(), static_cast<std::streamsize>(head_.size()));
  head_.resize(static_cast<std::size_t>(std::max<std::streamsize>(0, in.gcount())));
}

std::string Probe::filename() const {
  return std::filesystem::path(path_).filename().string();
}

const std::string& Probe::text() const {
  if (!text_) text_ = ir::ReadTextFile(path_);
  return *text_;
}

}  // namespace af::inputs
