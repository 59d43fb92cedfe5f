// How a learner's typed answer is read: docs/quiz.md, "Reading numbers and units".
#include "catch_include.hpp"

#include <cmath>
#include <string>
#include <vector>

#include "engine/text/language.hpp"
#include "engine/text/quantity.hpp"

using trainscope::quantity::find_unit;
using trainscope::quantity::format_auto;
using trainscope::quantity::format_count;
using trainscope::quantity::format_in_unit;
using trainscope::quantity::format_significant;
using trainscope::quantity::parse;
using trainscope::quantity::Parsed;
using trainscope::quantity::Unit;
using trainscope::quantity::UnitKind;

namespace {
// Decimal prefixes (docs/model.md: memory is shown in decimal GB = 10^9 bytes).
constexpr double giga = 1e9;
constexpr double tera = 1e12;
constexpr double gibi = 1073741824.0;  // 2^30
constexpr double day = 86400.0;
constexpr double julian_year = 365.25 * day;

Parsed must_parse(const std::string& text) {
    const Parsed parsed = parse(text);
    INFO("text: " << text << ", error: " << parsed.error);
    REQUIRE(parsed.ok);
    return parsed;
}
}  // namespace

TEST_CASE("a decimal number with a decimal memory unit is read in bytes", "[quantity]") {
    const Parsed parsed = must_parse("1.1 TB");
    CHECK(parsed.kind == UnitKind::memory);
    CHECK(parsed.has_unit);
    CHECK(parsed.value == Approx(1.1 * tera));
}

TEST_CASE("one terabyte written three ways is the same amount", "[quantity]") {
    const double expected = 1.12 * tera;
    CHECK(must_parse("1.12 TB").value == Approx(expected));
    CHECK(must_parse("1,120 GB").value == Approx(expected));
    CHECK(must_parse("1.12e12 bytes").value == Approx(expected));
}

TEST_CASE("a comma followed by exactly three digits groups thousands, with 1.12 as the other reading", "[quantity]") {
    const Parsed parsed = must_parse("1,120 GB");
    CHECK(parsed.value == Approx(1120 * giga));
    REQUIRE(parsed.has_alternative);
    CHECK(parsed.alternative_value == Approx(1.12 * giga));
}

TEST_CASE("a comma that cannot group thousands is a decimal comma", "[quantity]") {
    CHECK(must_parse("1,5 TB").value == Approx(1.5 * tera));
    CHECK(must_parse("0,120 TB").value == Approx(0.12 * tera));
    CHECK(must_parse("1,1200 TB").value == Approx(1.12 * tera));
    CHECK_FALSE(must_parse("1,5 TB").has_alternative);
}

TEST_CASE("a single dot is a decimal point, with the German thousands reading as the alternative", "[quantity]") {
    const Parsed parsed = must_parse("1.120 GB");
    CHECK(parsed.value == Approx(1.12 * giga));
    REQUIRE(parsed.has_alternative);
    CHECK(parsed.alternative_value == Approx(1120 * giga));
}

TEST_CASE("dots grouping thousands with a decimal comma are read the European way", "[quantity]") {
    CHECK(must_parse("1.120,5 GB").value == Approx(1120.5 * giga));
    CHECK(must_parse("1,120.5 GB").value == Approx(1120.5 * giga));
    CHECK(must_parse("1.000.000 bytes").value == Approx(1e6));
}

TEST_CASE("spaces, thin spaces and apostrophes group thousands", "[quantity]") {
    CHECK(must_parse("1 120 GB").value == Approx(1120 * giga));
    CHECK(must_parse("16\u202F384 GPUs").value == Approx(16384));
    CHECK(must_parse("16\u00A0384 GPUs").value == Approx(16384));
    CHECK(must_parse("1'120 GB").value == Approx(1120 * giga));
    CHECK(must_parse("1 120,5 GB").value == Approx(1120.5 * giga));
}

TEST_CASE("badly grouped digits are not a number", "[quantity]") {
    CHECK_FALSE(parse("1,12,0 GB").ok);
    CHECK_FALSE(parse("1.2.3").ok);
    CHECK_FALSE(parse("1234,567.8").ok);
    CHECK_FALSE(parse("1,2.3,4").ok);
}

