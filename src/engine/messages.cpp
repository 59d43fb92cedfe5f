#include "engine/messages.hpp"

#include <string>
#include <unordered_map>

#include "engine/json.hpp"

namespace trainscope {

namespace {

using Catalogue = std::unordered_map<std::string, std::string>;

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

std::string message(std::string_view key, std::string_view english, std::initializer_list<MessageArg> args) {
    const Language language = current_language();
    if (language != Language::en) {
        const Catalogue& translated = catalogue(language);
        const auto found = translated.find(std::string(key));
        if (found != translated.end()) return fill_placeholders(found->second, args);
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
        loaded.emplace(key, value.text);
    }
    catalogue(language) = std::move(loaded);
    installed[static_cast<int>(language)] = true;
    return "";
}

bool has_messages(Language language) { return installed[static_cast<int>(language)]; }

}  // namespace trainscope
