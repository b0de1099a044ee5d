// Runs the afc binary as a user would (a shell command with captured stdout/stderr and no stdin),
// for the CLI tests.
#pragma once

#include <sys/wait.h>

#include <cstdlib>
#include <string>

#include "fixtures.h"

namespace af::test {

struct AfcResult {
  int code = -1;  // exit code; -1 when killed by a signal
  int signal = 0;
  std::string out;
  std::string err;
};

// `s` single-quoted for /bin/sh.
inline std::string Shell(const std::string& s) {
  std::string q = "'";
  for (char c : s)
    q += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return q + "'";
}

// Runs `afc ARGS` (AF_AFC_PATH); ARGS is shell text.
inline AfcResult Afc(const std::string& args) {
  static const auto dir = TempDir("cli");
  const auto out = dir / "stdout";
  const auto err = dir / "stderr";
  const std::string cmd = Shell(AF_AFC_PATH) + " " + args + " >" + Shell(out.string()) + " 2>" +
                          Shell(err.string()) + " </dev/null";
  const int st = std::system(cmd.c_str());
  AfcResult r;
  if (WIFEXITED(st)) {
    r.code = WEXITSTATUS(st);
  } else if (WIFSIGNALED(st)) {
    r.signal = WTERMSIG(st);
  }
  r.out = ReadFile(out);
  r.err = ReadFile(err);
  return r;
}

}  // namespace af::test