TEST_CASE("scientific notation is read in every way a learner writes it", "[quantity]") {
    // Llama 3 405B: about 3.6 × 10^25 FLOPs (the lesson).
    const double expected = 3.6e25;
    CHECK(must_parse("3.6e25").value == Approx(expected));
    CHECK(must_parse("3.6E+25 FLOPs").value == Approx(expected));
    CHECK(must_parse("3.6 \u00D7 10^25").value == Approx(expected));
    CHECK(must_parse("3.6 x 10^25 FLOPs").value == Approx(expected));
    CHECK(must_parse("3.6*10**25").value == Approx(expected));
    CHECK(must_parse("3.6\u00D710\u00B2\u2075").value == Approx(expected));
    CHECK(must_parse("3,6 \u00D7 10^25").value == Approx(expected));
    CHECK(must_parse("10^25 FLOPs").value == Approx(1e25));
}

TEST_CASE("negative exponents, also in superscript, make small numbers", "[quantity]") {
    CHECK(must_parse("4e-1").value == Approx(0.4));
    CHECK(must_parse("4 \u00D7 10\u207B\u00B9").value == Approx(0.4));
}

TEST_CASE("a power of two is read as written", "[quantity]") { CHECK(must_parse("2^30 bytes").value == Approx(gibi)); }

TEST_CASE("memory units are decimal unless written as binary", "[quantity]") {
    CHECK(must_parse("1 KB").value == Approx(1e3));
    CHECK(must_parse("1 MB").value == Approx(1e6));
    CHECK(must_parse("1 GB").value == Approx(giga));
    CHECK(must_parse("1 PB").value == Approx(1e15));
    CHECK(must_parse("16 bytes").value == Approx(16));
    CHECK(must_parse("16 B").value == Approx(16));
    const Parsed binary = must_parse("1 GiB");
    CHECK(binary.value == Approx(gibi));
    CHECK(binary.unit.binary);
    CHECK_FALSE(must_parse("1 GB").unit.binary);
}

TEST_CASE("units are case-insensitive and may be spelled out", "[quantity]") {
    CHECK(must_parse("1.1 tb").value == Approx(1.1 * tera));
    CHECK(must_parse("1.1 terabytes").value == Approx(1.1 * tera));
    CHECK(must_parse("141 gigabytes").value == Approx(141 * giga));
}

TEST_CASE("a trailing 'per parameter' is allowed after bytes", "[quantity]") {
    // ZeRO §3.1: 16 bytes per parameter for mixed-precision Adam.
    CHECK(must_parse("16 bytes per parameter").value == Approx(16));
    CHECK(must_parse("16 B/param").value == Approx(16));
    CHECK(must_parse("16 bytes/param").kind == UnitKind::memory);
}

TEST_CASE("FLOP counts take SI prefixes and FLOP/s is a rate", "[quantity]") {
    const Parsed count = must_parse("36 YFLOPs");
    CHECK(count.kind == UnitKind::compute);
    CHECK(count.value == Approx(36e24));
    CHECK(must_parse("3.6e25 FLOP").kind == UnitKind::compute);
    CHECK(must_parse("3.6e25 flops").kind == UnitKind::compute);
    // H100 SXM dense BF16 peak: 989 TFLOP/s (NVIDIA datasheet).
    const Parsed rate = must_parse("989 TFLOP/s");
    CHECK(rate.kind == UnitKind::rate);
    CHECK(rate.value == Approx(989e12));
}

TEST_CASE("times are read in seconds, a year being 365.25 days", "[quantity]") {
    CHECK(must_parse("90 s").value == Approx(90));
    CHECK(must_parse("2 min").value == Approx(120));
    CHECK(must_parse("3 hours").value == Approx(3 * 3600.0));
    CHECK(must_parse("68 days").value == Approx(68 * day));
    CHECK(must_parse("2 weeks").value == Approx(14 * day));
    CHECK(must_parse("3,000 years").value == Approx(3000 * julian_year));
    CHECK(must_parse("1 yr").kind == UnitKind::time);
}

