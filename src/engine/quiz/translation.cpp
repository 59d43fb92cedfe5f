// Translations of an item or a takeaway (docs/quiz.md, "Translations"): the item's texts in another
// language, by tag, checked against the original's.
#include <iterator>
#include <string>
#include <vector>

#include "engine/quiz/internal.hpp"
#include "engine/text/language.hpp"
#include "engine/text/messages.hpp"
#include "engine/text/utf8.hpp"

namespace trainscope::quiz_detail {

namespace {

const char* const translation_fields[] = {"prompt", "explanation", "options", "misconceptions"};
const char* const translated_option_fields[] = {"text", "feedback"};
const char* const translated_misconception_fields[] = {"feedback"};

// The distinct {placeholders} of a text, as written inside the braces ("model.params", "x|TB"),
// found as fill() finds them.
std::vector<std::string> placeholders_of(const std::string& text) {
    std::vector<std::string> names;
    for (std::size_t open = text.find('{'); open != std::string::npos; open = text.find('{', open + 1)) {
        const std::size_t close = text.find('}', open);
        if (close == std::string::npos) break;
        const std::string name = text.substr(open + 1, close - open - 1);
        bool seen = false;
        for (const auto& known : names) seen = seen || known == name;
        if (!seen) names.push_back(name);
        open = close;
    }
    return names;
}

bool contains(const std::vector<std::string>& names, const std::string& name) {
    for (const auto& known : names)
        if (known == name) return true;
    return false;
}

// A translated text is there, is text, and keeps the original's placeholders: the same values
// must reach the learner in every language ({answer} above all), and a placeholder the original
// lacks would name a value nobody checked.
void check_translated_text(const std::string& original, const Value* translated, const std::string& label,
                           const std::string& field, std::vector<Problem>& problems) {
    if (!translated) {
        problems.push_back(
            {label, field,
             message("quiz.translation.missing", "is missing: a translation translates every text of the item")});
        return;
    }
    if (translated->kind != Kind::string || translated->text.empty()) {
        problems.push_back({label, field, message("quiz.translation.not_text", "must be a non-empty string")});
        return;
    }
    const std::vector<std::string> wanted = placeholders_of(original);
    const std::vector<std::string> written = placeholders_of(translated->text);
    for (const auto& name : wanted)
        if (!contains(written, name))
            problems.push_back({label, field,
                                message("quiz.translation.placeholder_missing",
                                        "lacks the placeholder {placeholder}, which the original has",
                                        {{"placeholder", "{" + name + "}"}})});
    for (const auto& name : written)
        if (!contains(wanted, name))
            problems.push_back({label, field,
                                message("quiz.translation.placeholder_extra",
                                        "has the placeholder {placeholder}, which the original does not",
                                        {{"placeholder", "{" + name + "}"}})});
}

// A language tag as the bank writes it: exactly "en", "de" or "es", so that one language has one
// translation ("de" and "de-AT" side by side would leave the engine to pick one).
bool check_language_tag(const std::string& tag, const std::string& label, const std::string& field,
                        std::vector<Problem>& problems) {
    Language language = Language::en;
    if (!language_from_tag(tag, language)) {
        problems.push_back({label, field,
                            message("quiz.translation.unknown_language",
                                    "is not a language the widget speaks: write \"en\", \"de\" or \"es\"")});
        return false;
    }
    if (tag != language_tag(language)) {
        problems.push_back({label, field,
                            message("quiz.translation.tag_form", "write the language as \"{tag}\"",
                                    {{"tag", language_tag(language)}})});
        return false;
    }
    return true;
}

// The texts of an array of objects with ids (options, misconceptions), translated in an object
// keyed by those ids: every id translated, no other id, no other field.
void check_translated_list(const Value* originals, const Value* translated, const char* list_name,
                           const char* const* fields, std::size_t field_count, const std::string& label,
                           const std::string& prefix, std::vector<Problem>& problems) {
    const std::string field = prefix + "." + list_name;
    const bool has_originals = originals && originals->kind == Kind::array && !originals->items.empty();
    if (!has_originals) {
        if (translated)
            problems.push_back(
                {label, field, message("quiz.translation.nothing_to_translate", "the item has none to translate")});
        return;
    }
    if (!translated) {
        problems.push_back(
            {label, field,
             message("quiz.translation.missing", "is missing: a translation translates every text of the item")});
        return;
    }
    if (!translated->is_object()) {
        problems.push_back(
            {label, field,
             message("quiz.translation.list_not_object", "must be an object keyed by their ids: {\"id\": {…}}")});
        return;
    }
    std::vector<std::string> ids;
    for (const Value& original : originals->items) {
        const std::string id = text_of(original.find("id"));
        if (!valid_id(id)) continue;  // the item's own error; nothing to translate it against
        ids.push_back(id);
        const std::string entry_field = field + "." + id;
        const Value* entry = translated->find(id);
        if (!entry) {
            problems.push_back(
                {label, entry_field,
                 message("quiz.translation.missing", "is missing: a translation translates every text of the item")});
            continue;
        }
        if (!entry->is_object()) {
            problems.push_back({label, entry_field, message("quiz.schema.not_an_object", "must be an object")});
            continue;
        }
        check_unknown_fields_in(*entry, fields, field_count, label, entry_field + ".", problems);
        for (std::size_t i = 0; i < field_count; ++i)
            check_translated_text(text_of(original.find(fields[i])), entry->find(fields[i]), label,
                                  entry_field + "." + fields[i], problems);
    }
    for (const auto& member : translated->members)
        if (!contains(ids, member.first))
            problems.push_back({label, field + "." + utf8::truncate(member.first, 64),
                                message("quiz.translation.unknown_id", "names nothing in the item (a typo?)")});
}

}  // namespace

void validate_translation(const Value& item, const std::string& label, const std::string& tag, const Value& translation,
                          std::vector<Problem>& problems) {
    const std::string prefix = "translations." + tag;
    if (!translation.is_object()) {
        problems.push_back({label, prefix,
                            message("quiz.translation.not_object",
                                    "must be an object with the item's texts: {\"prompt\": …, \"explanation\": …}")});
        return;
    }
    check_unknown_fields(translation, translation_fields, label, prefix + ".", problems);
    check_translated_text(text_of(item.find("prompt")), translation.find("prompt"), label, prefix + ".prompt",
                          problems);
    check_translated_text(text_of(item.find("explanation")), translation.find("explanation"), label,
                          prefix + ".explanation", problems);
    check_translated_list(item.find("options"), translation.find("options"), "options", translated_option_fields,
                          std::size(translated_option_fields), label, prefix, problems);
    check_translated_list(item.find("misconceptions"), translation.find("misconceptions"), "misconceptions",
                          translated_misconception_fields, std::size(translated_misconception_fields), label, prefix,
                          problems);
}

void validate_translations(const Value& item, const std::string& label, std::vector<Problem>& problems) {
    if (!item.is_object()) return;
    const Value* translations = item.find("translations");
    if (!translations) return;
    if (!translations->is_object()) {
        problems.push_back({label, "translations",
                            message("quiz.translation.not_by_language",
                                    "must be an object of translations by language: {\"de\": {…}, \"es\": {…}}")});
        return;
    }
    for (const auto& [tag, translation] : translations->members) {
        const std::string field = "translations." + utf8::truncate(tag, 16);
        if (check_language_tag(tag, label, field, problems))
            validate_translation(item, label, tag, translation, problems);
    }
}

std::string usable_translation(const Value& item) {
    const Value* translations = item.find("translations");
    if (!translations || !translations->is_object()) return "";
    const std::string tag = language_tag(current_language());
    const Value* translation = translations->find(tag);
    if (!translation) return "";
    std::vector<Problem> problems;
    validate_translation(item, "", tag, *translation, problems);
    return problems.empty() ? tag : "";
}

void validate_takeaway_translations(const Value& takeaway, const std::string& field, std::vector<Problem>& problems) {
    const Value* translations = takeaway.find("translations");
    if (!translations) return;
    if (!translations->is_object()) {
        problems.push_back({"", field + ".translations",
                            message("quiz.translation.takeaway_not_by_language",
                                    "must be an object of texts by language: {\"de\": \"…\"}")});
        return;
    }
    for (const auto& [tag, text] : translations->members) {
        const std::string translated_field = field + ".translations." + utf8::truncate(tag, 16);
        if (check_language_tag(tag, "", translated_field, problems))
            check_translated_text(text_of(takeaway.find("text")), &text, "", translated_field, problems);
    }
}

std::string takeaway_text(const Value& takeaway) {
    if (const Value* translations = takeaway.find("translations"); translations && translations->is_object()) {
        if (const Value* text = translations->find(language_tag(current_language()))) {
            std::vector<Problem> problems;
            check_translated_text(text_of(takeaway.find("text")), text, "", "", problems);
            if (problems.empty()) return text->text;
        }
    }
    return text_of(takeaway.find("text"));
}

}  // namespace trainscope::quiz_detail
