// The engine's own JSON reader: the one parser every entry point (scenario, quiz item, quiz
// bank, Hugging Face config) goes through, so its rules are the project's rules.
#include <string>

#include "catch_include.hpp"
#include "engine/text/json.hpp"

using trainscope::json::Kind;
using trainscope::json::parse;
using trainscope::json::ParseResult;
using trainscope::json::serialize;

namespace {
bool contains(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }
}  // namespace

TEST_CASE("every RFC 8259 escape reads as its character", "[json]") {
    const ParseResult parsed = parse(R"("\" \\ \/ \b \f \n \r \t")");
    REQUIRE(parsed.ok);
    CHECK(parsed.value.text == "\" \\ / \b \f \n \r \t");
}

TEST_CASE("a \\u escape reads as UTF-8", "[json]") {
    // U+00E9 é is C3 A9; U+20AC € is E2 82 AC (Unicode code charts).
    const ParseResult parsed = parse(R"("\u00e9\u20AC")");
    REQUIRE(parsed.ok);
    CHECK(parsed.value.text == "\xC3\xA9\xE2\x82\xAC");
}

TEST_CASE("a surrogate pair reads as one four-byte character", "[json]") {
    // U+1F600 is the pair D83D DE00 in UTF-16 and F0 9F 98 80 in UTF-8.
    const ParseResult parsed = parse(R"("\uD83D\uDE00")");
    REQUIRE(parsed.ok);
    CHECK(parsed.value.text == "\xF0\x9F\x98\x80");
}

TEST_CASE("a lone high surrogate is rejected", "[json]") {
    const ParseResult parsed = parse(R"("\uD83D")");
    CHECK_FALSE(parsed.ok);
    CHECK(contains(parsed.error, "surrogate"));
}

TEST_CASE("a lone low surrogate is rejected", "[json]") {
    const ParseResult parsed = parse(R"("\uDE00x")");
    CHECK_FALSE(parsed.ok);
    CHECK(contains(parsed.error, "surrogate"));
}

TEST_CASE("a high surrogate followed by a non-surrogate escape is rejected", "[json]") {
    CHECK_FALSE(parse(R"("\uD83D\u0041")").ok);
}

TEST_CASE("an unknown escape is rejected", "[json]") { CHECK_FALSE(parse(R"("\x41")").ok); }

TEST_CASE("sixty-four levels of nesting are read", "[json][depth]") {
    const std::string text = std::string(64, '[') + std::string(64, ']');
    CHECK(parse(text).ok);
}

TEST_CASE("nesting deeper than the limit is an error that says so, not a crash", "[json][depth]") {
    const std::string text = std::string(20000, '[') + std::string(20000, ']');
    const ParseResult parsed = parse(text);
    CHECK_FALSE(parsed.ok);
    CHECK(contains(parsed.error, "nested more than 64 levels deep"));
}

TEST_CASE("a too-deep object names the path where the limit was reached", "[json][depth]") {
    std::string text;
    for (int i = 0; i < 100; ++i) text += "{\"a\":";
    text += "1" + std::string(100, '}');
    const ParseResult parsed = parse(text);
    CHECK_FALSE(parsed.ok);
    CHECK(parsed.path.rfind("a.a.a.", 0) == 0);
}

TEST_CASE("a duplicate member is an error naming its path", "[json][duplicates]") {
    // JSON.parse keeps the last member and this reader once kept the first: the same text meant
    // 8 GPUs in the CLI and 16 on the page. RFC 8259 §4 leaves duplicates undefined; we refuse them.
    const ParseResult parsed = parse(R"({"parallel":{"gpus":8,"gpus":16}})");
    CHECK_FALSE(parsed.ok);
    CHECK(parsed.path == "parallel.gpus");
    CHECK(contains(parsed.error, "parallel.gpus: appears twice"));
}

