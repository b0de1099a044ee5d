// Loading AscGraphs from any file form we read, recognised by content rather than by name:
// AscGraphDef protobuf text, GE GraphDef / ModelDef text whose nodes embed AscGraphs, and our own
// readable text form ("Graph: ..."). Every failure is an af::InputError naming file, line, cause.
#pragma once

#include <string>
#include <vector>

#include "autofuse/ir/proto_io.h"

namespace af::ir {

enum class FileFormat { kAscGraphDef, kGeGraphDef, kGeModelDef, kReadableText };
std::string_view FileFormatName(FileFormat f);

struct LoadedFile {
  std::string path;
  FileFormat format = FileFormat::kAscGraphDef;
  std::vector<LoadedGraph> graphs;        // AscGraphs found in the file
  std::vector<GeGraphSummary> ge_graphs;  // GE graphs (GE formats only)
};

// Reads a whole file; throws InputError when it cannot be read or is too large.
std::string ReadTextFile(const std::string& path);
LoadedFile LoadGraphFile(const std::string& path);
LoadedFile LoadGraphText(const std::string& text, const std::string& path);

}  // namespace af::ir
