// A recursive-descent parser for the Python expressions of FX statements.
#include "py_expr.h"

#include <cerrno>
#include <cmath>
#include <cstdlib>

namespace af::importers::fx {
namespace {

constexpr int kMaxDepth = 500;

class Parser {
 public:
  Parser(const std::vector<Token>& toks, std::size_t& pos) : t_(toks), pos_(pos) {}

  PyExpr Expr() { return Comparison(); }

 private:
  const Token& Peek() const { return t_[pos_]; }
  bool IsOp(std::string_view op) const {
    return Peek().kind == Token::Kind::kOp && Peek().text == op;
  }
  const Token& Next() {
    const Token& t = t_[pos_];
    if (t.kind != Token::Kind::kEnd) ++pos_;
    return t;
  }
  [[noreturn]] void Error(const std::string& msg) const { throw LexError{msg, Peek().begin}; }
  void Expect(std::string_view op) {
    if (!IsOp(op)) {
      Error("expected '" + std::string(op) + "'" +
            (Peek().kind == Token::Kind::kEnd ? " before the end of the line"
                                              : " before '" + Peek().text + "'"));
    }
    Next();
  }

  struct DepthGuard {
    explicit DepthGuard(Parser& p) : p_(p) {
      if (++p_.depth_ > kMaxDepth) p_.Error("expression nested too deeply");
    }
    ~DepthGuard() { --p_.depth_; }
    Parser& p_;
  };

  PyExpr Binary(std::string op, PyExpr lhs, PyExpr rhs) {
    PyExpr e;
    e.kind = PyExpr::Kind::kBinary;
    e.text = std::move(op);
    e.begin = lhs.begin;
    e.end = rhs.end;
    e.items.push_back(std::move(lhs));
    e.items.push_back(std::move(rhs));
    return e;
  }

  PyExpr Comparison() {
    DepthGuard g(*this);
    PyExpr lhs = Arith();
    while (IsOp("<") || IsOp(">") || IsOp("==") || IsOp("!=") || IsOp("<=") || IsOp(">=") ||
           IsOp("&") || IsOp("|") || IsOp("^")) {
      std::string op = Next().text;
      lhs = Binary(std::move(op), std::move(lhs), Arith());
    }
    return lhs;
  }

  PyExpr Arith() {
    DepthGuard g(*this);
    PyExpr lhs = Term();
    while (IsOp("+") || IsOp("-") || IsOp("<<") || IsOp(">>")) {
      std::string op = Next().text;
      lhs = Binary(std::move(op), std::move(lhs), Term());
    }
    return lhs;
  }

  PyExpr Term() {
    DepthGuard g(*this);
    PyExpr lhs = Factor();
    while (IsOp("*") || IsOp("/") || IsOp("//") || IsOp("%") || IsOp("@")) {
      std::string op = Next().text;
      lhs = Binary(std::move(op), std::move(lhs), Factor());
    }
    return lhs;
  }

  PyExpr Factor() {
    DepthGuard g(*this);
    if (IsOp("-") || IsOp("+") || IsOp("~") ||
        (Peek().kind == Token::Kind::kName && Peek().text == "not")) {
      const Token& op = Next();
      PyExpr e;
      e.kind = PyExpr::Kind::kUnary;
      e.text = op.text;
      e.begin = op.begin;
      e.items.push_back(Factor());
      e.end = e.items.back().end;
      return e;
    }
    PyExpr base = Postfix();
    if (IsOp("**")) {
      Next();
      return Binary("**", std::move(base), Factor());
    }
    return base;
  }

  PyExpr Postfix() {
    PyExpr e = Atom();
    while (true) {
      if (IsOp(".")) {
        Next();
        if (Peek().kind != Token::Kind::kName) Error("expected a name after '.'");
        if (e.kind != PyExpr::Kind::kName) Error("attribute access is only supported on names");
        e.text += "." + Next().text;
        e.end = t_[pos_ - 1].end;
      } else if (IsOp("(")) {
        if (e.kind != PyExpr::Kind::kName) Error("only named functions can be called");
        Next();
        PyExpr call;
        call.kind = PyExpr::Kind::kCall;
        call.text = e.text;
        call.begin = e.begin;
        while (!IsOp(")")) {
          if (Peek().kind == Token::Kind::kName && t_[pos_ + 1].kind == Token::Kind::kOp &&
              t_[pos_ + 1].text == "=") {
            std::string key = Next().text;
            Next();
            call.kwargs.push_back(PyKwarg{std::move(key), Expr()});
          } else {
            if (!call.kwargs.empty()) Error("positional argument after a keyword argument");
            call.items.push_back(Expr());
          }
          if (!IsOp(",")) break;
          Next();
        }
        call.end = Peek().end;
        Expect(")");
        e = std::move(call);
      } else if (IsOp("[")) {
        Next();
        PyExpr sub;
        sub.kind = PyExpr::Kind::kSubscript;
        sub.begin = e.begin;
        sub.items.push_back(std::move(e));
        sub.items.push_back(Expr());
        sub.end = Peek().end;
        Expect("]");
        e = std::move(sub);
      } else {
        return e;
      }
    }
  }