TEST_CASE("GPU counts accept words and k for thousands", "[quantity]") {
    // Meta trained Llama 3 405B on up to 16,384 H100s (Llama 3 Herd of Models, 2024).
    CHECK(must_parse("16,384 GPUs").value == Approx(16384));
    CHECK(must_parse("16k GPUs").value == Approx(16000));
    CHECK(must_parse("2 GPU").kind == UnitKind::gpus);
}

TEST_CASE("number words scale the number before the unit", "[quantity]") {
    CHECK(must_parse("13 billion").value == Approx(13e9));
    CHECK(must_parse("2 trillion").value == Approx(2e12));
    CHECK(must_parse("1.5 thousand GB").value == Approx(1500 * giga));
}

TEST_CASE("a percentage is read as a fraction", "[quantity]") {
    const Parsed parsed = must_parse("40%");
    CHECK(parsed.kind == UnitKind::percent);
    CHECK(parsed.value == Approx(0.4));
    CHECK(must_parse("33 percent").value == Approx(0.33));
}

TEST_CASE("a ratio may be written with x or times", "[quantity]") {
    CHECK(must_parse("8x").value == Approx(8));
    CHECK(must_parse("8 \u00D7").kind == UnitKind::number);
    CHECK(must_parse("8 times").kind == UnitKind::number);
}

TEST_CASE("a bare number has no unit and keeps its value", "[quantity]") {
    const Parsed parsed = must_parse("16");
    CHECK_FALSE(parsed.has_unit);
    CHECK(parsed.kind == UnitKind::number);
    CHECK(parsed.value == Approx(16));
}

TEST_CASE("hedges and signs around the number are accepted", "[quantity]") {
    CHECK(must_parse("~1 TB").value == Approx(tera));
    CHECK(must_parse("\u2248 1 TB").value == Approx(tera));
    CHECK(must_parse("about 1 TB").value == Approx(tera));
    CHECK(must_parse("  1.1   TB  ").value == Approx(1.1 * tera));
    CHECK(must_parse("\u22125 GB").value == Approx(-5 * giga));
    CHECK(must_parse("+5 GB").value == Approx(5 * giga));
    CHECK(must_parse(".5 TB").value == Approx(0.5 * tera));
}

TEST_CASE("empty and blank answers are not numbers, with a hint", "[quantity][hostile]") {
    CHECK_FALSE(parse("").ok);
    CHECK_FALSE(parse("   ").ok);
    CHECK_FALSE(parse("").error.empty());
}

TEST_CASE("NaN and infinity are refused as not finite", "[quantity][hostile]") {
    for (const char* text : {"NaN", "nan", "inf", "-inf", "Infinity", "\u221E"}) {
        const Parsed parsed = parse(text);
        INFO(text);
        CHECK_FALSE(parsed.ok);
        CHECK(parsed.error.find("finite") != std::string::npos);
    }
}

TEST_CASE("numbers beyond double range are refused, never infinite", "[quantity][hostile]") {
    CHECK_FALSE(parse("1e999").ok);
    CHECK_FALSE(parse("1e-999").ok);
    CHECK_FALSE(parse("1e308 PB").ok);
    CHECK_FALSE(parse("10^99999999999999999999").ok);
    CHECK_FALSE(parse("9^400").ok);
}

TEST_CASE("ten thousand digits are refused as too long", "[quantity][hostile]") {
    const Parsed parsed = parse(std::string(10000, '9'));
    CHECK_FALSE(parsed.ok);
    CHECK(parsed.error.find("too long") != std::string::npos);
}

TEST_CASE("injection-looking text is not a number and is not echoed back", "[quantity][hostile]") {
    for (const char* text : {"<script>alert(1)</script>", "'; DROP TABLE answers; --", "${7*7}", "{{7*7}}"}) {
        const Parsed parsed = parse(text);
        INFO(text);
        CHECK_FALSE(parsed.ok);
        CHECK(parsed.error.find('<') == std::string::npos);
        CHECK(parsed.error.find("DROP") == std::string::npos);
    }
}

TEST_CASE("a number followed by markup is refused without echoing the markup", "[quantity][hostile]") {
    const Parsed parsed = parse("5 <img src=x onerror=alert(1)>");
    CHECK_FALSE(parsed.ok);
    CHECK(parsed.error.find('<') == std::string::npos);
}

