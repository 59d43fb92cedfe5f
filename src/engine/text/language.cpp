#include "engine/text/language.hpp"

namespace trainscope {

namespace {
thread_local Language current = Language::en;

char lower(char c) { return c >= 'A' && c <= 'Z' ? static_cast<char>(c - 'A' + 'a') : c; }
}  // namespace

const char* language_tag(Language language) {
    switch (language) {
        case Language::en:
            return "en";
        case Language::de:
            return "de";
        case Language::es:
            return "es";
    }
    return "en";
}

bool language_from_tag(std::string_view tag, Language& out) {
    // The primary subtag ends at '-' or '_' (POSIX locales such as de_DE.UTF-8 use '_').
    std::size_t end = 0;
    while (end < tag.size() && tag[end] != '-' && tag[end] != '_' && tag[end] != '.') ++end;
    if (end != 2) return false;
    const char first = lower(tag[0]), second = lower(tag[1]);
    if (first == 'e' && second == 'n') {
        out = Language::en;
        return true;
    }
    if (first == 'd' && second == 'e') {
        out = Language::de;
        return true;
    }
    if (first == 'e' && second == 's') {
        out = Language::es;
        return true;
    }
    return false;
}

Language current_language() { return current; }
void set_current_language(Language language) { current = language; }

LanguageScope::LanguageScope(Language language) : previous_(current) { current = language; }
LanguageScope::~LanguageScope() { current = previous_; }

}  // namespace trainscope
