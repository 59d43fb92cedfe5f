// Issue 33, item 13: the reader takes the question's own phrasing, in English, German and Spanish:
// the noun a question counts in ("3 sequences" for a question in sequences per GPU), a half
// ("half a byte"), a span of magnitudes ("thousands of years", read as its geometric middle), and
// the live reading of a typed answer gives its example in the question's unit.
#include "catch_include.hpp"

#include <cmath>
#include <string>

#include "catalogue_support.hpp"
#include "engine/quiz/quiz.hpp"
#include "engine/text/json.hpp"
#include "engine/text/language.hpp"
#include "engine/text/quantity.hpp"

namespace q = trainscope::quantity;
using trainscope::Language;
using trainscope::LanguageScope;

namespace {

q::Parsed read_as(const std::string& text, const char* unit) {
    q::Unit asked;
    REQUIRE(q::find_unit(unit, asked));
    return q::parse(text, asked);
}

void check_reads(const std::string& text, const char* unit, double value) {
    INFO(text << " in \"" << unit << "\"");
    const q::Parsed parsed = read_as(text, unit);
    REQUIRE(parsed.ok);
    CHECK(std::fabs(parsed.value - value) <= 1e-9 * std::fabs(value));
}

struct Phrasing {
    Language language;
    const char* sequences;  // 3 sequences, per GPU
    const char* half_byte;
    const char* thousands_of_years;
    const char* years;  // the unit word, for the example
};

const Phrasing phrasings[] = {
    {Language::en, "3 sequences per GPU", "half a byte", "thousands of years", "years"},
    {Language::de, "3 Sequenzen pro GPU", "ein halbes Byte", "Tausende Jahre", "Jahre"},
    {Language::es, "3 secuencias por GPU", "medio byte", "miles de a\u00F1os", "a\u00F1os"},
};

const double year = 31557600.0;

}  // namespace

TEST_CASE("the reader takes the question's own phrasing in every language", "[quantity][phrasing]") {
    for (const Phrasing& p : phrasings) {
        LanguageScope scope(p.language);
        if (p.language != Language::en) trainscope::testing::install_engine_catalogues(p.language);
        // A question "in sequences per GPU" is answered in a plain number ("" is its unit).
        check_reads(p.sequences, "", 3);
        check_reads("3 sequences", "", 3);
        check_reads("3", "", 3);
        check_reads(p.half_byte, "bytes", 0.5);
        // "Thousands" spans 10³ to 10⁴: read as √10 × 10³, a factor of √10 from either end.
        const q::Parsed thousands = read_as(p.thousands_of_years, "years");
        REQUIRE(thousands.ok);
        CHECK(thousands.value / year == Approx(3160).epsilon(0.001));
        CHECK(thousands.kind == q::UnitKind::time);
    }
}

TEST_CASE("hundreds and millions of a unit read as their spans' middles", "[quantity][phrasing]") {
    check_reads("hundreds of GB", "GB", 316e9);
    check_reads("millions of GPUs", "GPUs", 3.16e6);
    check_reads("about thousands of years", "years", 3160 * year);
    // A half alone is still a number word.
    check_reads("half", "", 0.5);
}

TEST_CASE("a live reading's example is in the question's unit, as the grade's is", "[quantity][phrasing][quiz]") {
    for (const Phrasing& p : phrasings) {
        LanguageScope scope(p.language);
        if (p.language != Language::en) trainscope::testing::install_engine_catalogues(p.language);
        INFO(static_cast<int>(p.language));
        const auto reading = trainscope::json::parse(trainscope::quiz_read_quantity_json("lots", "years"));
        REQUIRE(reading.ok);
        const std::string error = reading.value.find("error")->text;
        // Before: "That is not a number: type digits, for example 1.1 TB / 3.6e25." under a years question.
        CHECK(error.find("TB") == std::string::npos);
        CHECK(error.find(p.years) != std::string::npos);
        // And "3 sequences" reads for a question asked in a plain number.
        const auto count = trainscope::json::parse(trainscope::quiz_read_quantity_json(p.sequences, ""));
        REQUIRE(count.ok);
        CHECK(count.value.find("ok")->boolean);
        CHECK(count.value.find("value")->number == 3);
    }
}