  // Items up to `close`; returns whether a trailing comma was seen after the last item.
  bool Items(std::string_view close, std::vector<PyExpr>& items) {
    bool trailing_comma = false;
    while (!IsOp(close)) {
      items.push_back(Expr());
      trailing_comma = false;
      if (!IsOp(",")) break;
      Next();
      trailing_comma = true;
    }
    Expect(close);
    return trailing_comma;
  }

  PyExpr Atom() {
    DepthGuard g(*this);
    const Token& t = Peek();
    PyExpr e;
    e.begin = t.begin;
    switch (t.kind) {
      case Token::Kind::kName:
        e.kind = PyExpr::Kind::kName;
        e.text = Next().text;
        e.end = t.end;
        return e;
      case Token::Kind::kInt: {
        e.kind = PyExpr::Kind::kInt;
        e.text = Next().text;
        e.end = t.end;
        errno = 0;
        char* endp = nullptr;
        const long long v = std::strtoll(e.text.c_str(), &endp, 10);
        e.big = errno == ERANGE;
        e.i = v;
        if (e.text.size() > 1 && e.text[0] == '0') {
          // Python 3 has no octal literal without 0o; treat 00 as 0 and anything else as bad.
          if (e.text.find_first_not_of('0') != std::string::npos) Error("malformed integer");
        }
        return e;
      }
      case Token::Kind::kFloat:
        e.kind = PyExpr::Kind::kFloat;
        e.text = Next().text;
        e.end = t.end;
        e.f = std::strtod(e.text.c_str(), nullptr);
        return e;
      case Token::Kind::kString:
        e.kind = PyExpr::Kind::kString;
        e.text = Next().text;
        e.end = t.end;
        // Adjacent string literals concatenate.
        while (Peek().kind == Token::Kind::kString) {
          e.text += Peek().text;
          e.end = Next().end;
        }
        return e;
      case Token::Kind::kOp:
        break;
      case Token::Kind::kEnd:
        Error("expected an expression before the end of the line");
    }
    if (IsOp("(")) {
      Next();
      std::vector<PyExpr> items;
      const bool trailing = Items(")", items);
      e.end = t_[pos_ - 1].end;
      if (items.size() == 1 && !trailing) {
        PyExpr inner = std::move(items[0]);
        inner.begin = e.begin;
        inner.end = e.end;
        return inner;
      }
      e.kind = PyExpr::Kind::kTuple;
      e.items = std::move(items);
      return e;
    }
    if (IsOp("[")) {
      Next();
      e.kind = PyExpr::Kind::kList;
      Items("]", e.items);
      e.end = t_[pos_ - 1].end;
      return e;
    }
    if (IsOp("{")) {
      Next();
      e.kind = PyExpr::Kind::kDict;
      while (!IsOp("}")) {
        e.items.push_back(Expr());
        Expect(":");
        e.items.push_back(Expr());
        if (!IsOp(",")) break;
        Next();
      }
      Expect("}");
      e.end = t_[pos_ - 1].end;
      return e;
    }
    Error("unexpected '" + t.text + "'");
  }

  const std::vector<Token>& t_;
  std::size_t& pos_;
  int depth_ = 0;
};

}  // namespace

PyExpr ParseExpr(const std::vector<Token>& toks, std::size_t& pos) {
  Parser p(toks, pos);
  return p.Expr();
}

PyExpr ParseWholeExpr(std::string_view text) {
  const std::vector<Token> toks = Tokenize(text);
  std::size_t pos = 0;
  PyExpr e = ParseExpr(toks, pos);
  if (toks[pos].kind != Token::Kind::kEnd) {
    throw LexError{"unexpected '" + toks[pos].text + "' after the expression", toks[pos].begin};
  }
  return e;
}

}  // namespace af::importers::fx
