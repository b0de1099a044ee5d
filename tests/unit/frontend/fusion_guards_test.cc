// The fusion decider's memory guards (PEAK_MEMORY, OUTPUT_MEMORY) and modeled-gain check
// (NO_MODELED_GAIN), their flags, and the device facts they use.
#include <gtest/gtest.h>

#include <string>
#include <utility>
#include <vector>

#include "autofuse/frontend/device_facts.h"
#include "autofuse/frontend/fusion.h"
#include "autofuse/importers/fx_graph.h"

namespace af {
namespace {

// exp and neg read x (256x256 f32 = 262144 B); apart, exp's output dies at mm before neg runs.
const char* kSiblings = R"FX(class GraphModule(torch.nn.Module):
    def forward(self, x: "f32[256, 256]", w: "f32[256, 1]"):
        exp: "f32[256, 256]" = torch.ops.aten.exp.default(x)
        mm: "f32[256, 1]" = torch.ops.aten.mm.default(exp, w)
        neg: "f32[256, 256]" = torch.ops.aten.neg.default(x)
        mm_1: "f32[256, 1]" = torch.ops.aten.mm.default(neg, w)
        add: "f32[256, 1]" = torch.ops.aten.add.Tensor(mm, mm_1)
        return (add,)
)FX";

// The same with a symbolic row count.
const char* kSymbolic = R"FX(class GraphModule(torch.nn.Module):
    def forward(self, arg0_1: "Sym(s0)", x: "f32[s0, 256]", w: "f32[256, 1]"):
        exp: "f32[s0, 256]" = torch.ops.aten.exp.default(x)
        mm: "f32[s0, 1]" = torch.ops.aten.mm.default(exp, w)
        neg: "f32[s0, 256]" = torch.ops.aten.neg.default(x)
        mm_1: "f32[s0, 1]" = torch.ops.aten.mm.default(neg, w)
        add: "f32[s0, 1]" = torch.ops.aten.add.Tensor(mm, mm_1)
        return (add,)
)FX";

const char* kChain = R"FX(class GraphModule(torch.nn.Module):
    def forward(self, arg0_1: "f32[192, 128]", arg1_1: "f32[192, 128]"):
        abs_1: "f32[192, 128]" = torch.ops.aten.abs.default(arg0_1)
        add: "f32[192, 128]" = torch.ops.aten.add.Tensor(abs_1, arg1_1)
        relu: "f32[192, 128]" = torch.ops.aten.relu.default(add)
        return (relu,)
)FX";

frontend::FusionResult Decide(const char* text, const frontend::FusionOptions& o) {
  const model::Graph g = importers::ParseFxGraph(text, "test.py");
  return frontend::DecideFusion(g, o);
}

const frontend::FusionRecord& Only(const frontend::FusionResult& r) {
  EXPECT_EQ(r.records.size(), 1u);
  return r.records.at(0);
}

TEST(PeakMemoryGuard, RefusesAFusionThatRaisesThePeakAboveTheLimit) {
  frontend::FusionOptions o;
  o.peak_memory_limit = 600000;
  const auto r = Decide(kSiblings, o);
  const auto& rec = Only(r);
  EXPECT_FALSE(rec.accepted);
  EXPECT_EQ(rec.code, "PEAK_MEMORY");
  EXPECT_EQ(rec.stage, "decider");
  // apart: x + w + mm + neg + mm_1 at mm_1; fused: x + w + exp + neg + mm at mm
  EXPECT_EQ(rec.peak_before, 262144 + 1024 + 1024 + 262144 + 1024);
  EXPECT_EQ(rec.peak_after, 262144 + 1024 + 262144 + 262144 + 1024);
  EXPECT_NE(rec.message.find("from 527360 bytes"), std::string::npos) << rec.message;
  EXPECT_NE(rec.message.find("to 788480 bytes"), std::string::npos) << rec.message;
  EXPECT_NE(rec.message.find("limit of 600000 bytes"), std::string::npos) << rec.message;
  EXPECT_EQ(r.kernels.size(), 3u);
}