TEST_CASE("a lone unit is not a number", "[quantity][hostile]") {
    CHECK_FALSE(parse("GB").ok);
    CHECK_FALSE(parse("TB").ok);
    CHECK_FALSE(parse("%").ok);
}

TEST_CASE("two numbers in one answer are refused", "[quantity][hostile]") {
    for (const char* text : {"1 2", "1-2 TB", "1 TB or 2 TB", "1.1 TB 2", "3 \u00D7 4"}) {
        const Parsed parsed = parse(text);
        INFO(text);
        CHECK_FALSE(parsed.ok);
        CHECK(parsed.error.find("single number") != std::string::npos);
    }
}

TEST_CASE("an unknown unit is named when it is plain letters", "[quantity]") {
    const Parsed parsed = parse("5 parsecs");
    CHECK_FALSE(parsed.ok);
    CHECK(parsed.error.find("\"parsecs\"") != std::string::npos);
}

TEST_CASE("stray bytes and control characters never crash the reader", "[quantity][hostile]") {
    const std::string junk[] = {std::string("\xff\xfe\x00 1", 5),
                                "\xe2\x88",
                                "1\xe2",
                                "e",
                                "^",
                                "1e",
                                "1e+",
                                "1^",
                                "10^",
                                "1 \u00D7 10^",
                                ",",
                                ".",
                                "'",
                                "1,",
                                "1.",
                                "--1",
                                "~",
                                "about"};
    for (const auto& text : junk) {
        const Parsed parsed = parse(text);
        CHECK((parsed.ok ? std::isfinite(parsed.value) : !parsed.error.empty()));
    }
}

TEST_CASE("units are found by any accepted spelling and unknown ones are refused", "[quantity]") {
    Unit unit;
    REQUIRE(find_unit("days", unit));
    CHECK(unit.kind == UnitKind::time);
    CHECK(unit.factor == Approx(day));
    REQUIRE(find_unit("PFLOPs", unit));
    CHECK(unit.factor == Approx(1e15));
    CHECK_FALSE(find_unit("furlongs", unit));
}

TEST_CASE("values are written with three significant figures and grouped thousands", "[quantity][format]") {
    CHECK(format_significant(1128.8) == "1,130");
    CHECK(format_significant(1.1288) == "1.13");
    CHECK(format_significant(0.0123) == "0.0123");
    CHECK(format_significant(16.0) == "16");
    CHECK(format_significant(1234567.0) == "1,230,000");
    CHECK(format_significant(3.65e25) == "3.65 \u00D7 10\u00B2\u2075");
}

TEST_CASE("values are written in the unit asked for", "[quantity][format]") {
    Unit tb, days, flops, percent;
    REQUIRE(find_unit("TB", tb));
    REQUIRE(find_unit("days", days));
    REQUIRE(find_unit("FLOPs", flops));
    REQUIRE(find_unit("%", percent));
    // 16 bytes × 70.55e9 parameters (ZeRO §3.1; Llama 3 70B) = 1.1288e12 bytes.
    CHECK(format_in_unit(16 * 70.55e9, tb) == "1.13 TB");
    CHECK(format_in_unit(68 * day, days) == "68 days");
    CHECK(format_in_unit(3.8e25, flops) == "3.8 \u00D7 10\u00B2\u2075 FLOPs");
    CHECK(format_in_unit(0.4, percent) == "40%");
}

TEST_CASE("readable units are picked by size", "[quantity][format]") {
    CHECK(format_auto(141.1e9, UnitKind::memory) == "141 GB");
    CHECK(format_auto(1.1288e12, UnitKind::memory) == "1.13 TB");
    CHECK(format_auto(68 * day, UnitKind::time) == "68 days");
    CHECK(format_auto(3000 * julian_year, UnitKind::time) == "3,000 years");
}

TEST_CASE("large counts are written with words", "[quantity][format]") {
    CHECK(format_count(13e9) == "13 billion");
    CHECK(format_count(2e12) == "2 trillion");
    CHECK(format_count(16384) == "16,384");
    CHECK(format_count(8.03e9) == "8.03 billion");
}

