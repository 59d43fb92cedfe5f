#include <string>

#include "catch_include.hpp"
#include "engine/text/language.hpp"
#include "engine/text/messages.hpp"

using trainscope::Language;
using trainscope::LanguageScope;
using trainscope::message;

TEST_CASE("language tags are read by their primary subtag", "[i18n]") {
    Language language = Language::en;
    CHECK(trainscope::language_from_tag("de-AT", language));
    CHECK(language == Language::de);
    CHECK(trainscope::language_from_tag("ES_mx", language));
    CHECK(language == Language::es);
    CHECK(trainscope::language_from_tag("en", language));
    CHECK(language == Language::en);
    CHECK_FALSE(trainscope::language_from_tag("fr-FR", language));
    CHECK_FALSE(trainscope::language_from_tag("deu", language));
    CHECK_FALSE(trainscope::language_from_tag("", language));
}

TEST_CASE("a scope sets the language for its length and restores the one before", "[i18n]") {
    CHECK(trainscope::current_language() == Language::en);
    {
        LanguageScope german(Language::de);
        CHECK(trainscope::current_language() == Language::de);
        {
            LanguageScope spanish(Language::es);
            CHECK(trainscope::current_language() == Language::es);
        }
        CHECK(trainscope::current_language() == Language::de);
    }
    CHECK(trainscope::current_language() == Language::en);
}

TEST_CASE("a message is written in the current language, English when a catalogue lacks it", "[i18n]") {
    REQUIRE(trainscope::load_messages(Language::de, R"({"test.greeting": "{count} GPUs reichen nicht"})").empty());
    const std::string english = message("test.greeting", "{count} GPUs are not enough", {{"count", "8"}});
    CHECK(english == "8 GPUs are not enough");
    LanguageScope german(Language::de);
    CHECK(message("test.greeting", "{count} GPUs are not enough", {{"count", "8"}}) == "8 GPUs reichen nicht");
    CHECK(message("test.absent", "Only in English") == "Only in English");
}

TEST_CASE("a placeholder without its argument stays visible", "[i18n]") {
    CHECK(message("test.unfilled", "at most {max}") == "at most {max}");
    CHECK(trainscope::fill_placeholders("{a} and {b}", {{"b", "2"}}) == "{a} and 2");
}

TEST_CASE("a broken catalogue is refused and the last good one stays", "[i18n]") {
    REQUIRE(trainscope::load_messages(Language::es, R"({"test.kept": "se queda"})").empty());
    CHECK_FALSE(trainscope::load_messages(Language::es, "[1, 2]").empty());
    CHECK_FALSE(trainscope::load_messages(Language::es, R"({"test.kept": 3})").empty());
    CHECK_FALSE(trainscope::load_messages(Language::en, "{}").empty());
    LanguageScope spanish(Language::es);
    CHECK(message("test.kept", "stays") == "se queda");
}
