// The engine's sentences in the current language (docs/i18n.md).
//
// Every sentence a person reads (a field's error, a note, an explanation, quiz feedback) is
// written as message("key", "English text with {placeholders}", {{"placeholder", value}}). The
// English stays in the code, where it reads as what it says; tools/i18n/extract.mjs collects every
// key and its English into i18n/en/engine.json, and a test fails when a translation misses a key,
// keeps one the code no longer uses, or changes the placeholders. Keys and English must be string
// literals so that the extractor can find them.
//
// German and Spanish are not compiled in: their catalogues (i18n/de/engine.json, …) come with the
// language pack the host loads only when a learner needs it, and are handed over by
// load_messages. A key a catalogue lacks falls back to English.
#pragma once

#include <initializer_list>
#include <string>
#include <string_view>
#include <vector>

#include "engine/text/language.hpp"

namespace trainscope {

struct MessageArg {
    std::string_view name;   // the placeholder, without braces: "max" for {max}
    std::string_view value;  // already written for the current language (numbers by quantity::format)
};

// The sentence for `key` in the current language, placeholders filled. A placeholder without an
// argument is left as written, so a test sees it.
std::string message(std::string_view key, std::string_view english, std::initializer_list<MessageArg> args = {});

// Joins a list the way the current language writes one: "a, b and c" / "a, b oder c" / "a, b y c".
// English keeps the serial comma before "and" but not before "or" ("a, b, and c"; "a, b or c"),
// as the engine's English notes have always read; German and Spanish never use it. Spanish "y"
// becomes "e" before an /i/ sound and "o" becomes "u" before an /o/ sound (RAE, Ortografía 2010).
enum class ListJoin { and_, or_ };
std::string join_list(const std::vector<std::string>& items, ListJoin join);

// Fills {name} placeholders in `text`; used by message() and by the quiz for its own templates.
std::string fill_placeholders(std::string_view text, std::initializer_list<MessageArg> args);

// Installs a catalogue: a JSON object of "key": "text" members. Replaces any earlier one for that
// language. Returns "" when installed, else why not (nothing is installed then). English needs none.
std::string load_messages(Language language, std::string_view catalogue_json);

// Whether a catalogue is installed for `language` (English: always).
bool has_messages(Language language);

}  // namespace trainscope
