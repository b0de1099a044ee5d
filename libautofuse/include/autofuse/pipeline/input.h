// What the pipeline compiles: the imported form of one input file or folder. The input registry
// (inputs/registry.h, a layer above the library) reads every format into this; the pipeline never
// reads files itself. Either a model graph whose kernels the front end decides, or hint graphs
// that are kernels already (AscGraphs, Inductor's and AutoFuse's own fused groups).
#pragma once

#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "autofuse/data/host_array.h"
#include "autofuse/ir/graph.h"
#include "autofuse/model/graph.h"

namespace af::pipeline {

// A hint graph and where it came from (file, and the embedding op or group).
struct HintInput {
  ir::Graph graph;
  std::string origin;
};

// A group of the input that did not become a hint graph (an Inductor fallback, an op the front
// end left out), with the reason.
struct Fallback {
  std::string name;
  std::string origin;
  std::string reason;
};

struct Input {
  std::string path;                   // what the user named (the report's `input`)
  std::string format;                 // the input registry's name for it
  std::optional<model::Graph> model;  // a model graph: the front end decides the kernels
  std::string model_file;             // the file `model` was read from
  // Constant tensors of `model` whose values the input holds (GE Consts): value id -> data. The
  // case runner evaluates with them; they need no inputs/ array.
  std::vector<std::pair<int, data::HostArray>> constants;
  std::vector<HintInput> hints;     // else: kernels already
  std::vector<Fallback> fallbacks;  // groups the importer could not lower
  // The hints are a framework's own groups (Inductor, AutoFuse dumps): a kernel a later stage
  // refuses falls back like an unlowered group instead of failing the whole input.
  bool framework_groups = false;
  double import_ms = 0;  // time the importer took
};

}  // namespace af::pipeline
