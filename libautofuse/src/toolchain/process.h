// Running a program without a shell: an argv vector, stdout and stderr captured together, stdin
// from /dev/null, a timeout after which the program's whole process group is killed.
#pragma once

#include <string>
#include <vector>

namespace af::toolchain {

struct ProcessResult {
  bool started = false;    // false: the program could not be started (see error)
  bool timed_out = false;  // killed after the timeout
  int exit_code = -1;      // exit status; -1 if it did not exit normally
  int signal = 0;          // the terminating signal, 0 if none
  std::string output;      // stdout and stderr, interleaved
  std::string error;       // why it could not be started
};

// Runs argv[0] (a path, or a name looked up on PATH) with the given arguments. `env_overrides`
// are "NAME=value" entries that replace or extend the current environment.
ProcessResult RunProcess(const std::vector<std::string>& argv,
                         const std::vector<std::string>& env_overrides, int timeout_s);

// The absolute path of `name` found on PATH (or `name` itself when it contains a '/' and is an
// executable file); "" when there is none.
std::string FindProgram(const std::string& name);

}  // namespace af::toolchain
