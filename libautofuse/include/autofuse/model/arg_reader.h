// Reading a model node's arguments: the one reader that shape inference, lowering and the
// reference evaluator share. An argument is found by position when the call gives it
// positionally, else by keyword; numbers and sizes are read the way every rule reads them.
#pragma once

#include <cstddef>
#include <optional>
#include <string_view>

#include "autofuse/model/graph.h"

namespace af::model {

// Argument `pos` of `n` when given positionally, else the keyword argument `key`; null when
// neither is there.
const Arg* ArgAt(const Node& n, std::size_t pos, std::string_view key);

// The number when `a` is a float or an int (or a bool).
std::optional<double> NumberOf(const Arg& a);

// An integer argument as a size: the constant, or the expression of a SymInt value of `g`;
// nullopt for anything else.
std::optional<sym::Expr> IntExprOf(const Graph& g, const Arg& a);

}  // namespace af::model
