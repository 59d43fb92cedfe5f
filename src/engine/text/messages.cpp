#include "engine/text/messages.hpp"

#include <string>
#include <utility>
#include <vector>

#include "engine/text/json.hpp"

namespace trainscope {

namespace {

// Searched front to back: a few hundred entries and a handful of sentences per call cost
// microseconds, and the wasm carries neither a hash map nor a sort (the page counts its kilobytes).
using Catalogue = std::vector<std::pair<std::string, std::string>>;

// One per language; English's stays empty, its text is in the code.
Catalogue& catalogue(Language language) {
    static Catalogue catalogues[3];
    return catalogues[static_cast<int>(language)];
}

bool installed[3] = {true, false, false};

}  // namespace

std::string fill_placeholders(std::string_view text, std::initializer_list<MessageArg> args) {
    std::string out;
    out.reserve(text.size() + 16);
    std::size_t i = 0;
    while (i < text.size()) {
        if (text[i] == '{') {
            const std::size_t close = text.find('}', i + 1);
            if (close != std::string_view::npos) {
                const std::string_view name = text.substr(i + 1, close - i - 1);
                bool filled = false;
                for (const MessageArg& arg : args) {
                    if (arg.name == name) {
                        out.append(arg.value);
                        filled = true;
                        break;
                    }
                }
                if (filled) {
                    i = close + 1;
                    continue;
                }
            }
        }
        out.push_back(text[i]);
        ++i;
    }
    return out;
}

namespace {

bool starts_with_either(std::string_view word, std::initializer_list<std::string_view> prefixes) {
    for (const std::string_view prefix : prefixes) {
        if (word.size() >= prefix.size()) {
            bool same = true;
            for (std::size_t i = 0; i < prefix.size() && same; ++i) {
                const char c = word[i];
                same = (c >= 'A' && c <= 'Z' ? static_cast<char>(c - 'A' + 'a') : c) == prefix[i];
            }
            if (same) return true;
        }
    }
    return false;
}

// The conjunction before the last item, with its spaces (and, in English, the serial comma).
std::string last_separator(ListJoin join, std::size_t count, std::string_view last) {
    switch (current_language()) {
        case Language::de:
            return join == ListJoin::and_ ? " und " : " oder ";
        case Language::es:
            if (join == ListJoin::and_) {
                // "e" before i-/hi- but not before a diphthong ("y hielo"): the /i/ sound, not the letter.
                const bool i_sound = starts_with_either(last, {"i", "hi", "\xc3\xad", "h\xc3\xad"}) &&
                                     !starts_with_either(last, {"ia", "ie", "io", "iu", "hia", "hie", "hio", "hiu"});
                return i_sound ? " e " : " y ";
            }
            return starts_with_either(last, {"o", "ho", "\xc3\xb3", "h\xc3\xb3"}) ? " u " : " o ";
        case Language::en:
            break;
    }
    if (join == ListJoin::or_) return " or ";
    return count > 2 ? ", and " : " and ";
}

}  // namespace

std::string join_list(const std::vector<std::string>& items, ListJoin join) {
    std::string text;
    for (std::size_t i = 0; i < items.size(); ++i) {
        if (i > 0) text += i + 1 == items.size() ? last_separator(join, items.size(), items[i]) : std::string(", ");
        text += items[i];
    }
    return text;
}

std::string message(std::string_view key, std::string_view english, std::initializer_list<MessageArg> args) {
    const Language language = current_language();
    if (language != Language::en) {
        const Catalogue& translated = catalogue(language);
        for (const auto& [translated_key, text] : translated)
            if (translated_key == key) return fill_placeholders(text, args);
    }
    return fill_placeholders(english, args);
}

std::string load_messages(Language language, std::string_view catalogue_json) {
    if (language == Language::en) return "English is built in; it takes no catalogue";
    const json::ParseResult parsed = json::parse(catalogue_json);
    if (!parsed.ok) return "the catalogue is not JSON: " + parsed.error;
    if (!parsed.value.is_object()) return "the catalogue must be a JSON object of \"key\": \"text\" members";
    Catalogue loaded;
    for (const auto& [key, value] : parsed.value.members) {
        if (value.kind != json::Kind::string) return "the catalogue's \"" + key + "\" is not a string";
        loaded.emplace_back(key, value.text);
    }
    catalogue(language) = std::move(loaded);
    installed[static_cast<int>(language)] = true;
    return "";
}

bool has_messages(Language language) { return installed[static_cast<int>(language)]; }

}  // namespace trainscope
