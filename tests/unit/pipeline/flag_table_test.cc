// The flag table (pipeline/flag_table.h): its own consistency, the checker's warnings and notes,
// the AutoFuse value syntax, and that docs/cli.md carries the table as generated.
#include "autofuse/pipeline/flag_table.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <fstream>
#include <set>
#include <sstream>

#include "autofuse/pipeline/options.h"
#include "autofuse/support/error.h"

namespace af::pipeline {
namespace {

using ::testing::HasSubstr;

TEST(FlagTable, NamesAreUniqueAndDefaultsValid) {
  std::set<std::string> names;
  for (const auto& f : FlagTable()) {
    EXPECT_TRUE(names.insert(f.name).second) << f.name;
    EXPECT_EQ(FindFlag(f.name), &f);
    if (*f.def != 0) {
      EXPECT_EQ(FlagValueError(f, f.def), "") << f.name << "=" << f.def;
    }
    EXPECT_NE(std::string(f.doc), "") << f.name;
    EXPECT_NE(std::string(f.acts_on), "") << f.name;
  }
  // Every AutoFuse name of the reference (autofuse-reference.md § 7) is in the table.
  for (const char* n : {"enable_autofuse",
                        "autofuse_enable_pass",
                        "autofuse_enable_pgo",
                        "autofuse_enhance_precision_blacklist",
                        "codegen_compile_debug",
                        "debug_dir",
                        "autofuse_att_algorithm",
                        "att_accuracy_level",
                        "att_ub_threshold",
                        "att_corenum_threshold",
                        "att_enable_multicore_ub_tradeoff",
                        "att_enable_small_shape_strategy",
                        "att_profiling",
                        "autofuse_enable_tiling_cache",
                        "autofuse_pgo_algo",
                        "autofuse_pgo_step_max",
                        "autofuse_pgo_topn",
                        "force_schedule_result",
                        "force_tiling_case",
                        "force_template_op_name",
                        "replace_kernel",
                        "max_fusion_size",
                        "max_fuse_rounds",
                        "max_proximity",
                        "recomputation_threshold",
                        "disable_lifting",
                        "skip_node_names_cfg"})
    EXPECT_NE(FindFlag(n), nullptr) << n;
  // Where AutoFuse's auto_fuse_config.h reads them from, and its range.
  EXPECT_STREQ(FindFlag("recomputation_threshold")->source, "AUTOFUSE_FLAGS");
  EXPECT_EQ(FlagValueError(*FindFlag("recomputation_threshold"), "255"), "");
  EXPECT_NE(FlagValueError(*FindFlag("recomputation_threshold"), "256"), "");
  EXPECT_STREQ(FindFlag("disable_lifting")->source, "AUTOFUSE_DFX_FLAGS");
  EXPECT_STREQ(FindFlag("skip_node_names_cfg")->source, "AUTOFUSE_DFX_FLAGS");
  EXPECT_NE(FlagValueError(*FindFlag("skip_node_names_cfg"), "/nonexistent/skip.ini"), "");
}

TEST(FlagTable, AutoFuseValueSyntax) {
  const auto err = [](const char* name, const char* v) {
    return FlagValueError(*FindFlag(name), v);
  };
  EXPECT_EQ(err("att_ub_threshold", "20"), "");
  EXPECT_EQ(err("att_ub_threshold", "100"), "");
  EXPECT_THAT(err("att_ub_threshold", "101"), HasSubstr("percent 0..100"));
  EXPECT_NE(err("att_ub_threshold", "x"), "");
  EXPECT_EQ(err("att_enable_multicore_ub_tradeoff", "true"), "");
  EXPECT_EQ(err("att_enable_multicore_ub_tradeoff", "0"), "");
  EXPECT_NE(err("att_enable_multicore_ub_tradeoff", "yes"), "");
  for (const char* spec : {"0", "3_R", "g0_1,g1_2_R", "g0_12"})
    EXPECT_EQ(err("force_tiling_case", spec), "") << spec;
  for (const char* spec : {"", "R", "_R", "g_1", "gx_1", "3_X", "-1"})
    EXPECT_NE(err("force_tiling_case", spec), "") << spec;
  EXPECT_EQ(err("autofuse_enable_pass", "concat,reduce"), "");
  EXPECT_THAT(err("autofuse_enable_pass", "concat,bogus"), HasSubstr("'bogus'"));
  EXPECT_NE(err("autofuse_pgo_step_max", "0"), "");
  EXPECT_NE(err("autofuse_pgo_step_max", "1025"), "");
  EXPECT_NE(err("att_accuracy_level", "0.5"), "");
  EXPECT_NE(err("autofuse_att_algorithm", "Fast"), "");
}

TEST(FlagTable, CheckDropsUnknownAndBadAndNotesWhatDoesNotAct) {
  std::map<std::string, std::string> f = {{"att_ub_treshold", "20"},
                                          {"att_ub_threshold", "150"},
                                          {"att_corenum_threshold", "40"},
                                          {"disable_lifting", "true"}};
  const auto d = CheckFlags(&f);
  ASSERT_EQ(d.size(), 3u);
  std::map<std::string, FlagDiagnostic> by;
  for (const auto& x : d)
    by[x.flag] = x;
  EXPECT_EQ(by["att_ub_treshold"].code, "UNKNOWN_FLAG");
  EXPECT_THAT(by["att_ub_treshold"].message, HasSubstr("did you mean --att_ub_threshold"));
  EXPECT_EQ(by["att_ub_threshold"].code, "BAD_FLAG_VALUE");
  EXPECT_THAT(by["att_ub_threshold"].message, HasSubstr("using the default 20"));
  EXPECT_EQ(by["disable_lifting"].code, "FLAG_NOT_ACTING");
  EXPECT_THAT(by["disable_lifting"].message, HasSubstr("no lifting step"));
  // What stays is valid: the two warnings' flags are gone, the rest kept.
  EXPECT_EQ(f, (std::map<std::string, std::string>{{"att_corenum_threshold", "40"},
                                                   {"disable_lifting", "true"}}));
}

TEST(FlagTable, ClosestNames) {
  EXPECT_EQ(ClosestFlags("att_ub_treshold").at(0), "att_ub_threshold");
  EXPECT_EQ(ClosestFlags("enable_autofuze").at(0), "enable_autofuse");
  EXPECT_EQ(ClosestFlags("force_tiling").at(0), "force_tiling_case");
  EXPECT_TRUE(ClosestFlags("zzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzz").empty());
}

TEST(FlagTable, ForcedCaseSpecNamesGroupZerosCase) {
  Options o;
  const auto idx = [&o](const std::string& spec) {
    o.flags["force_tiling_case"] = spec;
    return IndexFlag(o, "force_tiling_case", "a case index");
  };
  EXPECT_EQ(idx("3"), 3);
  EXPECT_EQ(idx("3_R"), 3);
  EXPECT_EQ(idx("g0_1,g1_2_R"), 1);
  EXPECT_EQ(idx("g1_2,g0_4_R"), 4);
  EXPECT_EQ(idx("g1_2"), -1);  // no entry for our one group: not forced
}

TEST(FlagTable, ForcedCaseSpecPerGroupOfAMultiGroupKernel) {
  Options o;
  const auto cases = [&o](const std::string& spec) {
    o.flags["force_tiling_case"] = spec;
    return ForcedGroupCases(o, 3);
  };
  EXPECT_EQ(cases("2"), (std::vector<int>{2, 2, 2}));
  EXPECT_EQ(cases("g1_4_R"), (std::vector<int>{-1, 4, -1}));
  EXPECT_EQ(cases("g0_1, g2_0"), (std::vector<int>{1, -1, 0}));
  EXPECT_EQ(cases("5,g1_0"), (std::vector<int>{5, 0, 5}));  // a plain N: the groups left over
  EXPECT_EQ(cases(""), (std::vector<int>{}));
  o.flags.erase("force_tiling_case");
  EXPECT_TRUE(ForcedGroupCases(o, 3).empty());
  for (const char* bad : {"g3_1", "g1", "gx_1", "g1_y", "-1"}) {
    o.flags["force_tiling_case"] = bad;
    EXPECT_THROW(ForcedGroupCases(o, 3), InputError) << bad;
  }
  o.flags["force_tiling_case"] = "g3_1";
  try {
    ForcedGroupCases(o, 3);
  } catch (const InputError& e) {
    EXPECT_THAT(e.what(), HasSubstr("group 3, but the kernel has 3 group(s)"));
  }
}

TEST(FlagTable, DocsCliCarriesTheGeneratedTable) {
  std::ifstream in("docs/cli.md");
  ASSERT_TRUE(in) << "docs/cli.md (tests run in the source directory)";
  std::stringstream ss;
  ss << in.rdbuf();
  const std::string doc = ss.str();
  const std::string begin = "<!-- flags:begin (generated by `afc --help-flags-markdown`) -->\n";
  const auto b = doc.find(begin);
  const auto e = doc.find("<!-- flags:end -->");
  ASSERT_NE(b, std::string::npos);
  ASSERT_NE(e, std::string::npos);
  EXPECT_EQ(doc.substr(b + begin.size(), e - b - begin.size()), FlagMarkdown())
      << "regenerate the section with: build/bin/afc --help-flags-markdown";
}

TEST(FlagTable, HelpTextListsEveryFlagWithItsDefault) {
  const std::string help = FlagHelpText();
  for (const auto& f : FlagTable())
    EXPECT_THAT(help, HasSubstr("--" + std::string(f.name) + "=")) << f.name;
  EXPECT_THAT(help, HasSubstr("--att_ub_threshold=percent 0..100  (default 20)"));
}

}  // namespace
}  // namespace af::pipeline
