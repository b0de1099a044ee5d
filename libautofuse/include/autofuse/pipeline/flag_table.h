// The one table of flags autofuse takes: every AUTOFUSE_FLAGS / AUTOFUSE_DFX_FLAGS name of
// AutoFuse, the internal configs AutoFuse users set, and ours, each with its value syntax,
// default, range, what it acts on and a one-line doc. The flag checker (CheckFlags), `afc
// --help-flags`, the viewer's flag form and the flag section of docs/cli.md are all made from this
// table, so they cannot disagree (a unit test compares the doc with FlagMarkdown()).
#pragma once

#include <map>
#include <span>
#include <string>
#include <vector>

namespace af::pipeline {

enum class FlagKind {
  kBool,     // true|false (1|0 also taken)
  kInt,      // integer in [lo, hi]
  kNumber,   // decimal number in [lo, hi]
  kPercent,  // AutoFuse's 0..100 percent (decimals taken)
  kChoice,   // one of `choices` ("a|b|c")
  kList,     // comma-separated members of `choices` ("" = any word)
  kText,     // any text
  kPath,     // a file system path
  kCase,     // force_tiling_case's spec: N, N_R or gG_N[_R],...
};

struct FlagSpec {
  const char* name;
  FlagKind kind;
  const char* def;  // the default in the flag's own syntax; "" = none/empty
  double lo;        // kInt / kNumber / kPercent range
  double hi;
  const char* choices;  // kChoice / kList members, "|" separated
  const char* source;   // AUTOFUSE_FLAGS, AUTOFUSE_DFX_FLAGS, internal (AutoFuse config), ours
  const char* acts_on;  // the stage or output the flag changes
  const char* doc;      // what it does, one sentence
  const char* note;     // non-empty: why it does not act here (printed whenever it is set)
  bool form;            // a row in the viewer's flag form
};

// Every flag, in table order (grouped by source).
std::span<const FlagSpec> FlagTable();
const FlagSpec* FindFlag(const std::string& name);
// The closest known names to `name` (edit distance), best first, at most `n`.
std::vector<std::string> ClosestFlags(const std::string& name, std::size_t n = 3);
// The value syntax of a flag, e.g. "true|false", "0..100 (percent)", "AxesReorder|HighPerf".
std::string FlagSyntax(const FlagSpec& f);
// Empty when `value` is valid for `f`, else why not.
std::string FlagValueError(const FlagSpec& f, const std::string& value);

// What CheckFlags found about one flag, with a reason code.
struct FlagDiagnostic {
  enum class Kind { kUnknown, kBadValue, kNote };
  Kind kind = Kind::kNote;
  std::string flag;
  std::string code;  // UNKNOWN_FLAG, BAD_FLAG_VALUE, FLAG_NOT_ACTING
  std::string message;
};

// Checks `flags` against the table as AutoFuse does: an unknown name is dropped (warning naming
// the closest known names), a bad value is dropped so the default applies (warning), a flag that
// does not act here gets a note saying why. What stays in `flags` is valid.
std::vector<FlagDiagnostic> CheckFlags(std::map<std::string, std::string>* flags);

// `afc --help-flags`: the table as text for a terminal.
std::string FlagHelpText();
// The table as the Markdown section of docs/cli.md (between the flags markers).
std::string FlagMarkdown();

// Bool flag value: true for true/1, false for false/0, `def` when unset or empty.
bool FlagBool(const std::map<std::string, std::string>& flags, const char* name, bool def);

}  // namespace af::pipeline
