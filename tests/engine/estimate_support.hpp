// Helpers for tests that go through the engine's JSON interface, as the CLI and the page do.
#pragma once

#include <string>
#include <string_view>

#include "catch_include.hpp"
#include "engine/api/api.hpp"
#include "engine/text/json.hpp"

namespace trainscope::testing {

inline json::Value estimate_of(std::string_view scenario) {
    const json::ParseResult parsed = json::parse(estimate_json(scenario));
    REQUIRE(parsed.ok);
    return parsed.value;
}

// A number at a dotted path; fails the test when it is missing or not a number.
inline double number_at(const json::Value& estimate, std::string_view path) {
    const json::Value* value = estimate.find_path(path);
    INFO("path " << std::string(path));
    REQUIRE(value != nullptr);
    REQUIRE(value->kind == json::Kind::number);
    return value->number;
}

inline std::size_t error_count(const json::Value& estimate) { return estimate.find("errors")->items.size(); }

// True when some error names `field`.
inline bool has_error_for(const json::Value& estimate, std::string_view field) {
    for (const auto& error : estimate.find("errors")->items)
        if (error.find("field")->text == field) return true;
    return false;
}

}  // namespace trainscope::testing
