// Helpers for the quiz tests, which read the engine's JSON answers: parse or fail the test, and
// read a text or a number at a dotted path without failing ("<absent>" or NaN when it is not
// there, so a check on it fails with the path's value shown); read the repository's own files (the
// built-in bank, its translations); ask and grade a question as the page does.
#pragma once

#include <cmath>
#include <cstdint>
#include <fstream>
#include <sstream>
#include <string>

#include "catch_include.hpp"
#include "engine/quiz/quiz.hpp"
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

// A file of this repository, e.g. "web/quiz/bank.json": tests/engine/ → the repository's root.
inline std::string source_file(const std::string& path_in_repository) {
    std::string here = __FILE__;
    here = here.substr(0, here.rfind("tests/engine/"));
    std::ifstream file(here + path_in_repository, std::ios::binary);
    std::stringstream text;
    text << file.rdbuf();
    INFO(path_in_repository);
    REQUIRE(!text.str().empty());
    return text.str();
}

inline std::string built_in_bank() { return source_file("web/quiz/bank.json"); }

// One item of the built-in bank, as JSON text to ask or grade on its own.
inline std::string built_in_item(const std::string& id) {
    const json::Value bank = parse_json(built_in_bank());
    for (const auto& item : bank.find("items")->items)
        if (text_at(item, "id") == id) return json::serialize(item);
    FAIL("no item " << id << " in the built-in bank");
    return {};
}

// The question as seed `seed` asks it; fails the test when the engine reports errors.
inline json::Value instance(const std::string& item, std::uint32_t seed) {
    const json::Value asked = parse_json(quiz_instance_json(item, seed));
    INFO("seed " << seed << ": " << json::serialize(asked));
    REQUIRE(asked.find("errors")->items.empty());
    return asked;
}

// The engine's grade for a typed answer.
inline json::Value typed(const std::string& item, std::uint32_t seed, const std::string& text) {
    json::Writer answer;
    answer.begin_object().field("text", text).end_object();
    return parse_json(quiz_grade_json(item, seed, answer.text()));
}

// `text` with the first `from` replaced by `to` (text-level, so a test states exactly what
// differs); fails the test when `from` is not there.
inline std::string replaced(std::string text, const std::string& from, const std::string& to) {
    const std::size_t at = text.find(from);
    INFO(from << " in " << text);
    REQUIRE(at != std::string::npos);
    return text.replace(at, from.size(), to);
}

}  // namespace trainscope::quiz_testing
