// The quantity calls the format-case tables make, by the names the tables use ("bytes", "count",
// "memory"), for tests/engine/format_cases_test.cpp and quantity_language_test.cpp.
#pragma once

#include <string>

#include "catch_include.hpp"
#include "engine/text/quantity.hpp"

namespace trainscope::testing {

inline std::string formatted(const char* figure_name, double value, int significant_figures) {
    quantity::Figure figure = quantity::Figure::plain;
    REQUIRE(quantity::figure_from_name(figure_name, figure));
    return quantity::format(value, figure, significant_figures);
}

inline std::string tick(const char* figure_name, double value) {
    quantity::Figure figure = quantity::Figure::plain;
    REQUIRE(quantity::figure_from_name(figure_name, figure));
    return quantity::format_tick(value, figure);
}

inline quantity::Reading reading(const char* kind_name, const char* text) {
    quantity::UnitKind kind = quantity::UnitKind::number;
    REQUIRE(quantity::unit_kind_from_name(kind_name, kind));
    return quantity::read_quantity(text, kind);
}

}  // namespace trainscope::testing
