// Writing an output file without ever leaving a half-written one in place of what was there: the
// text goes to a temporary file next to the target, which is then renamed over it.
#pragma once

#include <string>

namespace af {

// Throws af::InputError naming `path` when the file cannot be written or replaced; the temporary
// file is removed on failure.
void WriteFileReplacing(const std::string& path, const std::string& text);

}  // namespace af
