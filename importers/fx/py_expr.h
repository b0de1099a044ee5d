// Python expressions as FX prints them, parsed without evaluation: names (dotted), numbers,
// strings, lists, tuples, dicts, calls with keyword arguments, subscripts, unary and binary
// operators. Private to the FX importer.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "py_lexer.h"

namespace af::importers::fx {

struct PyKwarg;

struct PyExpr {
  enum class Kind {
    kName,       // text: "x", "torch.float32", "self._tensor_constant0" (dotted)
    kInt,        // text; `i` when it fits in int64 (`big` otherwise)
    kFloat,      // text; `f`
    kString,     // text: decoded contents
    kList,       // items
    kTuple,      // items
    kDict,       // items: key, value, key, value, ...
    kCall,       // text: dotted callee; items: positional; kwargs
    kSubscript,  // items: [base, index]
    kUnary,      // text: "-", "+", "~", "not"; items: [operand]
    kBinary,     // text: the operator; items: [lhs, rhs]
  };
  Kind kind = Kind::kName;
  std::string text;
  std::int64_t i = 0;
  bool big = false;
  double f = 0.0;
  std::vector<PyExpr> items;
  std::vector<PyKwarg> kwargs;  // name=value arguments of a call, in order
  std::size_t begin = 0;        // byte offsets in the statement text
  std::size_t end = 0;
};

// One keyword argument of a call (a named struct rather than std::pair so that PyExpr may hold a
// vector of them while still incomplete, which libstdc++'s pair does not allow under clang).
struct PyKwarg {
  std::string name;
  PyExpr value;
};

// Parses one expression from toks[pos...]; advances pos past it. Throws LexError.
PyExpr ParseExpr(const std::vector<Token>& toks, std::size_t& pos);

// Parses `text` as exactly one expression. Throws LexError.
PyExpr ParseWholeExpr(std::string_view text);

}  // namespace af::importers::fx
