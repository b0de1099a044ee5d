// Every flag of the flag table (pipeline/flag_table.h) through afc as a user gives it: accepted
// with AutoFuse's value syntax, a bad value warned about and replaced by the default (--strict:
// exit 2), an unknown name warned about with the closest names, and each flag visibly acting --
// or, for the flags that do not act here, a note saying why.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <functional>
#include <map>
#include <nlohmann/json.hpp>

#include "afc_process.h"
#include "autofuse/pipeline/flag_table.h"
#include "fixtures.h"

namespace {

namespace fs = std::filesystem;
using af::pipeline::FlagKind;
using af::pipeline::FlagSpec;
using af::test::Afc;
using af::test::Shell;
using ::testing::HasSubstr;
using ::testing::Not;
using Json = nlohmann::json;

std::string Src(const std::string& rel) {
  return Shell((af::test::SourceDir() / rel).string());
}

const std::string kHint = "samples/hint_graphs/add_bcast_relu.AscGraphDef.txt";
const std::string kBind = " --bind s0=37,s1=1031";
const std::string kCase = "samples/torch/cases/mul_reducesum";

fs::path Scratch(const std::string& tag) {
  const fs::path d = af::test::TempDir("flags") / tag;
  fs::remove_all(d);
  fs::create_directories(d);
  return d;
}

// A value the table accepts for `f` (its default, else one of its kind).
std::string GoodValue(const FlagSpec& f) {
  if (f.kind == FlagKind::kPath) return Scratch(std::string("good_") + f.name).string();
  if (*f.def != 0) return f.def;
  switch (f.kind) {
    case FlagKind::kCase:
      return "0_R";
    case FlagKind::kInt:
      return std::to_string(static_cast<long long>(f.lo));
    case FlagKind::kList:  // the first member it takes, or an op type
      return *f.choices != 0 ? std::string(f.choices).substr(0, std::string(f.choices).find('|'))
                             : "Add";
    case FlagKind::kText:
      return "Add";
    default:
      return "";
  }
}

// A value the table refuses for `f`, when its kind has one.
std::string BadValue(const FlagSpec& f) {
  switch (f.kind) {
    case FlagKind::kBool:
      return "maybe";
    case FlagKind::kInt:
    case FlagKind::kNumber:
      return "x1";
    case FlagKind::kPercent:
      return "101";
    case FlagKind::kChoice:
      return "bogus";
    case FlagKind::kList:
      return *f.choices != 0 ? "bogus" : "";
    case FlagKind::kCase:
      return "x";
    default:
      return "";
  }
}

std::string Flag(const std::string& name, const std::string& value) {
  return " --flags " + Shell("--" + name + "=" + value);
}

Json TileJson(const std::string& flags) {
  const auto r = Afc("tile " + Src(kHint) + kBind + " --strict --json" + flags);
  EXPECT_EQ(r.code, 0) << flags << "\n" << r.err;
  return r.code == 0 ? Json::parse(r.out) : Json();
}

Json EstimateJson(const std::string& flags, const std::string& input = kCase) {
  const auto r = Afc("estimate " + Src(input) + " --strict --json" + flags);
  EXPECT_EQ(r.code, 0) << flags << "\n" << r.err;
  if (r.code != 0) return Json();
  Json kernels = Json::parse(r.out)["kernels"];
  // dynamic_us includes the tiling function's measured solve time: it differs from run to run
  // and would make any two estimates differ.
  for (auto& k : kernels)
    k.erase("dynamic_us");
  return kernels;
}

TEST(AfcFlags, EveryFlagTakesItsValuesAndWarnsOnBadOnes) {
  for (const auto& f : af::pipeline::FlagTable()) {
    SCOPED_TRACE(f.name);
    const std::string good = GoodValue(f);
    const auto ok = Afc("tile " + Src(kHint) + kBind + " --strict --json" + Flag(f.name, good));
    EXPECT_EQ(ok.code, 0) << good << "\n" << ok.err;
    EXPECT_THAT(ok.err, Not(HasSubstr("warning")));
    if (*f.note != 0) {
      EXPECT_THAT(ok.err, HasSubstr("[FLAG_NOT_ACTING] --" + std::string(f.name)));
    }
    const std::string bad = BadValue(f);
    if (bad.empty()) continue;
    const auto warned = Afc("tile " + Src(kHint) + kBind + " --json" + Flag(f.name, bad));
    EXPECT_EQ(warned.code, 0) << warned.err;
    EXPECT_THAT(warned.err,
                HasSubstr("warning: [BAD_FLAG_VALUE] --" + std::string(f.name) + "=" + bad + ": "));
    EXPECT_THAT(warned.err, HasSubstr("using the default"));
    const auto strict = Afc("tile " + Src(kHint) + kBind + " --strict --json" + Flag(f.name, bad));
    EXPECT_EQ(strict.code, 2) << strict.err;
  }
}

TEST(AfcFlags, UnknownNameNamesTheClosestAndStrictRefuses) {
  const auto r = Afc("tile " + Src(kHint) + kBind + Flag("att_ub_treshold", "20"));
  EXPECT_EQ(r.code, 0) << r.err;
  EXPECT_THAT(r.err, HasSubstr("[UNKNOWN_FLAG] unknown flag --att_ub_treshold (ignored); did you "
                               "mean --att_ub_threshold"));
  EXPECT_EQ(Afc("tile " + Src(kHint) + kBind + " --strict" + Flag("att_ub_treshold", "20")).code,
            2);
  // The environment's flags go through the same table.
  ::setenv("AUTOFUSE_DFX_FLAGS", "--att_ub_threshold=250;--att_profiling=true", 1);
  const auto env = Afc("tile " + Src(kHint) + kBind);
  ::unsetenv("AUTOFUSE_DFX_FLAGS");
  EXPECT_EQ(env.code, 0) << env.err;
  EXPECT_THAT(env.err, HasSubstr("[BAD_FLAG_VALUE] --att_ub_threshold=250"));
  EXPECT_THAT(env.err, HasSubstr("att_profiling: "));
}

TEST(AfcFlags, HelpFlagsListsTheTable) {
  const auto r = Afc("--help-flags");
  ASSERT_EQ(r.code, 0) << r.err;
  for (const auto& f : af::pipeline::FlagTable())
    EXPECT_THAT(r.out, HasSubstr("--" + std::string(f.name) + "=")) << f.name;
  const auto md = Afc("--help-flags-markdown");
  ASSERT_EQ(md.code, 0);
  EXPECT_EQ(md.out, af::pipeline::FlagMarkdown());
}

// Each flag that acts: what it changes, seen from afc. The test fails for a flag of the table
// that neither acts here nor carries a note.
TEST(AfcFlags, EveryActingFlagVisiblyActs) {
  const Json tile = TileJson("");
  const Json fused = EstimateJson("");
  ASSERT_FALSE(fused.empty());
  auto fusion_changes = [&fused](const std::string& flags) {
    EXPECT_NE(EstimateJson(flags), fused) << flags;
  };
  std::map<std::string, std::function<void()>> acts = {
      {"enable_autofuse",
       [&] { EXPECT_TRUE(EstimateJson(Flag("enable_autofuse", "false")).empty()); }},
      {"autofuse_enable_pass", [&] { fusion_changes(Flag("autofuse_enable_pass", "concat")); }},
      {"autofuse_disable_pass", [&] { fusion_changes(Flag("autofuse_disable_pass", "reduce")); }},
      {"max_fusion_size", [&] { fusion_changes(Flag("max_fusion_size", "1")); }},
      {"autofuse_max_fusion_size", [&] { fusion_changes(Flag("autofuse_max_fusion_size", "1")); }},
      {"max_fuse_rounds", [&] { fusion_changes(Flag("max_fuse_rounds", "0")); }},
      {"autofuse_max_fuse_rounds", [&] { fusion_changes(Flag("autofuse_max_fuse_rounds", "0")); }},
      {"autofuse_max_input_nums", [&] { fusion_changes(Flag("autofuse_max_input_nums", "1")); }},
      {"max_proximity",
       [&] {
         // mul and sum are neighbours: a span of 0 positions refuses their fusion (PROXIMITY).
         fusion_changes(Flag("max_proximity", "0"));
         EXPECT_EQ(EstimateJson(Flag("max_proximity", "1")), fused);
       }},
      {"skip_node_names_cfg",
       [&] {
         const fs::path ini = Scratch("skip") / "skip.ini";
         std::ofstream(ini) << "# AutoFuse's skip list\n[ByNodeType]\naten.mul.Tensor\n";
         fusion_changes(Flag("skip_node_names_cfg", ini.string()));
         const fs::path by_name = Scratch("skip_name") / "skip.ini";
         std::ofstream(by_name) << "[ByNodeName]\nmul\n[Other]\nsum\n";
         fusion_changes(Flag("skip_node_names_cfg", by_name.string()));
         // A file that cannot be read: a warning, the flag has no effect (--strict: exit 2).
         const auto r = Afc("estimate " + Src(kCase) + " --json" +
                            Flag("skip_node_names_cfg", (ini.parent_path() / "none.ini").string()));
         EXPECT_EQ(r.code, 0) << r.err;
         EXPECT_THAT(r.err, HasSubstr("[BAD_FLAG_VALUE] --skip_node_names_cfg="));
         EXPECT_THAT(r.err, HasSubstr("cannot read the file"));
       }},
      {"autofuse_max_output_memory",
       [&] { fusion_changes(Flag("autofuse_max_output_memory", "1")); }},
      {"autofuse_peak_memory_limit",
       [&] {
         // A horizontal fusion that raises the modelled peak (the golden test's graph).
         const std::string g = "tests/golden/frontend/fuse_peak_memory.fxtest";
         EXPECT_NE(EstimateJson(Flag("autofuse_peak_memory_limit", "600000"), g),
                   EstimateJson("", g));
       }},
      {"autofuse_fusion_gain_check",
       [&] {
         fusion_changes(
             " --flags '--autofuse_fusion_gain_check=true;--autofuse_fusion_min_gain=1000'");
       }},
      {"autofuse_fusion_min_gain",
       [&] {
         fusion_changes(
             " --flags '--autofuse_fusion_gain_check=true;--autofuse_fusion_min_gain=1000'");
       }},
      {"autofuse_att_algorithm",
       [&] {
         EXPECT_EQ(TileJson(Flag("autofuse_att_algorithm", "HighPerf"))["solver"], "HighPerf");
       }},
      {"att_accuracy_level",
       [&] {
         EXPECT_EQ(TileJson(Flag("att_accuracy_level", "0"))["solver_options"]["accuracy_level"],
                   0);
       }},
      {"att_ub_threshold",
       [&] {
         EXPECT_DOUBLE_EQ(
             TileJson(Flag("att_ub_threshold", "30"))["solver_options"]["ub_threshold_percent"]
                 .get<double>(),
             30);
       }},
      {"att_corenum_threshold",
       [&] {
         EXPECT_DOUBLE_EQ(TileJson(Flag("att_corenum_threshold",
                                        "55"))["solver_options"]["corenum_threshold_percent"]
                              .get<double>(),
                          55);
       }},
      {"att_enable_multicore_ub_tradeoff",
       [&] {
         EXPECT_EQ(TileJson(Flag("att_enable_multicore_ub_tradeoff",
                                 "true"))["solver_options"]["multicore_ub_tradeoff"],
                   true);
       }},
      {"att_profiling",
       [&] {
         const auto r = Afc("tile " + Src(kHint) + kBind + Flag("att_profiling", "true"));
         EXPECT_THAT(r.err, HasSubstr("att_profiling: "));
         EXPECT_THAT(r.err, HasSubstr(" us"));
       }},
      {"autofuse_enable_pgo",
       [&] {
         // The search runs for the bound sizes and its best point goes into the result file.
         const Json j = TileJson(Flag("autofuse_enable_pgo", "true"));
         ASSERT_TRUE(j.contains("pgo")) << j.dump();
         EXPECT_EQ(j["pgo"]["algo"], "core_select");
         EXPECT_TRUE(fs::is_regular_file(j["pgo"]["file"].get<std::string>()));
         EXPECT_FALSE(tile.contains("pgo"));
       }},
      {"autofuse_pgo_algo",
       [&] {
         EXPECT_EQ(
             TileJson(" --flags '--autofuse_enable_pgo=true;--autofuse_pgo_algo=pruning'")["pgo"]
                                                                                          ["algo"],
             "pruning");
       }},
      {"autofuse_pgo_step_max",
       [&] {
         const auto evaluated = [&](const char* steps) {
           return TileJson(std::string(" --flags '--autofuse_enable_pgo=true;"
                                       "--autofuse_pgo_step_max=") +
                           steps + "'")["pgo"]["evaluated"]
               .get<int>();
         };
         EXPECT_LT(evaluated("1"), evaluated("8"));
       }},
      {"autofuse_pgo_topn",
       [&] {
         EXPECT_EQ(
             TileJson(" --flags '--autofuse_enable_pgo=true;--autofuse_pgo_topn=1'")["pgo"]["top"]
                 .size(),
             1u);
       }},
      {"force_schedule_result",
       [&] {
         const Json j = TileJson(Flag("force_schedule_result", "1"));
         EXPECT_THAT(j["indexed_name"].get<std::string>(), HasSubstr("_S1G0"));
       }},
      {"force_tiling_case",
       [&] {
         const int other = tile["tiling_key"].get<int>() == 0 ? 1 : 0;
         EXPECT_EQ(TileJson(Flag("force_tiling_case", std::to_string(other) + "_R"))["tiling_key"],
                   other);
         EXPECT_EQ(TileJson(Flag("force_tiling_case",
                                 "g0_" + std::to_string(other) + ",g1_0"))["tiling_key"],
                   other);
       }},
  };
  // The flags that act on what afc compile writes: one compile with all of them.
  const fs::path dir = Scratch("compile");
  const fs::path debug = dir / "debug";
  const fs::path replace = dir / "replace";
  const fs::path out = dir / "out";
  const Json first = TileJson("");
  const std::string kernel = first["kernel"].get<std::string>();
  fs::create_directories(replace / kernel);
  const auto compiled = [&] {
    static const auto r = Afc(
        "compile " + Src(kHint) + kBind + " --strict --out " + Shell(out.string()) + " --flags " +
        Shell("--codegen_compile_debug=true;--debug_dir=" + debug.string() +
              ";--autofuse_enable_tiling_cache=true;--autofuse_enhance_precision_blacklist=Add"));
    return r;
  };
  acts["codegen_compile_debug"] = [&] {
    ASSERT_EQ(compiled().code, 0) << compiled().err;
    EXPECT_TRUE(fs::is_directory(debug / "autofuse_compile_debug")) << compiled().err;
  };
  acts["debug_dir"] = acts["codegen_compile_debug"];
  acts["autofuse_enable_tiling_cache"] = [&] {
    ASSERT_EQ(compiled().code, 0) << compiled().err;
    const auto plain =
        Afc("compile " + Src(kHint) + kBind + " --out " + Shell((dir / "plain").string()));
    ASSERT_EQ(plain.code, 0) << plain.err;
    std::string cached, uncached;
    for (const auto& e : fs::directory_iterator(out / kernel))
      cached += af::test::ReadFile(e.path());
    for (const auto& e : fs::directory_iterator(dir / "plain" / kernel))
      uncached += af::test::ReadFile(e.path());
    EXPECT_NE(cached, uncached);
  };
  acts["autofuse_enhance_precision_blacklist"] = [&] {
    ASSERT_EQ(compiled().code, 0) << compiled().err;
    EXPECT_THAT(af::test::ReadFile(out / "report.json"), HasSubstr("KEEP_PRECISION"));
  };
  acts["replace_kernel"] = [&] {
    // A hand-edited file of the generated kernel, taken instead of codegen's.
    std::string name;
    for (const auto& e : fs::directory_iterator(dir / "plain" / kernel))
      if (e.path().extension() == ".h" && name.empty()) name = e.path().filename().string();
    ASSERT_FALSE(name.empty());
    const std::string edited =
        af::test::ReadFile(dir / "plain" / kernel / name) + "\n// hand-edited\n";
    std::ofstream(replace / kernel / name) << edited;
    const fs::path out2 = dir / "replaced";
    const auto r = Afc("compile " + Src(kHint) + kBind + " --strict --out " + Shell(out2.string()) +
                       Flag("replace_kernel", replace.string()));
    ASSERT_EQ(r.code, 0) << r.err;
    EXPECT_THAT(r.err, HasSubstr("replace_kernel: " + kernel + " takes"));
    EXPECT_EQ(af::test::ReadFile(out2 / kernel / name), edited);
  };
  for (const auto& f : af::pipeline::FlagTable()) {
    SCOPED_TRACE(f.name);
    const auto it = acts.find(f.name);
    if (*f.note != 0) {
      EXPECT_EQ(it, acts.end()) << "a flag with a note must not also claim to act";
      continue;
    }
    ASSERT_NE(it, acts.end()) << "no check that this flag acts";
    it->second();
  }
}

}  // namespace
