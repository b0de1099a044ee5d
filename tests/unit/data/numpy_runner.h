// Runs small Python + NumPy scripts from tests, so our .npy reader, fp16 conversions and the
// interpreter are checked against real NumPy rather than against our own idea of it. NumPy is a
// hard requirement of these tests: when no interpreter can import it they FAIL with a message
// saying so (never skip).
#pragma once

#include <filesystem>
#include <string>

namespace af::test {

// The Python that can import numpy: $AF_PYTHON, else python3, else /usr/bin/python3 (a pyenv
// python3 on PATH may lack the Debian python3-numpy package). Empty when none can.
const std::string& NumpyPython();

// Writes `script` to dir/script.py and runs it in `dir`. Returns "" on success, else a
// description of the failure with the script's output.
std::string RunNumpy(const std::filesystem::path& dir, const std::string& script);

}  // namespace af::test
