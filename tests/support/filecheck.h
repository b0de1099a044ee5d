// A small FileCheck-style matcher for golden tests: "IR text in -> stage -> expected text".
//
// Directives, one per line of the check text (other lines are ignored, so the checks can sit in
// comments of a test file):
//   CHECK: pattern        the pattern occurs at or after the current position
//   CHECK-NEXT: pattern   the pattern occurs on the line right after the previous match
//   CHECK-SAME: pattern   the pattern occurs on the same line, after the previous match
//   CHECK-NOT: pattern    the pattern does not occur between the previous and the next match
//   CHECK-LABEL: pattern  like CHECK, and splits the input into blocks (checks stay inside)
//   CHECK-EMPTY:          the next line is empty
// In a pattern, text is literal except {{regex}} (an ECMAScript regex), [[NAME:regex]] (captures
// into NAME) and [[NAME]] (what NAME captured). Leading/trailing whitespace in a pattern is
// ignored and runs of spaces match runs of spaces.
#pragma once

#include <string>

namespace af::test {

struct FileCheckResult {
  bool ok = false;
  std::string message;  // on failure: which directive failed, and where
};

FileCheckResult FileCheck(const std::string& input, const std::string& checks);

}  // namespace af::test

// gtest helper: EXPECT_FILECHECK(dump, R"(CHECK: ...)")
#define EXPECT_FILECHECK(input, checks)                                                       \
  do {                                                                                        \
    const auto af_fc_result_ = ::af::test::FileCheck((input), (checks));                      \
    EXPECT_TRUE(af_fc_result_.ok) << af_fc_result_.message << "\n--- input ---\n" << (input); \
  } while (0)