TEST_CASE("every formatted value reads back to within half a percent", "[quantity][format]") {
    const char* units[] = {"bytes", "GB", "TB", "GiB", "seconds", "days", "years", "FLOPs", "%", "GPUs", ""};
    const double values[] = {0.0123, 1.0, 16.0, 999.6, 1128.8, 70.55e9, 1.1288e12, 3.65e25, 9.2e10};
    for (const char* spelling : units) {
        Unit unit;
        REQUIRE(find_unit(spelling, unit));
        for (const double value : values) {
            const std::string text = format_in_unit(value, unit);
            const Parsed parsed = parse(text);
            INFO(text);
            REQUIRE(parsed.ok);
            CHECK(parsed.value == Approx(value).epsilon(0.005));
        }
    }
}

// ── Issue 10, item 9: each of these read wrongly or silently before ────────────────────────────

TEST_CASE("a power written after an e exponent is refused rather than applied to the digits", "[quantity]") {
    // 1e5^2 used to read as 100,000 and 2e3^2 as 4,000.
    for (const char* text : {"1e5^2", "2e3^2", "1.5E3**2"}) {
        const Parsed parsed = parse(text);
        INFO(text);
        CHECK_FALSE(parsed.ok);
        CHECK(parsed.error.find("one power") != std::string::npos);
    }
}

TEST_CASE("a number too small for a double is refused, not read as zero", "[quantity]") {
    // 1e-400 used to read as 0 without a word, while 2^-1074 was "too small".
    for (const char* text : {"1e-400", "2^-1074", "1e-310", "3 × 10^-350"}) {
        const Parsed parsed = parse(text);
        INFO(text << ": " << parsed.error);
        CHECK_FALSE(parsed.ok);
        CHECK(parsed.error.find("too small") != std::string::npos);
    }
    CHECK(must_parse("0").value == 0.0);
    CHECK(must_parse("0e-400").value == 0.0);
}

TEST_CASE("trailing spaces do not count towards the length limit", "[quantity]") {
    const std::string padded = "1.88 GB" + std::string(300, ' ');
    CHECK(must_parse(padded).value == Approx(1.88 * giga));
    CHECK(must_parse(std::string(300, ' ') + "1.88 GB\t\n").value == Approx(1.88 * giga));
    CHECK_FALSE(parse(std::string(300, '1')).ok);
}

TEST_CASE("a number word is read as its digits, as docs/quiz.md promises", "[quantity]") {
    // Issue 24: "sixteen" was refused though the docs promise number words.
    CHECK(parse("sixteen").value == 16);
    CHECK(parse("Eight GB").value == Approx(8e9));
    CHECK(parse("about sixteen bytes").value == 16);
    CHECK(parse("two months").value == Approx(2 * 365.25 * 86400 / 12));
    // What has no one word's digits still asks for them.
    CHECK(parse("a million").error == "Please type the number in digits, for example 1000000 or 1e6.");
    CHECK_FALSE(parse("twenty-one").ok);
}

// ── Reading as a kind ──────────────────────────────────────────────────────────────────────────

TEST_CASE("where a count is asked for, B is billion; elsewhere it is bytes", "[quantity]") {
    CHECK(parse("70B", UnitKind::number).value == Approx(70e9));
    CHECK(parse("70B", UnitKind::gpus).value == Approx(70e9));
    const Parsed bytes = parse("70B", UnitKind::memory);
    CHECK(bytes.kind == UnitKind::memory);
    CHECK(bytes.value == Approx(70));
    CHECK(parse("70B").kind == UnitKind::memory);
}

TEST_CASE("a bare number in a percent field is a percentage, as the field shows it", "[quantity]") {
    const trainscope::quantity::Reading reading = trainscope::quantity::read_quantity("45", UnitKind::percent);
    REQUIRE(reading.ok);
    CHECK(reading.value == Approx(0.45));
    CHECK(reading.display == "45%");
}

TEST_CASE("a quantity of another kind is refused with both kinds named", "[quantity]") {
    const trainscope::quantity::Reading reading = trainscope::quantity::read_quantity("68 days", UnitKind::memory);
    CHECK_FALSE(reading.ok);
    CHECK(reading.error == "That is a time; this field takes an amount of memory.");
}