TEST(PeakMemoryGuard, AcceptsWithinTheLimitAndWhenOff) {
  frontend::FusionOptions o;
  o.peak_memory_limit = 788480;  // the fused peak itself: not above the limit
  EXPECT_TRUE(Only(Decide(kSiblings, o)).accepted);
  o.peak_memory_limit = 0;  // off
  EXPECT_TRUE(Only(Decide(kSiblings, o)).accepted);
  o.peak_memory_limit = -1;  // the device's HBM
  EXPECT_TRUE(Only(Decide(kSiblings, o)).accepted);
}

TEST(PeakMemoryGuard, AFusionThatDoesNotRaiseThePeakPassesEvenAboveTheLimit) {
  frontend::FusionOptions o;
  o.peak_memory_limit = 1000;        // far below both peaks
  const auto r = Decide(kChain, o);  // only vertical pairs: fusing lowers the peak
  ASSERT_EQ(r.records.size(), 2u);
  for (const auto& rec : r.records)
    EXPECT_TRUE(rec.accepted) << rec.message;
  EXPECT_EQ(r.kernels.size(), 1u);
}

TEST(PeakMemoryGuard, UsesBindingsForSymbolicSizesAndSaysWhenItCannot) {
  frontend::FusionOptions o;
  o.peak_memory_limit = 600000;
  const auto unbound = Decide(kSymbolic, o);
  ASSERT_FALSE(unbound.records.empty());
  EXPECT_TRUE(unbound.records[0].accepted);
  EXPECT_NE(unbound.records[0].message.find("peak-memory guard not applied (s0 unbound)"),
            std::string::npos)
      << unbound.records[0].message;
  o.bindings["s0"] = 256;
  const auto bound = Decide(kSymbolic, o);
  ASSERT_FALSE(bound.records.empty());
  EXPECT_EQ(bound.records[0].code, "PEAK_MEMORY") << bound.records[0].message;
  EXPECT_EQ(bound.records[0].peak_after, 788480);
}

TEST(OutputMemoryLimit, RefusesAKernelWritingMoreThanTheLimit) {
  frontend::FusionOptions o;
  o.max_output_memory = 300000;  // exp + neg write 524288 bytes together
  // The result outlives `rec` (a reference into a temporary dangled here: the ASan stage).
  const auto r = Decide(kSiblings, o);
  const auto& rec = Only(r);
  EXPECT_EQ(rec.code, "OUTPUT_MEMORY");
  EXPECT_NE(rec.message.find("writes 524288 bytes"), std::string::npos) << rec.message;
  EXPECT_EQ(frontend::FusionOptions{}.max_output_memory, std::int64_t{13} << 30);
}

TEST(GainCheck, RecordsBothModeledTimesAndRefusesWithoutGain) {
  frontend::FusionOptions o;
  o.gain_check = true;
  const auto on = Decide(kChain, o);
  ASSERT_EQ(on.kernels.size(), 1u);
  const auto& facts = frontend::GetDeviceFacts(hw::GetProfile("ascend910b"));
  for (const auto& rec : on.records) {
    EXPECT_TRUE(rec.accepted) << rec.message;
    EXPECT_GT(rec.fused_us, facts.launch_us);
    EXPECT_GT(rec.parts_us, 2 * facts.launch_us);  // two kernels, two launches
    EXPECT_LT(rec.fused_us, rec.parts_us);
  }
  o.min_gain = 1000;
  const auto off = Decide(kChain, o);
  ASSERT_FALSE(off.records.empty());
  for (const auto& rec : off.records) {
    EXPECT_EQ(rec.code, "NO_MODELED_GAIN");
    EXPECT_GT(rec.fused_us, 0);
    EXPECT_GT(rec.parts_us, 0);
    EXPECT_NE(rec.message.find(" us against "), std::string::npos) << rec.message;
  }
  EXPECT_EQ(off.kernels.size(), 3u);
  // Off by default: no times computed.
  const auto plain = Decide(kChain, {});
  for (const auto& rec : plain.records)
    EXPECT_LT(rec.fused_us, 0);
}

TEST(GainCheck, SkipsWithANoteWhenSizesAreUnbound) {
  frontend::FusionOptions o;
  o.gain_check = true;
  const auto r = Decide(kSymbolic, o);
  ASSERT_FALSE(r.records.empty());
  EXPECT_TRUE(r.records[0].accepted);
  EXPECT_NE(r.records[0].message.find("gain check not applied"), std::string::npos)
      << r.records[0].message;
  o.bindings["s0"] = 64;
  const auto b = Decide(kSymbolic, o);
  ASSERT_FALSE(b.records.empty());
  EXPECT_GT(b.records[0].fused_us, 0) << b.records[0].message;
}

