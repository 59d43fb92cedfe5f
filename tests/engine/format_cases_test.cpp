// The shared table of expected outputs (format_cases.inc), checked natively and in wasm. The same
// table is checked through the wasm module the page loads by tests/web/engine-format.test.mjs.
#include "catch_include.hpp"

#include <cmath>
#include <string>

#include "engine/text/quantity.hpp"
#include "format_support.hpp"

namespace q = trainscope::quantity;

namespace {

using trainscope::testing::formatted;
using trainscope::testing::reading;
using trainscope::testing::tick;

}  // namespace

TEST_CASE("every figure in the shared table is written as the table says", "[quantity][format]"){
#define FORMAT_CASE(figure, value, significant, expected)                      \
    {                                                                          \
        INFO(figure << " " << #value);                                         \
        CHECK(formatted(figure, value, significant) == std::string(expected)); \
    }
#define TICK_CASE(figure, value, expected)
#define READ_CASE(kind, text, value)
#define READ_ERROR(kind, text, words)
#include "format_cases.inc"
#undef FORMAT_CASE
#undef TICK_CASE
#undef READ_CASE
#undef READ_ERROR
}

TEST_CASE("every axis tick in the shared table is written as the table says", "[quantity][format]"){
#define FORMAT_CASE(figure, value, significant, expected)
#define TICK_CASE(figure, value, expected)                   \
    {                                                        \
        INFO(figure << " " << #value);                       \
        CHECK(tick(figure, value) == std::string(expected)); \
    }
#define READ_CASE(kind, text, value)
#define READ_ERROR(kind, text, words)
#include "format_cases.inc"
#undef FORMAT_CASE
#undef TICK_CASE
#undef READ_CASE
#undef READ_ERROR
}

TEST_CASE("every typed text in the shared table reads as the value it gives", "[quantity][read]"){
#define FORMAT_CASE(figure, value, significant, expected)
#define TICK_CASE(figure, value, expected)
#define READ_CASE(kind, text, expected_value)                    \
    {                                                            \
        const q::Reading r = reading(kind, text);                \
        INFO(kind << " '" << text << "': " << r.error);          \
        CHECK(r.ok);                                             \
        CHECK(r.value == Approx(expected_value).epsilon(1e-12)); \
    }
#define READ_ERROR(kind, text, words)
#include "format_cases.inc"
#undef FORMAT_CASE
#undef TICK_CASE
#undef READ_CASE
#undef READ_ERROR
}

TEST_CASE("every refused text in the shared table gets a message with the table's words", "[quantity][read]"){
#define FORMAT_CASE(figure, value, significant, expected)
#define TICK_CASE(figure, value, expected)
#define READ_CASE(kind, text, value)
#define READ_ERROR(kind, text, words)                    \
    {                                                    \
        const q::Reading r = reading(kind, text);        \
        INFO(kind << " '" << text << "': " << r.error);  \
        CHECK_FALSE(r.ok);                               \
        CHECK(r.error.find(words) != std::string::npos); \
    }
#include "format_cases.inc"
#undef FORMAT_CASE
#undef TICK_CASE
#undef READ_CASE
#undef READ_ERROR
}

TEST_CASE("a log time axis is marked in calendar units, then powers of ten of years", "[quantity][format]") {
    const auto marks = q::time_axis_marks();
    REQUIRE(marks.size() == 15);
    CHECK(marks.front().label == "1 second");
    CHECK(marks[4].label == "1 week");
    CHECK(marks[5].label == "1 month");
    CHECK(marks[5].seconds == Approx(365.25 * 86400 / 12));
    CHECK(marks[6].label == "1 year");
    CHECK(marks[9].label == "1,000 years");
    CHECK(marks.back().label == "100 million years");
    for (std::size_t i = 1; i < marks.size(); ++i) CHECK(marks[i].seconds > marks[i - 1].seconds);
}
