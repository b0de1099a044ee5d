// The text of a C++ source that the kernel cache keys on: the source without its comments.
// Generated kernels carry comments that name the graph they came from (`// Impl graph fused_43`);
// two kernels that differ only there compile to the same object, so the cache shares it between
// kernels and runs. String and character literals (and raw strings) are kept as they are, so a
// `//` inside a literal is not a comment. Hand-written: no packaged library strips C++ comments
// without a whole preprocessor run, which would cost more than the lookup it serves.
#pragma once

#include <string>
#include <string_view>

namespace af::toolchain {

// `text` without its `// …` and `/* … */` comments and with whitespace normalised outside
// literals: runs of spaces and tabs become one space, none at the start or end of a line. Every
// newline stays (line numbers in diagnostics keep their meaning); literals are untouched.
std::string StripComments(std::string_view text);

}  // namespace af::toolchain