TEST_CASE("a duplicate member inside an array names the element's index", "[json][duplicates]") {
    const ParseResult parsed = parse(R"({"items":[{"id":"a"},{"id":"b","id":"c"}]})");
    CHECK_FALSE(parsed.ok);
    CHECK(parsed.path == "items[1].id");
}

TEST_CASE("a duplicate member among many members is still found", "[json][duplicates]") {
    std::string text = "{";
    for (int i = 0; i < 500; ++i) text += "\"k" + std::to_string(i) + "\":" + std::to_string(i) + ",";
    text += "\"k250\":0}";
    const ParseResult parsed = parse(text);
    CHECK_FALSE(parsed.ok);
    CHECK(parsed.path == "k250");
}

TEST_CASE("many distinct members are kept, and a repeat of the first, a middle or the last is found",
          "[json][duplicates]") {
    // 20,000 members grow the member index several times; names share long prefixes and collide.
    std::string members;
    for (int i = 0; i < 20000; ++i) members += "\"member" + std::to_string(i) + "\":" + std::to_string(i) + ",";
    const ParseResult distinct = parse("{" + members + "\"end\":0}");
    REQUIRE(distinct.ok);
    REQUIRE(distinct.value.members.size() == 20001);
    CHECK(distinct.value.find("member19999")->number == 19999);
    for (const char* repeated : {"member0", "member16", "member9999", "member19999"}) {
        const ParseResult parsed = parse("{" + members + "\"" + repeated + "\":0}");
        CHECK_FALSE(parsed.ok);
        CHECK(parsed.path == repeated);
    }
}

TEST_CASE("the same name in sibling objects is not a duplicate", "[json][duplicates]") {
    CHECK(parse(R"({"a":{"x":1},"b":{"x":2}})").ok);
}

TEST_CASE("names that differ only after an escape are different names", "[json][duplicates]") {
    CHECK(parse(R"({"a\u0062":1,"ab2":2})").ok);
    CHECK_FALSE(parse(R"({"a\u0062":1,"ab":2})").ok);
}

TEST_CASE("invalid UTF-8 is rejected with its byte offset", "[json][utf8]") {
    const ParseResult parsed = parse("{\"name\":\"caf\xE9\"}");  // Latin-1 é, not UTF-8
    CHECK_FALSE(parsed.ok);
    CHECK(contains(parsed.error, "not valid UTF-8"));
    CHECK(contains(parsed.error, "byte 12"));
}

TEST_CASE("an overlong encoding is invalid UTF-8", "[json][utf8]") {
    CHECK_FALSE(parse("\"\xC0\xAF\"").ok);  // '/' in two bytes (RFC 3629 §3 forbids it)
}

TEST_CASE("an encoded UTF-16 surrogate is invalid UTF-8", "[json][utf8]") {
    CHECK_FALSE(parse("\"\xED\xA0\x80\"").ok);  // U+D800 written as UTF-8
}

TEST_CASE("a code point above U+10FFFF is invalid UTF-8", "[json][utf8]") {
    CHECK_FALSE(parse("\"\xF4\x90\x80\x80\"").ok);
}

TEST_CASE("valid multi-byte UTF-8 reads unchanged", "[json][utf8]") {
    const ParseResult parsed = parse("\"\xC3\xA9\xE2\x82\xAC\xF0\x9F\x98\x80\"");
    REQUIRE(parsed.ok);
    CHECK(parsed.value.text == "\xC3\xA9\xE2\x82\xAC\xF0\x9F\x98\x80");
}

TEST_CASE("text after the value is an error", "[json]") { CHECK_FALSE(parse("{} {}").ok); }

TEST_CASE("a value serialises back to text that parses to the same value", "[json]") {
    const std::string text = R"({"a":[1,2.5,-3e-7,true,false,null],"b":{"c":"\u00e9\n"}})";
    const ParseResult first = parse(text);
    REQUIRE(first.ok);
    const std::string written = serialize(first.value);
    const ParseResult second = parse(written);
    REQUIRE(second.ok);
    CHECK(serialize(second.value) == written);
}
