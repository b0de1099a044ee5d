// afc ops (issue 22): the registry per profile, as text and JSON; every A2/A3 op AutoFuse's V1
// registers beyond the first set is listed on ascend910b, the 950 math set carries its decision
// code there and none on ascend950, refused ops carry theirs, and a bad --soc is exit 2.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <map>
#include <nlohmann/json.hpp>
#include <string>

#include "afc_process.h"

namespace {

using af::test::Afc;
using ::testing::HasSubstr;
using Json = nlohmann::json;

const char* const kPolynomials[] = {"ShiftedChebyshevPolynomialT", "ShiftedChebyshevPolynomialU",
                                    "ShiftedChebyshevPolynomialV", "ShiftedChebyshevPolynomialW",
                                    "LaguerrePolynomialL",         "LegendrePolynomialP"};

std::map<std::string, Json> OpsBySoc(const std::string& soc) {
  const auto r = Afc("ops --soc " + soc + " --json");
  EXPECT_EQ(r.code, 0) << r.err;
  const Json j = Json::parse(r.out);
  EXPECT_EQ(j["soc"], soc);
  EXPECT_EQ(j["count"].get<std::size_t>(), j["ops"].size());
  std::map<std::string, Json> m;
  for (const auto& o : j["ops"])
    m[o["name"].get<std::string>()] = o;
  return m;
}

TEST(AfcOps, A2ListsEveryV1OpAndDecisionsForThe950Set) {
  const auto ops = OpsBySoc("ascend910b");
  EXPECT_GE(ops.size(), 84u);
  for (const char* name : {"Axpy",         "ClipByValue", "FloorDiv",  "Gelu",    "LeakyRelu",
                           "Remainder",    "BitwiseAnd",  "IsFinite",  "IsInf",   "Isnan",
                           "MaskedFill",   "ScalarData",  "IndexExpr", "Nop",     "Ub2ub",
                           "FlashSoftmax", "VectorFunc",  "ArgMax",    "Sigmoid", "Maximum"}) {
    ASSERT_TRUE(ops.contains(name)) << name;
  }
  EXPECT_EQ(ops.at("Gelu")["status"], "supported");
  EXPECT_EQ(ops.at("LeakyRelu")["attrs"], Json::array({"negative_slope"}));
  EXPECT_EQ(ops.at("Sin")["status"], "decision");
  EXPECT_EQ(ops.at("Sin")["reason"], "AUTOFUSE_V1_UNREGISTERED");
  EXPECT_EQ(ops.at("ArgMax")["status"], "supported");  // all_load and common (issue 22)
  EXPECT_EQ(ops.at("ArgMaxMultiRPhase1")["reason"], "ARGMAX_MULTI_PHASE");
  EXPECT_EQ(ops.at("FlashSoftmax")["reason"], "FLASH_SOFTMAX");
  EXPECT_EQ(ops.at("Isnan")["output_dtype"], "bool");
  EXPECT_EQ(ops.at("MaskedFill")["inputs"], Json::array({"x", "mask", "value"}));
  // The incomplete gamma, zeta and Airy functions: 950-only, refused here like Sin.
  for (const char* name : {"Igamma", "Igammac", "Zeta", "AiryAi"}) {
    ASSERT_TRUE(ops.contains(name)) << name;
    EXPECT_EQ(ops.at(name)["reason"], "AUTOFUSE_V1_UNREGISTERED") << name;
  }
  for (const char* name : {"LShift", "RShift", "Xor"}) {  // the 950's bit ops (issue 22)
    EXPECT_EQ(ops.at(name)["reason"], "AUTOFUSE_V1_UNREGISTERED") << name;
  }
  for (const char* name : kPolynomials) {  // the 950's orthogonal polynomials (issue 22)
    ASSERT_TRUE(ops.contains(name)) << name;
    EXPECT_EQ(ops.at(name)["reason"], "AUTOFUSE_V1_UNREGISTERED") << name;
  }
}

TEST(AfcOps, A950ListsTheMathSetWithoutDecisions) {
  const auto ops = OpsBySoc("ascend950");
  EXPECT_GE(ops.size(), 120u);
  int math = 0;
  for (const auto& [name, o] : ops) {
    if (o["autofuse_v2"].get<bool>() && !o["autofuse_v1"].get<bool>()) {
      ++math;
      EXPECT_TRUE(o["reason"].get<std::string>().empty()) << name;
    }
  }
  EXPECT_GE(math, 50);
  EXPECT_EQ(ops.at("Sin")["status"], "supported");
  for (const char* name : {"LShift", "RShift", "Xor"}) {
    EXPECT_EQ(ops.at(name)["status"], "supported") << name;
    EXPECT_EQ(ops.at(name)["inputs"], Json::array({"x1", "x2"})) << name;
  }
  EXPECT_EQ(ops.at("ArgMax")["status"], "decision");  // V1-only in AutoFuse
  EXPECT_EQ(ops.at("ArgMax")["reason"], "AUTOFUSE_V2_UNREGISTERED");
  for (const char* name : {"Igamma", "Igammac", "Zeta", "AiryAi"}) {
    ASSERT_TRUE(ops.contains(name)) << name;
    EXPECT_EQ(ops.at(name)["status"], "supported") << name;
  }
  EXPECT_EQ(ops.at("Igamma")["inputs"], Json::array({"x1", "x2"}));
  for (const char* name : kPolynomials) {  // x and the degree as the int attr n
    ASSERT_TRUE(ops.contains(name)) << name;
    EXPECT_EQ(ops.at(name)["status"], "supported") << name;
    EXPECT_EQ(ops.at(name)["inputs"], Json::array({"x"})) << name;
    EXPECT_EQ(ops.at(name)["attrs"], Json::array({"n"})) << name;
  }
}

TEST(AfcOps, TextFormAndBadSoc) {
  const auto r = Afc("ops --soc ascend950");
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_THAT(r.out, HasSubstr("ops registered on ascend950"));
  EXPECT_THAT(r.out, HasSubstr("  Fmod [elewise] (x1,x2) -> (y) dtypes fp32,fp16 -> =x0"));
  const auto bad = Afc("ops --soc nosuchchip");
  EXPECT_EQ(bad.code, 2);
  EXPECT_THAT(bad.err, HasSubstr("nosuchchip"));
}

}  // namespace
