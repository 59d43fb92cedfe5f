#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>

#include "catch_include.hpp"
#include "engine/text/decimal.hpp"

using trainscope::read_decimal;

namespace {

// Bit-for-bit: -0.0 and 0.0 differ, as the engine writes them differently.
bool same_double(double a, double b) { return std::memcmp(&a, &b, sizeof a) == 0; }

void check_as_strtod(const std::string& text) {
    INFO(text);
    CHECK(same_double(read_decimal(text), std::strtod(text.c_str(), nullptr)));
}

// A fixed sequence (xorshift), so a failure names the same text on every run and machine.
struct Sequence {
    std::uint64_t state = 0x9E3779B97F4A7C15ull;
    std::uint64_t next() {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        return state;
    }
    int below(int n) { return static_cast<int>(next() % static_cast<std::uint64_t>(n)); }
};

}  // namespace

TEST_CASE("decimal text reads as strtod reads it: edge cases", "[decimal]") {
    for (const char* text : {"0",
                             "-0",
                             "0.0",
                             "-0.000",
                             "0e999999999",
                             "1",
                             "-1",
                             "9",
                             "10",
                             "123456789",
                             "1234567890",
                             "9007199254740992",
                             "9007199254740993",
                             "9007199254740995",
                             "18014398509481985",
                             "0.1",
                             "0.2",
                             "0.3",
                             "1.1",
                             "3.6e25",
                             "1e6",
                             "1e-3",
                             "6.02214076e23",
                             "1e15",
                             "999999999999999.9",
                             "1.7976931348623157e308",
                             "1.7976931348623158e308",
                             "1.7976931348623159e308",
                             "1e309",
                             "-1e400",
                             "2.2250738585072014e-308",
                             "2.2250738585072011e-308",
                             "4.9406564584124654e-324",
                             "2.4703282292062327e-324",
                             "2.4703282292062328e-324",
                             "1e-324",
                             "1e-400",
                             "-1e-400",
                             "5e-324",
                             "3e-324",
                             "7.4109846876186982e-324",
                             "2.225073858507201136057409796709131975934819546351645648e-308",
                             "0.500000000000000166533453693773481063544750213623046875",
                             "3.0540412816053948e-48",
                             "8.533e+68",
                             "4.1006e-184",
                             "9.998e+307",
                             "9.9538452227e-280",
                             "6.47660115e-260",
                             "7.4e+47",
                             "5.92e+48",
                             "7.35e+66",
                             "8.32116e+55",
                             "1.00000000000000011102230246251565404236316680908203125",
                             "1.00000000000000011102230246251565404236316680908203124",
                             "1.00000000000000011102230246251565404236316680908203126",
                             "1.0000000000000002220446049250313080847263336181640625",
                             "2e0",
                             "2E+2",
                             "2.5e-1",
                             "12.",
                             ".5",
                             "00000000000000000000000001.5",
                             "1.50000000000000000000000000000000000000000000000000000000000000001"}) {
        check_as_strtod(text);
    }
    std::string long_digits = "1.";
    for (int i = 0; i < 1200; ++i) long_digits += static_cast<char>('0' + i % 10);
    check_as_strtod(long_digits);
    check_as_strtod(long_digits + "e-300");
    check_as_strtod("0." + std::string(400, '0') + "123e400");
    check_as_strtod(std::string(400, '9'));
}

TEST_CASE("decimal text reads as strtod reads it: printf's output for random doubles", "[decimal]") {
    Sequence sequence;
    char buffer[64];
    for (int i = 0; i < 20000; ++i) {
        std::uint64_t bits = sequence.next();
        double value = 0;
        std::memcpy(&value, &bits, sizeof value);
        if (!std::isfinite(value)) continue;
        std::snprintf(buffer, sizeof buffer, "%.*e", sequence.below(19), value);
        check_as_strtod(buffer);
    }
}

TEST_CASE("decimal text reads as strtod reads it: random digits and exponents", "[decimal]") {
    Sequence sequence;
    for (int i = 0; i < 20000; ++i) {
        std::string text = sequence.below(4) == 0 ? "-" : "";
        const int digits = 1 + sequence.below(i % 5 == 0 ? 60 : 20);
        const int point = sequence.below(digits + 1);
        for (int d = 0; d < digits; ++d) {
            if (d == point && d > 0) text += '.';
            // Runs of 0 and 9 reach the halfway and carry cases.
            const int pick = sequence.below(10);
            text += static_cast<char>(pick < 3 ? '0' : pick < 6 ? '9' : '0' + sequence.below(10));
        }
        if (sequence.below(3) != 0) text += "e" + std::to_string(sequence.below(700) - 350);
        check_as_strtod(text);
    }
}

namespace {

void check_as_snprintf(double value, char style, int precision) {
    char format[8] = {'%', '.', '*', style, 0};
    char expected[1200];
    std::snprintf(expected, sizeof expected, format, precision, value);
    INFO(format << " " << precision << " of " << expected);
    CHECK(trainscope::write_decimal(value, style, precision) == expected);
}

}  // namespace

TEST_CASE("decimal text is written as snprintf writes it: edge cases", "[decimal]") {
    for (const double value : {0.0,
                               -0.0,
                               0.5,
                               1.5,
                               2.5,
                               -2.5,
                               0.125,
                               0.05,
                               0.15,
                               0.25,
                               0.35,
                               1e-5,
                               9.9999995,
                               999.5,
                               999999.5,
                               1e15,
                               1e16,
                               1e21,
                               1e22,
                               1e23,
                               123456789012345678.0,
                               0.1,
                               1.0 / 3,
                               2.0 / 3,
                               5e-324,
                               2.2250738585072014e-308,
                               1.7976931348623157e308,
                               6.02214076e23,
                               3.6e25,
                               1130.5,
                               16384.0,
                               9.5,
                               0.95,
                               0.0095,
                               99.95,
                               1e-3,
                               9.999999999999999e14}) {
        for (const char style : {'e', 'f', 'g'}) {
            for (int precision = 0; precision <= 20; ++precision) {
                check_as_snprintf(value, style, precision);
                check_as_snprintf(-value, style, precision);
            }
        }
    }
    CHECK(trainscope::write_decimal(HUGE_VAL, 'g', 6) == "inf");
    CHECK(trainscope::write_decimal(-HUGE_VAL, 'e', 3) == "-inf");
    CHECK(trainscope::write_integer(0) == "0");
    CHECK(trainscope::write_integer(-9223372036854775807LL - 1) == "-9223372036854775808");
    CHECK(trainscope::write_integer(9223372036854775807LL) == "9223372036854775807");
}

TEST_CASE("decimal text is written as snprintf writes it: random doubles", "[decimal]") {
    Sequence sequence;
    for (int i = 0; i < 20000; ++i) {
        std::uint64_t bits = sequence.next();
        if (i % 2 == 0)
            bits = (bits & 0x800FFFFFFFFFFFFFull) | (static_cast<std::uint64_t>(900 + sequence.below(250)) << 52);
        double value = 0;
        std::memcpy(&value, &bits, sizeof value);
        if (!std::isfinite(value)) continue;
        const char style = "efg"[sequence.below(3)];
        const int precision = sequence.below(style == 'f' ? 30 : 20);
        check_as_snprintf(value, style, precision);
    }
}
