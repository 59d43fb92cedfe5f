// Numbers in German and Spanish: the engine writes and reads every quantity in the current
// language (docs/i18n.md, "Numbers and units"; docs/numbers.md). The expected texts are the
// tables format_cases_de.inc and format_cases_es.inc (CLDR de and es); English is checked,
// unchanged, by format_cases_test.cpp and quantity_test.cpp.
#include "catch_include.hpp"

#include <cmath>
#include <fstream>
#include <sstream>
#include <string>

#include "catalogue_support.hpp"
#include "engine/text/language.hpp"
#include "engine/text/messages.hpp"
#include "engine/text/quantity.hpp"
#include "format_support.hpp"

namespace q = trainscope::quantity;
using trainscope::Language;
using trainscope::LanguageScope;

namespace {

// The reader's sentences for `language`, as the page's language pack hands them over.
void load_quantity_messages(Language language) { trainscope::testing::install_engine_catalogues(language); }

using trainscope::testing::formatted;
using trainscope::testing::reading;
using trainscope::testing::tick;

}  // namespace

// One table, four checks: each case as written, as a tick, as read, as refused.
#define FORMAT_CASE(figure, value, significant, expected)                      \
    {                                                                          \
        INFO(figure << " " << #value);                                         \
        CHECK(formatted(figure, value, significant) == std::string(expected)); \
    }
#define TICK_CASE(figure, value, expected)                   \
    {                                                        \
        INFO("tick " << figure << " " << #value);            \
        CHECK(tick(figure, value) == std::string(expected)); \
    }
#define READ_CASE(kind, text, expected_value)                    \
    {                                                            \
        const q::Reading r = reading(kind, text);                \
        INFO(kind << " '" << text << "': " << r.error);          \
        CHECK(r.ok);                                             \
        CHECK(r.value == Approx(expected_value).epsilon(1e-12)); \
    }
#define READ_ERROR(kind, text, words)                    \
    {                                                    \
        const q::Reading r = reading(kind, text);        \
        INFO(kind << " '" << text << "': " << r.error);  \
        CHECK_FALSE(r.ok);                               \
        CHECK(r.error.find(words) != std::string::npos); \
    }

TEST_CASE("in German every figure, tick and typed text of the German table is written and read as it says",
          "[quantity][i18n]") {
    load_quantity_messages(Language::de);
    LanguageScope german(Language::de);
#include "format_cases_de.inc"
}

TEST_CASE("in Spanish every figure, tick and typed text of the Spanish table is written and read as it says",
          "[quantity][i18n]") {
    load_quantity_messages(Language::es);
    LanguageScope spanish(Language::es);
#include "format_cases_es.inc"
}

#undef FORMAT_CASE
#undef TICK_CASE
#undef READ_CASE
#undef READ_ERROR

TEST_CASE("a log time axis is marked in each language's calendar words", "[quantity][i18n]") {
    {
        LanguageScope german(Language::de);
        const auto marks = q::time_axis_marks();
        REQUIRE(marks.size() == 15);
        CHECK(marks[0].label == "1 Sekunde");
        CHECK(marks[3].label == "1 Tag");
        CHECK(marks[4].label == "1 Woche");
        CHECK(marks[5].label == "1 Monat");
        CHECK(marks[6].label == "1 Jahr");
        CHECK(marks[9].label == "1.000 Jahre");
        CHECK(marks[12].label == "1 Million Jahre");
        CHECK(marks.back().label == "100 Millionen Jahre");
    }
    {
        LanguageScope spanish(Language::es);
        const auto marks = q::time_axis_marks();
        REQUIRE(marks.size() == 15);
        CHECK(marks[0].label == "1 segundo");
        CHECK(marks[3].label == "1 d\u00EDa");
        CHECK(marks[5].label == "1 mes");
        CHECK(marks[9].label == "1000 a\u00F1os");
        CHECK(marks[10].label == "10.000 a\u00F1os");
        CHECK(marks[12].label == "1 mill\u00F3n de a\u00F1os");
        CHECK(marks.back().label == "100 millones de a\u00F1os");
    }
    // The seconds are the same in every language: only the words change.
    const auto english = q::time_axis_marks();
    LanguageScope german(Language::de);
    const auto marks = q::time_axis_marks();
    for (std::size_t i = 0; i < marks.size(); ++i) CHECK(marks[i].seconds == english[i].seconds);
}

namespace {

struct ReadableFigure {
    const char* figure;
    q::UnitKind kind;  // the field a learner would type the written figure into
};

// Every figure a learner can type back (energy and money are only ever shown).
const ReadableFigure readable_figures[] = {
    {"count", q::UnitKind::number},  {"count_short", q::UnitKind::number}, {"integer", q::UnitKind::number},
    {"plain", q::UnitKind::number},  {"scientific", q::UnitKind::number},  {"ratio", q::UnitKind::number},
    {"bytes", q::UnitKind::memory},  {"flops", q::UnitKind::compute},      {"flop_rate", q::UnitKind::rate},
    {"duration", q::UnitKind::time}, {"gpus", q::UnitKind::gpus},          {"percent", q::UnitKind::percent},
};

// Values around every boundary the writer has: rounding carries (999.95 → "1.000"), grouping
// from four or five digits, scale words, units, the scientific forms, signs and zero.
const double round_trip_values[] = {
    0,         1,       -1,       0.5,    0.0123, 0.123,  1.5,    8.25,      42,       90,    123.456,       999.6,
    999.95,    1000,    1638,     1638.4, 16384,  123456, 999999, 1234567.4, 999.96e6, 13e9,  70.55e9,       2.5e12,
    1.1288e12, 5875200, 34560000, -13e9,  3.8e25, 989e12, 1e15,   1.5e16,    -2.5e-7,  -1500, 31557600000000};

// The reading of the written text is the value to the precision shown: half a unit in the last
// significant figure, relative to the value (or half a unit for whole numbers).
void check_round_trip(double value, const ReadableFigure& readable, const std::string& written,
                      int significant_figures) {
    if (written == "\u2013") return;  // not a number (a negative duration): nothing to read
    const q::Reading read = q::read_quantity(written, readable.kind);
    INFO(trainscope::language_tag(trainscope::current_language())
         << " " << readable.figure << " " << value << " written '" << written << "': " << read.error);
    REQUIRE(read.ok);
    const double tolerance = std::string(readable.figure) == "integer"
                                 ? 0.5 + 1e-9
                                 : 5.0001 * std::pow(10.0, -significant_figures) * std::fabs(value);
    CHECK(std::fabs(read.value - value) <= tolerance);
}

}  // namespace

TEST_CASE("in every language every written figure reads back as its value, to the precision shown",
          "[quantity][i18n][round_trip]") {
    for (const Language language : {Language::en, Language::de, Language::es}) {
        LanguageScope scope(language);
        for (const ReadableFigure& readable : readable_figures) {
            q::Figure figure = q::Figure::plain;
            REQUIRE(q::figure_from_name(readable.figure, figure));
            for (const double value : round_trip_values) {
                for (const int significant_figures : {2, 3, 4, 6}) {
                    check_round_trip(value, readable, q::format(value, figure, significant_figures),
                                     significant_figures);
                }
                // Ticks: six figures, calendar units for whole weeks and months.
                if (value != 0.0) check_round_trip(value, readable, q::format_tick(value, figure), 6);
            }
        }
    }
}

TEST_CASE("every English spelling of a unit reads the same in German and Spanish", "[quantity][i18n]") {
    const char* const english_texts[] = {"68 days",
                                         "5 hrs",
                                         "3 wk",
                                         "2 months",
                                         "1 yr",
                                         "42 s",
                                         "16 GPUs",
                                         "80 GiB",
                                         "1 TB",
                                         "3e25 FLOPs",
                                         "989 TFLOP/s",
                                         "40 percent",
                                         "70bn",
                                         "16k",
                                         "7 million",
                                         "70B parameters",
                                         "2 tn",
                                         "10^25",
                                         "about 1 TB",
                                         "16 bytes per parameter",
                                         "3.6 \u00D7 10^25 FLOPs",
                                         "1e-3",
                                         "~5 PB"};
    for (const char* text : english_texts) {
        const q::Parsed english = q::parse(text, q::UnitKind::number);
        REQUIRE(english.ok);
        for (const Language language : {Language::de, Language::es}) {
            LanguageScope scope(language);
            const q::Parsed translated = q::parse(text, q::UnitKind::number);
            INFO(trainscope::language_tag(language) << " '" << text << "': " << translated.error);
            REQUIRE(translated.ok);
            CHECK(translated.value == english.value);
            CHECK(translated.kind == english.kind);
        }
    }
}

TEST_CASE("in German and Spanish a comma is the decimal mark and a point groups thousands", "[quantity][i18n]") {
    for (const Language language : {Language::de, Language::es}) {
        LanguageScope scope(language);
        INFO(trainscope::language_tag(language));
        CHECK(q::parse("1,5 TB").value == Approx(1.5e12));
        CHECK_FALSE(q::parse("1,5 TB").has_alternative);
        // "1.500 GB" is 1,500 GB; the English reading, 1.5 GB, is the other one (the quiz may accept it).
        const q::Parsed grouped = q::parse("1.500 GB");
        CHECK(grouped.value == Approx(1.5e12));
        REQUIRE(grouped.has_alternative);
        CHECK(grouped.alternative_value == Approx(1.5e9));
        // A comma before three digits is a decimal comma here; 1,120 the English way is the other reading.
        const q::Parsed decimal = q::parse("1,120 GB");
        CHECK(decimal.value == Approx(1.12e9));
        REQUIRE(decimal.has_alternative);
        CHECK(decimal.alternative_value == Approx(1.12e12));
        // A point that cannot group thousands is still a decimal point.
        CHECK(q::parse("1.5 TB").value == Approx(1.5e12));
        CHECK(q::parse("16.384 GPUs").value == Approx(16384));
        CHECK(q::parse("16\u202F384 GPUs").value == Approx(16384));
        CHECK(q::parse("1.234.567,5").value == Approx(1234567.5));
    }
}

TEST_CASE("English keeps reading a comma before three digits as thousands, in every other language's absence",
          "[quantity][i18n]") {
    const q::Parsed parsed = q::parse("1,120 GB");
    CHECK(parsed.value == Approx(1.12e12));
    REQUIRE(parsed.has_alternative);
    CHECK(parsed.alternative_value == Approx(1.12e9));
    CHECK(q::parse("1,5 TB").value == Approx(1.5e12));
}

TEST_CASE("a German Billion is a million million, the English billion stays in English", "[quantity][i18n]") {
    CHECK(q::parse("2 billion").value == Approx(2e9));
    {
        LanguageScope german(Language::de);
        // The learner's language decides a word both languages spell alike (the long scale).
        CHECK(q::parse("2 Billion").value == Approx(2e12));
        CHECK(q::parse("2 Billionen").value == Approx(2e12));
        CHECK(q::parse("2 Milliarden").value == Approx(2e9));
        CHECK(q::parse("2 bn").value == Approx(2e9));
    }
    LanguageScope spanish(Language::es);
    CHECK(q::parse("2 billones").value == Approx(2e12));
    CHECK(q::parse("2 billion").value == Approx(2e9));
}

TEST_CASE("the field's kind is named in the learner's language, English without a catalogue", "[quantity][i18n]") {
    CHECK(q::unit_kind_phrase(q::UnitKind::memory) == "an amount of memory");
    load_quantity_messages(Language::de);
    LanguageScope german(Language::de);
    CHECK(q::unit_kind_phrase(q::UnitKind::memory) == "eine Speichermenge");
    CHECK(q::read_quantity("3 Tage", q::UnitKind::memory).error ==
          "Das ist eine Zeitangabe; dieses Feld erwartet eine Speichermenge.");
}

TEST_CASE("a unit is named in the sentence's language; symbols stay symbols", "[quantity][i18n]") {
    using trainscope::quantity::find_unit;
    using trainscope::quantity::Unit;
    using trainscope::quantity::unit_name;
    Unit days, terabytes;
    REQUIRE(find_unit("days", days));
    REQUIRE(find_unit("TB", terabytes));
    CHECK(unit_name(days) == "days");
    {
        LanguageScope german(Language::de);
        CHECK(unit_name(days) == "Tage");
        CHECK(unit_name(terabytes) == "TB");
    }
    LanguageScope spanish(Language::es);
    CHECK(unit_name(days) == "d\u00EDas");
}

TEST_CASE("a count slider's spoken value takes the singular at 1 in English, German and Spanish", "[i18n]") {
    // Issue 24, item 18: screen readers heard "1 sequences". CLDR en, de, es: "one" for exactly 1.
    CHECK(q::format(1, q::Figure::sequences) == "1 sequence");
    CHECK(q::format(8, q::Figure::sequences) == "8 sequences");
    CHECK(q::format(1, q::Figure::tokens) == "1 token");
    CHECK(q::format(8192, q::Figure::tokens) == "8,192 tokens");
    CHECK(q::format(1, q::Figure::parameters) == "1 parameter");
    CHECK(q::format(70e9, q::Figure::parameters) == "70 billion parameters");
    {
        LanguageScope german(Language::de);
        CHECK(q::format(1, q::Figure::sequences) == "1 Sequenz");
        CHECK(q::format(2, q::Figure::sequences) == "2 Sequenzen");
        CHECK(q::format(1, q::Figure::tokens) == "1 Token");
        CHECK(q::format(1, q::Figure::parameters) == "1 Parameter");
    }
    LanguageScope spanish(Language::es);
    CHECK(q::format(1, q::Figure::sequences) == "1 secuencia");
    CHECK(q::format(2, q::Figure::sequences) == "2 secuencias");
    CHECK(q::format(1, q::Figure::tokens) == "1 token");
    CHECK(q::format(13e9, q::Figure::tokens) == "13.000 millones de tokens");
    CHECK(q::format(1, q::Figure::parameters) == "1 par\u00E1metro");
}
