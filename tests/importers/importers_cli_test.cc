// `afc inspect` on Inductor dumps and GE dumps as a user runs it: every level of a
// torch_compile_debug tree, `afc run` on Inductor groups with transposed reads, every real fixture
// (exit 0, counts equal to counts taken from the files independently), and damaged copies (exit 0
// or 2 with an `afc: FILE…` message, never a crash or a hang).
#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <sys/wait.h>

#include <cstdlib>
#include <fstream>
#include <iostream>
#include <nlohmann/json.hpp>
#include <random>
#include <regex>
#include <sstream>

#include "fixtures.h"

namespace {

namespace fs = std::filesystem;
using ::testing::HasSubstr;
using ::testing::StartsWith;

struct Result {
  int code = -1;  // exit code; -1 when killed by a signal
  int signal = 0;
  std::string out;
  std::string err;
};

std::string Quote(const std::string& s) {
  std::string q = "'";
  for (char c : s)
    q += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return q + "'";
}

// afc under `timeout 300`: a hang shows as exit code 124. Generous: a run compiles its kernels,
// and on a 2-core machine busy with other builds one compile took past the former 60 s
// (ImportersCli.TransposedReadsRunEndToEnd, which takes 4 s on an idle machine).
Result Afc(const std::string& args) {
  static const auto dir = af::test::TempDir("importers_cli");
  const auto out = dir / "stdout";
  const auto err = dir / "stderr";
  const std::string cmd = "timeout 300 " + Quote(AF_AFC_PATH) + " " + args + " >" +
                          Quote(out.string()) + " 2>" + Quote(err.string()) + " </dev/null";
  const int st = std::system(cmd.c_str());
  Result r;
  if (WIFEXITED(st)) {
    r.code = WEXITSTATUS(st);
    if (r.code > 128) r.signal = r.code - 128;  // the shell reports a signal as 128+n
  } else if (WIFSIGNALED(st)) {
    r.signal = WTERMSIG(st);
  }
  r.out = af::test::ReadFile(out);
  r.err = af::test::ReadFile(err);
  return r;
}

nlohmann::json InspectJson(const fs::path& p) {
  const Result r = Afc("inspect --json " + Quote(p.string()));
  EXPECT_EQ(r.code, 0) << p << ": " << r.err;
  if (r.code != 0) return nlohmann::json::object();
  return nlohmann::json::parse(r.out);
}

// Kernel definitions in output_code.py files below `dir`, counted by a regular expression.
int CountKernelDefs(const fs::path& dir) {
  static const std::regex kDef(R"(^\w+ = (async_compile\.\w+|async_compile_ascendc)\()");
  int c = 0;
  std::vector<fs::path> files;
  if (fs::is_regular_file(dir)) {
    files.push_back(dir);
  } else {
    files = af::test::FilesUnder(dir, {"output_code.py"});
  }
  for (const auto& f : files) {
    std::istringstream in(af::test::ReadFile(f));
    std::string line;
    while (std::getline(in, line))
      c += std::regex_search(line, kDef) ? 1 : 0;
  }
  return c;
}

// Top-level scheduler-node headers in the IR texts below `dir` (log prefixes allowed).
int CountTopLevelNodes(const fs::path& dir) {
  static const std::regex kTop(
      R"(^(\[[^\]]*\] \[RANK\d+\] \[\w+\] (Codegen \[\d+/\d+\] )?)?[A-Za-z_]\w*: \w+\([\w,]*\)\r?$)");
  int c = 0;
  for (const auto& f : af::test::FilesUnder(dir, {".txt", ".log"})) {
    const std::string name = f.filename().string();
    if (name == "SOURCE.txt" || name == "debug.log" || name.find("aot_model") == 0) continue;
    std::istringstream in(af::test::ReadFile(f));
    std::string line;
    std::string prev;
    while (std::getline(in, line)) {
      // a header right after `X.snodes[i] =` is a sub-node dump (flat form), not a top-level node
      const bool sub = prev.find(".snodes[") != std::string::npos;
      c += !sub && std::regex_search(line, kTop) ? 1 : 0;
      if (line.find_first_not_of(" \t\r") != std::string::npos) prev = line;
    }
  }
  return c;
}

TEST(ImportersCli, OurTorchCompileDebugTreeAtEveryLevel) {
  const fs::path root = af::test::OurFixtures() / "inductor" / "tcd" / "torch_compile_debug";
  const fs::path run = root / "run_2026_01_01_00_00_00_000001-pid_42";
  const fs::path model = run / "torchinductor" / "model__0_inference_0.0";
  const std::vector<std::pair<fs::path, std::string>> levels = {
      {root, "torch_compile_debug root"},
      {run, "run folder"},
      {run / "torchinductor", "torchinductor folder"},
      {model, "model folder"},
      {root / "renamed_debug_run_2023_01_01", "run folder"},
  };
  for (const auto& [p, layout] : levels) {
    SCOPED_TRACE(p.string());
    const auto j = InspectJson(p);
    EXPECT_EQ(j.value("layout", ""), layout);
    EXPECT_EQ(j["totals"]["kernels"].get<int>(), CountKernelDefs(p));
    EXPECT_EQ(j["totals"]["ir_nodes"].get<int>(), CountTopLevelNodes(p));
  }
  EXPECT_EQ(InspectJson(model)["torch_version"], "2.8.0+cpu");
  EXPECT_EQ(InspectJson(root / "renamed_debug_run_2023_01_01")["torch_version"], "2.0");
  // Single files.
  const auto ir = InspectJson(model / "ir_post_fusion.txt");
  EXPECT_EQ(ir["nodes"], 1);
  EXPECT_EQ(ir["reductions"], 1);
  const auto oc = InspectJson(model / "output_code.py");
  EXPECT_EQ(oc["kernels"], 1);
  EXPECT_EQ(oc["kernel_list"][0]["aten_ops"], (std::vector<std::string>{"aten.add", "aten.sum"}));
  const Result human = Afc("inspect " + Quote(root.string()));
  EXPECT_EQ(human.code, 0);
  EXPECT_THAT(human.out, HasSubstr("3 kernel(s)"));
  EXPECT_THAT(human.out, HasSubstr("group buf0_buf1: 2 nodes"));
}

TEST(ImportersCli, OurInductorFilesEachLoad) {
  for (const auto& f :
       af::test::FilesUnder(af::test::OurFixtures() / "inductor", {".txt", ".py", ".log"})) {
    const std::string name = f.filename().string();
    if (name == "debug.log" || name.find("aot_model") == 0) continue;
    SCOPED_TRACE(f.string());
    const Result r = Afc("inspect " + Quote(f.string()));
    EXPECT_EQ(r.code, 0) << r.err;
  }
}

// Inductor groups that read transposed/permuted views run end to end (strided Load views,
// schedule STRIDED_LOAD_GATHER): generated kernels on the CPU runtime against the interpreter,
// with odd sizes for tails; the transposed store stays a fallback.
TEST(ImportersCli, TransposedReadsRunEndToEnd) {
  const auto f = af::test::OurFixtures() / "inductor" / "transposed_read" / "ir_post_fusion.txt";
  for (const char* s0 : {"1", "37", "1031"}) {
    SCOPED_TRACE(s0);
    const Result r = Afc("run " + Quote(f.string()) + " --bind s0=" + s0);
    EXPECT_EQ(r.code, 0) << r.out << r.err;
    EXPECT_THAT(r.out, HasSubstr("PASS"));
    EXPECT_THAT(r.err, HasSubstr("group 'op4' falls back: store of buf4 writes transposed"));
  }
  const auto out = af::test::TempDir("transposed_read_compile");
  const Result c =
      Afc("compile " + Quote(f.string()) + " --bind s0=37 --out " + Quote((out / "k").string()));
  ASSERT_EQ(c.code, 0) << c.err;
  EXPECT_THAT(af::test::ReadFile(out / "k" / "report.json"), HasSubstr("STRIDED_LOAD_GATHER"));
}

// Inductor's grouping beside ours: afc inspect on a model folder prints the summary, afc compile
// carries the comparison in report.json (framework_groupings) and in its --json output.
TEST(ImportersCli, GroupingComparisonOnOurModelFolder) {
  const fs::path model =
      af::test::OurFixtures() / "inductor" / "grouping" / "model__0_inference_0.0";
  const auto j = InspectJson(model);
  ASSERT_EQ(j["models"].size(), 1u);
  const auto& g = j["models"][0]["framework_groupings"];
  ASSERT_EQ(g.size(), 1u);
  EXPECT_EQ(g[0]["inductor_kernels"], 4);
  EXPECT_EQ(g[0]["our_kernels"], 3);
  EXPECT_EQ(g[0]["identical"], 1);
  EXPECT_EQ(g[0]["split"], 1);
  EXPECT_EQ(g[0]["merged"], 1);
  EXPECT_EQ(g[0]["inductor_only_nodes"], 1);
  EXPECT_EQ(g[0].value("ours_only_nodes", 0), 0);
  const Result human = Afc("inspect " + Quote(model.string()));
  EXPECT_EQ(human.code, 0);
  EXPECT_THAT(human.out, HasSubstr("Inductor vs autofuse grouping (model__0_inference_0.0): "
                                   "Inductor 4 kernel(s), ours 3; 1 identical, 1 split by us, 1 "
                                   "merged by us; 1 node(s) only Inductor fuses, 0 only we fuse"));
  EXPECT_THAT(human.out, HasSubstr("split: op5_op6 -> autofused_exp_"));
  EXPECT_THAT(human.out, HasSubstr("[UNSUPPORTED_OP]: cumsum exp"));
  EXPECT_THAT(human.out, HasSubstr("merged: op2_op3 + op4 -> autofused_"));
  // afc compile takes the folder through our front end (it holds fx_graph_readable.py).
  const auto out = af::test::TempDir("grouping_compile") / "k";
  const Result c = Afc("compile " + Quote(model.string()) + " --json --out " + Quote(out.string()));
  ASSERT_EQ(c.code, 0) << c.err;
  const auto cj = nlohmann::json::parse(c.out);
  ASSERT_EQ(cj["framework_groupings"].size(), 1u);
  EXPECT_EQ(cj["framework_groupings"][0]["identical"], 1);
  EXPECT_EQ(cj["framework_groupings"][0]["merged"], 1);
  const auto rep = nlohmann::json::parse(af::test::ReadFile(out / "report.json"));
  const auto& fg = rep["framework_groupings"][0];
  EXPECT_EQ(fg["inductor_groups"].size(), 5u);
  EXPECT_EQ(fg["our_groups"].size(), 3u);
  EXPECT_EQ(fg["diffs"].size(), 2u);
  EXPECT_EQ(fg["identical_pairs"][0].get<std::string>().rfind("op0 = autofused_add_relu_", 0), 0u);
}

TEST(ImportersCli, MissingAndNonDumpInputsExitTwo) {
  const Result missing = Afc("inspect /nonexistent/torch_compile_debug");
  EXPECT_EQ(missing.code, 2);
  EXPECT_THAT(missing.err, StartsWith("afc: "));
  const fs::path empty = af::test::TempDir("empty_tcd");
  const Result none = Afc("inspect " + Quote(empty.string()));
  EXPECT_EQ(none.code, 2);
  EXPECT_THAT(none.err, HasSubstr("no Inductor dump files"));
}

TEST(ImportersCliReal, EveryInductorFixtureLoadsWithMatchingCounts) {
  AF_REQUIRE_REAL_FIXTURES();
  int kernels = 0;
  int nodes = 0;
  int dirs = 0;
  for (const auto& d : fs::directory_iterator(af::test::RealFixtures() / "inductor")) {
    if (!d.is_directory()) continue;
    SCOPED_TRACE(d.path().string());
    const auto j = InspectJson(d.path());
    if (j.empty()) continue;
    ++dirs;
    const int want_kernels = CountKernelDefs(d.path());
    const int want_nodes = CountTopLevelNodes(d.path());
    EXPECT_EQ(j["totals"]["kernels"].get<int>(), want_kernels);
    EXPECT_EQ(j["totals"]["ir_nodes"].get<int>(), want_nodes);
    kernels += want_kernels;
    nodes += want_nodes;
    std::cout << d.path().filename().string() << ": " << j["totals"].dump() << "\n";
  }
  EXPECT_EQ(dirs, 9);
  std::cout << dirs << " fixture folders, " << kernels << " kernels, " << nodes
            << " top-level IR nodes\n";
}

// MNIST (torch 2.5.1): Inductor's grouping beside ours per model folder, concrete counts.
TEST(ImportersCliReal, GroupingComparisonOnMnist) {
  AF_REQUIRE_REAL_FIXTURES();
  fs::path run;
  for (const auto& d :
       fs::directory_iterator(af::test::RealFixtures() / "inductor" /
                              "t2.5.1_mnist_cnn_cpu_dynamic_fullrun" / "torch_compile_debug"))
    run = d.path() / "torchinductor";
  struct Want {
    const char* folder;
    int inductor, ours, identical, split, merged, inductor_only;
  };
  for (const Want& w : {Want{"model__0_forward_1.0", 7, 5, 3, 3, 1, 5},
                        // Its transposed output is refused in a fused group
                        // (STORE_STRIDED_UNSUPPORTED): one more of ours, two more identical;
                        // the log_softmax backward and its column sum are one multi-group kernel.
                        Want{"model__0_backward_3.1", 7, 6, 4, 1, 1, 2},
                        Want{"model__2_inference_7.4", 4, 4, 3, 1, 0, 1}}) {
    SCOPED_TRACE(w.folder);
    const auto j = InspectJson(run / w.folder);
    const auto& g = j["models"][0]["framework_groupings"];
    ASSERT_EQ(g.size(), 1u);
    EXPECT_EQ(g[0]["inductor_kernels"], w.inductor);
    EXPECT_EQ(g[0]["our_kernels"], w.ours);
    EXPECT_EQ(g[0].value("identical", 0), w.identical);
    EXPECT_EQ(g[0].value("split", 0), w.split);
    EXPECT_EQ(g[0].value("merged", 0), w.merged);
    EXPECT_EQ(g[0].value("inductor_only_nodes", 0), w.inductor_only);
    EXPECT_EQ(g[0].value("ours_only_nodes", 0), 0);
  }
  // The backward pass: Inductor's softmax-backward kernel (two reductions over different axes)
  // is not split by us any more: with the column sum after it, it is one multi-group kernel.
  const Result human = Afc("inspect " + Quote((run / "model__0_backward_3.1").string()));
  EXPECT_THAT(human.out, HasSubstr("merged: op0_op1 + op4 -> autofused_sum_exp_"));
  EXPECT_THAT(human.out, Not(HasSubstr("[REDUCE_AXES_CONFLICT]")));
}

TEST(ImportersCliReal, EveryFixtureFileLoads) {
  AF_REQUIRE_REAL_FIXTURES();
  int n = 0;
  for (const auto& f :
       af::test::FilesUnder(af::test::RealFixtures(), {".txt", ".py", ".pbtxt", ".log"})) {
    const std::string name = f.filename().string();
    if (name == "SOURCE.txt" || name == "debug.log" || name.find("aot_model") == 0) continue;
    SCOPED_TRACE(f.string());
    const Result r = Afc("inspect " + Quote(f.string()));
    EXPECT_EQ(r.code, 0) << r.err;
    ++n;
  }
  EXPECT_GE(n, 60);
}

// Damaged copies of the real Inductor, GE and AutoFuse files: truncations and byte flips give exit
// 0 or 2 (with a message naming the file), never a crash or a hang.
TEST(ImportersCliReal, DamagedFixturesNeverCrash) {
  AF_REQUIRE_REAL_FIXTURES();
  const fs::path tmp = af::test::TempDir("importers_cli_damage");
  std::mt19937 rng(8);
  int runs = 0;
  int refused = 0;
  std::vector<fs::path> files = af::test::FilesUnder(af::test::RealFixtures() / "inductor",
                                                     {"ir_post_fusion.txt", "output_code.py"});
  for (const char* sub : {"ge_dump", "autofuse"}) {
    for (const auto& f : af::test::FilesUnder(af::test::RealFixtures() / sub, {".txt", ".pbtxt"})) {
      if (f.filename() != "SOURCE.txt") files.push_back(f);
    }
  }
  for (const auto& f : files) {
    const std::string text = af::test::ReadFile(f);
    for (int k = 0; k < 4; ++k) {
      std::string d = text;
      if (k < 2) {
        d.resize(std::uniform_int_distribution<std::size_t>(0, text.size())(rng));
      } else {
        for (int i = 0; i < 8 && !d.empty(); ++i)
          d[std::uniform_int_distribution<std::size_t>(0, d.size() - 1)(rng)] =
              static_cast<char>(std::uniform_int_distribution<int>(0, 255)(rng));
      }
      const fs::path p = tmp / f.filename();
      std::ofstream(p, std::ios::binary) << d;
      const Result r = Afc("inspect " + Quote(p.string()));
      ++runs;
      EXPECT_EQ(r.signal, 0) << f;
      EXPECT_TRUE(r.code == 0 || r.code == 2) << f << " exit " << r.code;
      if (r.code == 2) {
        ++refused;
        EXPECT_THAT(r.err, StartsWith("afc: " + p.string())) << f;
      }
    }
  }
  std::cout << runs << " damaged copies, " << refused << " refused with exit 2\n";
}

}  // namespace
