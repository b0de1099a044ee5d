// The Inductor IR parser on our own fixtures (tests/fixtures/inductor: one per printed form) and on
// every real ir_*_fusion file and npu_ext log in shared/fixtures: node counts equal the header
// lines, fused groups hold their sub-nodes, every loop-body statement is read.
#include "autofuse/importers/inductor_ir.h"

#include <gtest/gtest.h>

#include <iostream>
#include <regex>
#include <sstream>

#include "autofuse/support/error.h"
#include "fixtures.h"

namespace af::importers::inductor {
namespace {

IrFile LoadOur(const std::string& name) {
  return LoadInductorIrFile(test::OurFixtures() / "inductor" / name);
}

TEST(InductorIr, Torch20BufNamesKeywordDepsSixArgReduction) {
  const IrFile f = LoadOur("v2.0_buf_names.ir_post_fusion.txt");
  EXPECT_EQ(f.stage, "post");
  EXPECT_EQ(f.version_guess, "2.0");
  ASSERT_EQ(f.nodes.size(), 3u);
  const SchedNode& fused = f.nodes[0];
  EXPECT_EQ(fused.kind, NodeKind::kFused);
  EXPECT_EQ(fused.ir_classes, std::vector<std::string>{"NoneType"});
  EXPECT_EQ(fused.snode_names, (std::vector<std::string>{"buf0", "buf1"}));
  ASSERT_EQ(fused.writes.size(), 2u);
  EXPECT_EQ(fused.writes[1].buffer, "buf1");
  EXPECT_EQ(fused.writes[1].size.size(), 2u);
  EXPECT_EQ(fused.writes[1].size[1].text, "16");
  const SchedNode& red = f.nodes[1];
  EXPECT_EQ(red.kind, NodeKind::kScheduler);
  EXPECT_TRUE(red.IsReduction());
  ASSERT_EQ(red.unmet_dependencies.size(), 1u);
  EXPECT_TRUE(red.unmet_dependencies[0].indirect);
  EXPECT_EQ(red.iteration.size(), 2u);
  EXPECT_TRUE(red.sizes.empty());
  ASSERT_EQ(red.reduction_sizes.size(), 1u);
  ASSERT_TRUE(red.body.has_value());
  ASSERT_EQ(red.body->blocks.size(), 1u);
  EXPECT_EQ(red.body->indexing.size(), 3u);
  ASSERT_TRUE(red.body->indexing[1].second.expr.has_value());  // indirect0 + 16*z0
  EXPECT_EQ(red.body->CountOps(BodyOp::Kind::kSetIndirect), 1);
  const auto& ops = red.body->blocks[0].ops;
  ASSERT_EQ(ops.size(), 9u);
  EXPECT_EQ(ops[7].op, "reduction");
  EXPECT_EQ(ops[7].buffer, "buf2");
  EXPECT_EQ(ops[7].reduction_type, "sum");
  EXPECT_EQ(ops[7].index, "get_index_2");
  EXPECT_EQ(ops[8].kind, BodyOp::Kind::kReturn);
  EXPECT_EQ(f.nodes[2].kind, NodeKind::kExtern);
  EXPECT_EQ(f.nodes[2].kernel, "extern_kernels.convolution");
  EXPECT_EQ(f.nodes[2].writes[0].kind, Dep::Kind::kStar);
}

TEST(InductorIr, Torch23IndentedSnodesMaskedSubblocksUsers) {
  const IrFile f = LoadOur("v2.3_indented_snodes.ir_post_fusion.txt");
  EXPECT_EQ(f.version_guess, "2.1-2.4");
  ASSERT_EQ(f.nodes.size(), 2u);
  const SchedNode& fused = f.nodes[0];
  ASSERT_EQ(fused.snodes.size(), 2u);
  EXPECT_EQ(fused.snode_names, (std::vector<std::string>{"buf0", "buf1"}));
  ASSERT_EQ(fused.met_dependencies.size(), 2u);
  EXPECT_TRUE(fused.met_dependencies[0].indirect);
  const SchedNode& b0 = fused.snodes[0];
  ASSERT_EQ(b0.iteration.size(), 2u);
  EXPECT_EQ(b0.iteration[0].size(), 1u);
  EXPECT_TRUE(b0.iteration[1].empty());
  ASSERT_EQ(b0.users.size(), 1u);
  EXPECT_EQ(b0.users[0].second[0].node, "buf1");
  EXPECT_TRUE(b0.users[0].second[0].can_inplace);
  ASSERT_TRUE(b0.body.has_value());
  ASSERT_EQ(b0.body->blocks.size(), 2u);
  EXPECT_EQ(b0.body->blocks[1].name, "masked_subblock1");
  EXPECT_EQ(b0.body->blocks[1].ops.size(), 7u);
  EXPECT_EQ(b0.body->CountOps(BodyOp::Kind::kMaskedSubblock), 1);
  const BodyOp& cast = b0.body->blocks[1].ops[5];
  EXPECT_EQ(cast.op, "to_dtype");
  ASSERT_EQ(cast.kwargs.size(), 1u);
  EXPECT_EQ(cast.kwargs[0].second, "torch.int64");
  const SchedNode& b1 = fused.snodes[1];
  EXPECT_EQ(b1.users[0].second[0].node, "OUTPUT");
  EXPECT_EQ(b1.body->var_ranges.size(), 2u);
  EXPECT_EQ(f.nodes[1].kind, NodeKind::kNop);
}

TEST(InductorIr, Torch26OpNamesOutputsWelfordTemplates) {
  const IrFile f = LoadOur("v2.6_op_names.ir_post_fusion.txt");
  EXPECT_EQ(f.version_guess, ">=2.6");
  ASSERT_EQ(f.nodes.size(), 4u);
  EXPECT_EQ(f.nodes[0].kind, NodeKind::kExtern);
  ASSERT_EQ(f.nodes[0].outputs.size(), 1u);
  EXPECT_EQ(f.nodes[0].outputs[0].users.size(), 2u);
  ASSERT_TRUE(f.nodes[0].outputs[0].layout.has_value());
  EXPECT_EQ(f.nodes[0].outputs[0].layout->stride.size(), 3u);
  const SchedNode& fused = f.nodes[1];
  EXPECT_EQ(fused.kind, NodeKind::kFused);
  EXPECT_EQ(fused.ir_classes.size(), 2u);
  EXPECT_EQ(fused.outputs.size(), 2u);
  ASSERT_EQ(fused.snodes.size(), 2u);
  EXPECT_EQ(fused.skipped_keys, std::vector<std::string>{"some_future_key"});
  const SchedNode& op1 = fused.snodes[0];
  EXPECT_TRUE(op1.IsReduction());
  EXPECT_EQ(op1.buffer_layouts.size(), 2u);
  EXPECT_EQ(op1.body->CountOps(BodyOp::Kind::kGetItem), 3);
  EXPECT_EQ(op1.body->blocks[0].ops[2].reduction_type, "welford_reduce");
  EXPECT_EQ(op1.unmet_dependencies[0].ranges.size(), 3u);
  const SchedNode& op2 = fused.snodes[1];
  EXPECT_FALSE(op2.IsReduction());
  EXPECT_EQ(op2.buffer_layouts.size(), 4u);
  EXPECT_EQ(op2.body->blocks[0].ops.size(), 12u);
  const SchedNode& tmpl = f.nodes[2];
  EXPECT_EQ(tmpl.kind, NodeKind::kTemplate);
  EXPECT_FALSE(tmpl.body.has_value());
  EXPECT_EQ(tmpl.met_dependencies[0].kind, Dep::Kind::kWeak);
  EXPECT_EQ(tmpl.met_dependencies[0].mutating_buf, "buf3");
  EXPECT_EQ(tmpl.outputs[0].mutations, std::vector<std::string>{"arg3_1"});
  EXPECT_EQ(tmpl.outputs[0].layout->kind, "MutationLayoutSHOULDREMOVE");
  EXPECT_EQ(f.nodes[3].kind, NodeKind::kNop);
}

TEST(InductorIr, NpuExtLogBlocks) {
  const IrFile f = LoadOur("npu_ext_debug.log");
  ASSERT_EQ(f.nodes.size(), 1u);
  EXPECT_EQ(f.nodes[0].device, "npu:0");
  EXPECT_EQ(f.nodes[0].outputs[0].layout->dtype, "torch.float16");
  EXPECT_EQ(f.nodes[0].body->blocks[0].ops.size(), 6u);
  EXPECT_GT(f.skipped_lines, 0);
}

TEST(InductorIr, ErrorsNameFileAndLine) {
  const auto err = [](const std::string& text) {
    try {
      ParseInductorIr(text, "x.txt");
    } catch (const InputError& e) {
      return std::string(e.what());
    }
    return std::string("no error");
  };
  EXPECT_NE(err("hello\n").find("x.txt:1"), std::string::npos);
  EXPECT_NE(err("op0: SchedulerNode(ComputedBuffer)\nop0.writes = [MemoryDep('buf0', c0,\n")
                .find("x.txt:2"),
            std::string::npos);
  EXPECT_NE(err("op0: SchedulerNode(ComputedBuffer)\nop0.writes = [MemoryDep('buf0' c0)]\n")
                .find("x.txt:2"),
            std::string::npos);
  EXPECT_NE(err("op0: SchedulerNode(ComputedBuffer)\nop0.outputs = [\n    buf0: ComputedBuffer\n")
                .find("x.txt:2"),
            std::string::npos);
  EXPECT_NE(err("a_b: FusedSchedulerNode(SchedulerNode)\na_b.snodes[0] =\n\n").find("x.txt:2"),
            std::string::npos);
  EXPECT_EQ(ParseInductorIr("", "x.txt").nodes.size(), 0u);
}

int CountDumps(const SchedNode& n) {
  int c = 1;
  for (const auto& s : n.snodes)
    c += CountDumps(s);
  return c;
}

// Header lines of a file, counted by a regular expression independent of the parser.
int CountHeaders(const std::string& text, bool top_level_only) {
  static const std::regex kTop(R"(^[A-Za-z_]\w*: \w+\([\w,]*\)$)");
  static const std::regex kAny(
      R"(^\s*(?:\[[^\]]*\] \[RANK\d+\] \[\w+\] (?:Codegen \[\d+/\d+\] )?)?[A-Za-z_]\w*: \w*(?:SchedulerNode|Fused\w*)\([\w,]*\)$)");
  std::istringstream in(text);
  std::string line;
  int c = 0;
  while (std::getline(in, line)) {
    if (!line.empty() && line.back() == '\r') line.pop_back();
    c += std::regex_match(line, top_level_only ? kTop : kAny) ? 1 : 0;
  }
  return c;
}

TEST(InductorIrReal, EveryIrFileLoadsWithAllNodes) {
  AF_REQUIRE_REAL_FIXTURES();
  std::vector<std::filesystem::path> files;
  for (const auto& p : test::FilesUnder(test::RealFixtures() / "inductor", {".txt"})) {
    const std::string name = p.filename().string();
    if (name == "SOURCE.txt") continue;
    files.push_back(p);
  }
  ASSERT_GE(files.size(), 20u);
  int total = 0;
  for (const auto& p : files) {
    SCOPED_TRACE(p.string());
    const std::string text = test::ReadFile(p);
    if (!LooksLikeInductorIr(text)) {
      EXPECT_EQ(p.filename().string().find("ir_"), std::string::npos);
      continue;
    }
    IrFile f;
    ASSERT_NO_THROW(f = ParseInductorIr(text, p.string()));
    int dumps = 0;
    int fused = 0;
    int ops = 0;
    for (const auto& n : f.nodes) {
      dumps += CountDumps(n);
      fused += n.kind == NodeKind::kFused ? 1 : 0;
      if (n.kind == NodeKind::kFused) {
        EXPECT_FALSE(n.snode_names.empty());
      }
      for (const auto* l : n.Leaves()) {
        for (const auto& k : l->skipped_keys) {
          ADD_FAILURE() << l->name << ": skipped " << k;
        }
        if (!l->body) continue;
        for (const auto& b : l->body->blocks) {
          ops += static_cast<int>(b.ops.size());
          for (const auto& op : b.ops) {
            EXPECT_NE(op.kind, BodyOp::Kind::kOther) << op.text;
          }
        }
      }
    }
    // Every header line (top level and inside fused nodes) became a node.
    EXPECT_EQ(dumps, CountHeaders(text, false));
    std::cout << std::filesystem::relative(p, test::RealFixtures()).string() << ": "
              << f.nodes.size() << " nodes, " << fused << " fused, " << ops
              << " loop-body statements, torch " << f.version_guess << "\n";
    total += static_cast<int>(f.nodes.size());
  }
  EXPECT_GT(total, 300);
}

}  // namespace
}  // namespace af::importers::inductor