TEST_CASE("no unit spelling reaches anything but the unit table", "[quantity]") {
    for (const char* text : {"5 constructor", "5 __proto__", "5 toString", "5 hasOwnProperty"}) {
        const Parsed parsed = parse(text, UnitKind::number);
        INFO(text);
        CHECK_FALSE(parsed.ok);
        CHECK(parsed.error.find("unit") != std::string::npos);
    }
}

// ── The unit a person would use (issue 24) ─────────────────────────────────────────────────────

namespace {
std::string natural(double base_value, const char* unit_spelling) {
    Unit unit;
    REQUIRE(find_unit(unit_spelling, unit));
    return trainscope::quantity::format_natural(base_value, unit);
}
}  // namespace

TEST_CASE("an answer under one of its unit is written in the unit a person would use", "[quantity][units]") {
    CHECK(natural(256e9, "TB") == "256 GB");
    CHECK(natural(53.1e6, "GB") == "53.1 MB");
    CHECK(natural(15.4 * 3600, "days") == "15.4 hours");
    CHECK(natural(0.12 * 86400, "days") == "2.88 hours");
}

TEST_CASE("an answer that reads well in its unit keeps it", "[quantity][units]") {
    CHECK(natural(1.13e12, "TB") == "1.13 TB");
    CHECK(natural(1.88e9, "GB") == "1.88 GB");
    CHECK(natural(67.8 * 86400, "days") == "67.8 days");
    CHECK(natural(730 * 86400, "days") == "730 days");
    // Years are the largest unit of time: thousands of them stay years (docs/model.md §6).
    CHECK(natural(3040 * 365.25 * 86400, "years") == "3,040 years");
    CHECK(natural(16, "bytes") == "16 bytes");
    CHECK(natural(0.4, "%") == "40%");
}

TEST_CASE("a count is joined to its noun as the language joins them", "[quantity][i18n]") {
    using trainscope::Language;
    using trainscope::LanguageScope;
    CHECK(trainscope::quantity::count_of(406e9, "parameters") == "406 billion parameters");
    LanguageScope spanish(Language::es);
    CHECK(trainscope::quantity::count_of(406e9, "par\u00E1metros") == "406.000 millones de par\u00E1metros");
    CHECK(trainscope::quantity::count_of(16384, "par\u00E1metros") == "16.384 par\u00E1metros");
}

TEST_CASE("a typed field's message gives an example of the field's own kind", "[quantity][units]") {
    // Issue 24: "abc" in the parameter count was told "for example 1.1 TB or 3.6e25".
    const std::string count = trainscope::quantity::read_quantity("abc", UnitKind::number).error;
    INFO(count);
    CHECK(count.find("70 billion") != std::string::npos);
    CHECK(count.find("TB") == std::string::npos);
    CHECK(trainscope::quantity::read_quantity("", UnitKind::time).error == "Type a number, for example 68 days.");
    CHECK(trainscope::quantity::read_quantity("abc", UnitKind::memory).error.find("1.1 TB") != std::string::npos);
}

TEST_CASE("a linear time axis ticks at a clock's round steps, not at 1,000 seconds", "[quantity]") {
    // Issue 24, item 18: a step of about 1 h 10 min had ticks at 16.7 min, 33.3 min and 1.11 h.
    using trainscope::quantity::duration_ticks;
    CHECK(duration_ticks(4200, 5) == std::vector<double>{0, 900, 1800, 2700, 3600});
    CHECK(duration_ticks(4200, 3) == std::vector<double>{0, 1800, 3600});
    CHECK(duration_ticks(100, 5) == std::vector<double>{0, 30, 60, 90});
    CHECK(duration_ticks(9 * 3600, 5) == std::vector<double>{0, 2 * 3600, 4 * 3600, 6 * 3600, 8 * 3600});
    CHECK(duration_ticks(2.5, 5) == std::vector<double>{0, 0.5, 1, 1.5, 2, 2.5});
    CHECK(duration_ticks(0, 5) == std::vector<double>{0});
    CHECK(duration_ticks(std::nan(""), 5) == std::vector<double>{0});
}
