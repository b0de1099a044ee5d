// Golden tests of the front end: each tests/golden/frontend/*.fxtest file is an aten FX graph
// (torch 2.x readable form) with a `# RUN: <stage>` comment and `# CHECK...` comments matched
// against the stage's output (tests/support/filecheck.h). Stages:
//   lower   all op nodes of the graph lowered as one group; prints the hint graph's readable
//           text, or "lower refused [CODE]: message"
//   check   CheckOp per node: "<node>: ok" or "<node>: <CODE> message"
//   fuse [FLAGS]  the fusion decider (FLAGS as afc --flags, e.g. --autofuse_enable_pass=slice):
//   "kernel k: nodes...", "fallback <node> [CODE] (stage)", and one
//           "decision" line per record
#include <gtest/gtest.h>

#include <sstream>

#include "autofuse/frontend/fusion.h"
#include "autofuse/frontend/lower.h"
#include "autofuse/importers/fx_graph.h"
#include "autofuse/ir/text.h"
#include "autofuse/ir/validate.h"
#include "autofuse/pipeline/pipeline.h"
#include "filecheck.h"
#include "fixtures.h"

namespace af {
namespace {

std::string RunStage(const model::Graph& g, const std::string& stage, const std::string& rest) {
  if (stage == "lower") {
    std::vector<int> ids;
    for (const auto& n : g.nodes)
      if (n.kind == model::NodeKind::kOp) ids.push_back(n.id);
    try {
      const auto k = frontend::LowerGroup(g, ids);
      std::string out = ir::DumpText(k.graph);
      for (const auto& d : ir::Validate(k.graph))
        out += "validate: " + d.message + "\n";
      return out;
    } catch (const frontend::LowerError& e) {
      return "lower refused [" + e.code() + "]: " + e.what() + "\n";
    }
  }
  if (stage == "check") {
    std::string out;
    for (const auto& n : g.nodes) {
      if (n.kind != model::NodeKind::kOp) continue;
      const auto s = frontend::CheckOp(g, n);
      out += n.name + ": " + (s.ok() ? "ok" : s.code + " " + s.message) + "\n";
    }
    return out;
  }
  if (stage == "fuse") {
    std::map<std::string, std::string> flags;
    pipeline::ParseFlags(rest, &flags);
    const auto r = frontend::DecideFusion(g, frontend::FusionOptionsFromFlags(flags, "ascend910b"));
    std::string out;
    for (std::size_t i = 0; i < r.kernels.size(); ++i) {
      out += "kernel " + std::to_string(i) + ":";
      for (int id : r.kernels[i].nodes)
        out += " " + g.node(id).name;
      out += "\n";
    }
    for (const auto& f : r.fallbacks)
      out += "fallback " + g.node(f.node).name + " [" + f.code + "] (" + f.stage + ")\n";
    for (const auto& d : r.records) {
      out += "decision round " + std::to_string(d.round) + " " + d.kind + " {";
      for (const auto& n : d.first)
        out += " " + n;
      out += " } + {";
      for (const auto& n : d.second)
        out += " " + n;
      out += " } " + std::string(d.accepted ? "accepted" : "rejected") + " [" + d.code + "] " +
             d.message + "\n";
    }
    return out;
  }
  throw std::runtime_error("unknown stage " + stage);
}

class FrontendGolden : public ::testing::TestWithParam<std::string> {};

TEST_P(FrontendGolden, Matches) {
  const auto path = test::SourceDir() / "tests/golden/frontend" / GetParam();
  const std::string text = test::ReadFile(path);
  const model::Graph g = importers::ParseFxGraph(text, path.string());
  std::istringstream in(text);
  std::string out;
  for (std::string line; std::getline(in, line);) {
    const auto p = line.find("# RUN:");
    if (p == std::string::npos) continue;
    std::istringstream w(line.substr(p + 6));
    std::string stage;
    w >> stage;
    std::string rest;
    std::getline(w, rest);
    out += RunStage(g, stage, rest);
  }
  EXPECT_FILECHECK(out, text);
}

std::vector<std::string> Files() {
  std::vector<std::string> names;
  for (const auto& p : test::FilesUnder(test::SourceDir() / "tests/golden/frontend", {".fxtest"}))
    names.push_back(p.filename().string());
  return names;
}

INSTANTIATE_TEST_SUITE_P(Files, FrontendGolden, ::testing::ValuesIn(Files()),
                         [](const auto& param_info) {
                           std::string s = param_info.param;
                           for (auto& c : s)
                             if (!std::isalnum(static_cast<unsigned char>(c))) c = '_';
                           return s;
                         });

}  // namespace
}  // namespace af
