// The engine part of a language pack as the page builds it: every i18n/<tag>/engine*.json of the
// source tree (tests/engine/ → i18n/), merged and installed with load_messages. Tests load the
// whole part, as the page does, since the quiz's and the estimate's sentences use the reader's
// number and unit words.
#pragma once

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "catch_include.hpp"
#include "engine/text/json.hpp"
#include "engine/text/language.hpp"
#include "engine/text/messages.hpp"

namespace trainscope::testing {

inline std::string read_source_text(const std::filesystem::path& path) {
    std::ifstream file(path, std::ios::binary);
    std::stringstream text;
    text << file.rdbuf();
    return text.str();
}

/** Installs `language`'s engine catalogues and returns the language (for a LanguageScope). */
inline Language install_engine_catalogues(Language language) {
    std::string here = __FILE__;
    here = here.substr(0, here.rfind("tests/engine/"));
    const std::filesystem::path directory = std::filesystem::path(here) / "i18n" / language_tag(language);
    std::vector<std::filesystem::path> files;
    for (const auto& entry : std::filesystem::directory_iterator(directory)) {
        const std::string name = entry.path().filename().string();
        if (name.rfind("engine", 0) == 0 && entry.path().extension() == ".json") files.push_back(entry.path());
    }
    std::sort(files.begin(), files.end());
    REQUIRE(files.size() >= 3);  // engine.json, engine-quantity.json, engine-quiz.json
    json::Writer merged;
    merged.begin_object();
    for (const auto& file : files) {
        const json::ParseResult parsed = json::parse(read_source_text(file));
        INFO(file.string());
        REQUIRE(parsed.ok);
        for (const auto& [key, value] : parsed.value.members) merged.field(key, value.text);
    }
    merged.end_object();
    const std::string problem = load_messages(language, merged.take());
    INFO(problem);
    REQUIRE(problem.empty());
    return language;
}

}  // namespace trainscope::testing
