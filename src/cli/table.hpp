// A readable breakdown of an estimate, for people at a terminal.
#pragma once

#include <string>

#include "engine/text/json.hpp"

namespace trainscope::cli {

std::string format_table(const json::Value& estimate);

// The inverse search (fit_json) for people: the largest micro-batch and sequence, the fastest
// layouts, and for a setup that does not fit the changes that make it fit.
std::string format_fit_table(const json::Value& search);

}  // namespace trainscope::cli
