// The language the engine writes in: English, German or Spanish (docs/i18n.md).
//
// Why a scoped setting and not a parameter: the engine's words are written deep inside it (a
// field's error, a note, a unit name, a decimal comma), and threading a language through every
// function would touch every signature for one value that never changes within a call. Each entry
// point a host calls (the wasm bindings, the CLI) opens a LanguageScope for the length of one call;
// calls are synchronous, so two widgets in two languages on one page never see each other's.
// thread_local keeps native tests that run in threads apart.
#pragma once

#include <string_view>

namespace trainscope {

enum class Language { en, de, es };

// "en", "de", "es".
const char* language_tag(Language language);

// A BCP 47 tag, case-insensitive, by its primary subtag: "de", "de-AT", "DE_ch" → de;
// "es-419" → es; "en-GB" → en. False for a language the engine has no words for (the caller
// keeps English and may say so).
bool language_from_tag(std::string_view tag, Language& out);

// The language of the call in progress; English outside any scope.
Language current_language();

// For the wasm bindings only: the page's engine wrapper sets its widget's language before each
// of its calls (web/src/engine.ts), which is a scope opened by hand. Native code uses LanguageScope.
void set_current_language(Language language);

// Sets the current language until it goes out of scope, then restores the one before.
class LanguageScope {
public:
    explicit LanguageScope(Language language);
    ~LanguageScope();
    LanguageScope(const LanguageScope&) = delete;
    LanguageScope& operator=(const LanguageScope&) = delete;

private:
    Language previous_;
};

}  // namespace trainscope
