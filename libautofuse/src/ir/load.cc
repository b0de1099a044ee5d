// Recognises a graph file by its content and loads the AscGraphs it holds.
#include "autofuse/ir/load.h"

#include <filesystem>
#include <fstream>
#include <sstream>

#include "autofuse/ir/text.h"
#include "autofuse/support/error.h"

namespace af::ir {

std::string_view FileFormatName(FileFormat f) {
  switch (f) {
    case FileFormat::kAscGraphDef:
      return "AscGraphDef text";
    case FileFormat::kGeGraphDef:
      return "GE GraphDef text";
    case FileFormat::kGeModelDef:
      return "GE ModelDef text";
    case FileFormat::kReadableText:
      return "autofuse readable text";
  }
  return "?";
}

std::string ReadTextFile(const std::string& path) {
  std::error_code ec;
  if (std::filesystem::is_directory(path, ec)) {
    throw InputError({path, 0, 0}, "is a directory, expected a graph file");
  }
  std::ifstream in(path, std::ios::binary);
  if (!in) throw InputError({path, 0, 0}, "cannot open the file");
  // Protobuf's own message limit is 2 GB; refuse sooner than that with a clear message.
  constexpr std::uintmax_t kMaxBytes = std::uintmax_t{1} << 30;
  const auto size = std::filesystem::file_size(path, ec);
  if (!ec && size > kMaxBytes) {
    throw InputError({path, 0, 0}, "file is larger than 1 GiB");
  }
  std::ostringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

LoadedFile LoadGraphText(const std::string& text, const std::string& path) {
  LoadedFile out;
  out.path = path;
  if (text.find('\0') != std::string::npos) {
    throw InputError(LocateOffset(path, text, text.find('\0')),
                     "binary content (a NUL byte); expected a text graph file");
  }
  // Our readable form starts with "Graph:" (after comments and blank lines).
  std::size_t p = 0;
  while (p < text.size()) {
    const std::size_t e = text.find('\n', p);
    const std::string line = text.substr(p, e == std::string::npos ? std::string::npos : e - p);
    const auto b = line.find_first_not_of(" \t\r");
    if (b != std::string::npos && line[b] != '#') {
      if (line.compare(b, 6, "Graph:") == 0) {
        out.format = FileFormat::kReadableText;
        std::vector<int> lines;
        Graph g = ParseText(text, path, &lines);
        out.graphs.push_back({std::move(g), AscSchema::kCurrent, path, std::move(lines)});
        return out;
      }
      break;
    }
    if (e == std::string::npos) break;
    p = e + 1;
  }
  switch (SniffPbtxt(text)) {
    case PbtxtKind::kAscGraphDef:
      out.format = FileFormat::kAscGraphDef;
      out.graphs.push_back(ParseAscGraphText(text, path));
      return out;
    case PbtxtKind::kGeGraphDef:
    case PbtxtKind::kGeModelDef: {
      out.format = SniffPbtxt(text) == PbtxtKind::kGeGraphDef ? FileFormat::kGeGraphDef
                                                              : FileFormat::kGeModelDef;
      GeFile ge = ParseGeText(text, path);
      out.graphs = std::move(ge.asc_graphs);
      out.ge_graphs = std::move(ge.graphs);
      return out;
    }
    case PbtxtKind::kOnnxModel:
      throw InputError({path, 1, 1}, "ONNX model text (ge_onnx dump): not read yet");
    case PbtxtKind::kUnknown:
      break;
  }
  throw InputError({path, 1, 1},
                   "unrecognised content: expected AscGraphDef text (asc_graph_attr/asc_node), a "
                   "GE graph (graph { / op {) or readable text (Graph: ...)");
}

LoadedFile LoadGraphFile(const std::string& path) {
  return LoadGraphText(ReadTextFile(path), path);
}

}  // namespace af::ir
