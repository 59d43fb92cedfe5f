// Helpers for the quiz tests, which read the engine's JSON answers: parse or fail the test, and
// read a text or a number at a dotted path without failing ("<absent>" or NaN when it is not
// there, so a check on it fails with the path's value shown).
#pragma once

#include <cmath>
#include <string>

#include "catch_include.hpp"
#include "engine/text/json.hpp"

namespace trainscope::quiz_testing {

inline json::Value parse_json(const std::string& text) {
    const json::ParseResult parsed = json::parse(text);
    INFO(text);
    REQUIRE(parsed.ok);
    return parsed.value;
}

inline std::string text_at(const json::Value& value, const char* path) {
    const json::Value* found = value.find_path(path);
    return found && found->kind == json::Kind::string ? found->text : std::string("<absent>");
}

inline double number_at(const json::Value& value, const char* path) {
    const json::Value* found = value.find_path(path);
    return found && found->kind == json::Kind::number ? found->number : std::nan("");
}

}  // namespace trainscope::quiz_testing