TEST(GainCheck, AViewJoinsWithoutBeingTimed) {
  // unsqueeze is a view: fused with mul it costs what mul costs alone. Timing it would tie (and a
  // strict "faster" rule would refuse every view); the check is not applied, with a note.
  const char* text = R"FX(class GraphModule(torch.nn.Module):
    def forward(self, arg0_1: "f32[64, 4]", arg1_1: "f32[64, 4, 256]"):
        unsqueeze: "f32[64, 4, 1]" = torch.ops.aten.unsqueeze.default(arg0_1, -1)
        mul: "f32[64, 4, 256]" = torch.ops.aten.mul.Tensor(unsqueeze, arg1_1)
        return (mul,)
)FX";
  frontend::FusionOptions o;
  o.gain_check = true;
  const auto r = Decide(text, o);
  const auto& rec = Only(r);
  EXPECT_TRUE(rec.accepted) << rec.message;
  EXPECT_NE(rec.message.find("gain check not applied (a part is views only)"), std::string::npos)
      << rec.message;
  EXPECT_EQ(r.kernels.size(), 1u);
}

TEST(FusionFlags, MemoryAndGainFlags) {
  const auto o = frontend::FusionOptionsFromFlags({{"autofuse_peak_memory_limit", "4096"},
                                                   {"autofuse_max_output_memory", "0"},
                                                   {"autofuse_fusion_gain_check", "1"},
                                                   {"autofuse_fusion_min_gain", "1.5"},
                                                   {"autofuse_att_algorithm", "HighPerf"}},
                                                  "ascend910b");
  EXPECT_EQ(o.peak_memory_limit, 4096);
  EXPECT_EQ(o.max_output_memory, 0);
  EXPECT_TRUE(o.gain_check);
  EXPECT_DOUBLE_EQ(o.min_gain, 1.5);
  EXPECT_EQ(o.solver_flags.at("autofuse_att_algorithm"), "HighPerf");
  EXPECT_FALSE(frontend::FusionOptionsFromFlags({}, "ascend910b").gain_check);
  // -1 is the default written out (the device's HBM; the flag table's default).
  EXPECT_EQ(frontend::FusionOptionsFromFlags({{"autofuse_peak_memory_limit", "-1"}}, "ascend910b")
                .peak_memory_limit,
            -1);
  for (const auto& [k, v] :
       std::vector<std::pair<std::string, std::string>>{{"autofuse_peak_memory_limit", "-2"},
                                                        {"autofuse_peak_memory_limit", "12x"},
                                                        {"autofuse_fusion_gain_check", "yes"},
                                                        {"autofuse_fusion_min_gain", "0"}}) {
    EXPECT_THROW(frontend::FusionOptionsFromFlags({{k, v}}, "ascend910b"), frontend::LowerError)
        << k << "=" << v;
  }
}

TEST(DeviceFacts, SourcedOrLabelledAsAssumptions) {
  const auto& a2 = frontend::GetDeviceFacts(hw::GetProfile("ascend910b"));
  EXPECT_DOUBLE_EQ(a2.clock_ghz, 1.8);
  EXPECT_NE(a2.clock_source.find("ops-nn#6033"), std::string::npos);
  EXPECT_EQ(a2.hbm_bytes, std::int64_t{64} << 30);
  const auto& v2 = frontend::GetDeviceFacts(hw::GetProfile("ascend950"));
  EXPECT_DOUBLE_EQ(v2.clock_ghz, 1.65);
  EXPECT_EQ(v2.hbm_bytes, std::int64_t{128} << 30);
  const auto& a3 = frontend::GetDeviceFacts(hw::GetProfile("ascend910_93"));
  EXPECT_NE(a3.clock_source.find("assumption"), std::string::npos);
  for (const auto* f : {&a2, &a3, &v2})
    EXPECT_NE(f->launch_source.find("assumption"), std::string::npos);
}

}  // namespace
}  // namespace af
