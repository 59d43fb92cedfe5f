// A readable breakdown of an estimate, for people at a terminal.
#pragma once

#include <string>

#include "engine/text/json.hpp"

namespace trainscope::cli {

std::string format_table(const json::Value& estimate);

}  // namespace trainscope::cli
