// A whole bank (docs/quiz.md, "The bank"): its settings and takeaways, every item's schema, and
// every item checked as learners meet it; the one report the widget and quiz-check both read.
#include <algorithm>
#include <cmath>
#include <iterator>
#include <string>
#include <utility>
#include <vector>

#include "engine/quiz/internal.hpp"
#include "engine/quiz/quiz.hpp"
#include "engine/text/json.hpp"
#include "engine/text/messages.hpp"
#include "engine/text/quantity.hpp"

namespace trainscope {
namespace quiz_detail {

namespace {

// The author's choices for the whole bank (docs/quiz.md, "The bank"); a refused value is reported
// and its default used, so a typo in a setting never stops the questions.
struct BankSettings {
    bool shuffled = false;
    int draw = 0;           // 0: every usable item
    double pass_mark = -1;  // < 0: none
};

struct BankReport {
    std::vector<Problem> errors, warnings;
    int items = 0, numeric_items = 0;
    double instances_checked = 0;
    BankSettings settings;
    // Per item: it has a problem of its own, so the page leaves it out (a learner never sees a
    // half-broken question). Bank-level problems mark no item.
    std::vector<bool> unusable;
    // The takeaways' texts in the current language (a usable translation, else their own), so the
    // page's summary never picks a translation itself.
    std::vector<std::pair<std::string, std::string>> takeaways;
    // Whether a usable item draws new numbers for a retry: the page promises "new numbers" only then.
    bool draws_numbers = false;
};

void read_bank_settings(const Value& bank, std::size_t item_count, BankReport& report) {
    if (const Value* order = bank.find("order")) {
        const std::string text = text_of(order);
        if (order->kind == Kind::string && (text == "fixed" || text == "shuffled"))
            report.settings.shuffled = text == "shuffled";
        else
            report.errors.push_back(
                {"", "order",
                 message("quiz.bank.order",
                         "must be \"fixed\" (the bank's order, the default) or \"shuffled\" (an order per learner)")});
    }
    if (const Value* draw = bank.find("draw")) {
        double count = 0.0;
        if (!number_of(draw, count) || count < 1 || count != std::floor(count) || count > 100000)
            report.errors.push_back(
                {"", "draw", message("quiz.bank.draw", "must be a whole number of questions to ask, at least 1")});
        else if (item_count > 0 && count > static_cast<double>(item_count))
            report.errors.push_back(
                {"", "draw",
                 message("quiz.bank.draw_too_many",
                         "asks for {draw} questions but the bank has {items}; every question is asked",
                         {{"draw", quantity::format_count(count)},
                          {"items", quantity::format_count(static_cast<double>(item_count))}})});
        else
            report.settings.draw = static_cast<int>(count);
    }
    if (const Value* pass_mark = bank.find("pass_mark")) {
        double mark = 0.0;
        if (!number_of(pass_mark, mark) || !(mark >= 0.0 && mark <= 1.0))
            report.errors.push_back(
                {"", "pass_mark", message("quiz.bank.pass_mark", "must be a fraction from 0 to 1 (0.7 for 70%)")});
        else
            report.settings.pass_mark = mark;
    }
}

// The slips the grader names on its own for any numeric item (grade.cpp), which an item may practise.
const char* const engine_slips[] = {"gib_vs_gb", "gb_vs_gib", "unit_prefix"};

// The slips an item names: its misconceptions' ids and its options' `misconception`.
void collect_slips(const Value& item, std::vector<std::string>& slips) {
    for (const char* list : {"misconceptions", "options"}) {
        const Value* entries = item.find(list);
        if (!entries || entries->kind != Kind::array) continue;
        for (const auto& entry : entries->items) {
            const std::string id = text_of(entry.find(list[0] == 'm' ? "id" : "misconception"));
            if (!id.empty()) slips.push_back(id);
        }
    }
}

// Every slip an item's `practises` names should be one the bank's grading can name: otherwise the
// practice that should follow it never comes (docs/quiz.md, "Practice"). A warning for quiz-check,
// not an error: the item is asked as usual, and a bank cut to a few items (a test page, an
// author's excerpt) may well leave out the item that names the slip.
void check_practised_slips(const Value& items, BankReport& report) {
    std::vector<std::string> slips(std::begin(engine_slips), std::end(engine_slips));
    for (const auto& item : items.items) collect_slips(item, slips);
    for (std::size_t i = 0; i < items.items.size(); ++i) {
        const Value* practises = items.items[i].find("practises");
        if (!practises || practises->kind != Kind::array) continue;
        for (std::size_t s = 0; s < practises->items.size(); ++s) {
            const std::string slip = text_of(&practises->items[s]);
            if (slip.empty() || std::find(slips.begin(), slips.end(), slip) != slips.end()) continue;
            report.warnings.push_back(
                {item_label(items.items[i], i), "practises[" + std::to_string(s) + "]",
                 message("quiz.bank.practises_unknown",
                         "names \"{slip}\", which no item's misconception or option names", {{"slip", slip}})});
        }
    }
}

const Value* bank_items(const Value& bank, BankReport& report) {
    if (!bank.is_object()) {
        report.errors.push_back(
            {"", "", message("quiz.bank.not_an_object", "the bank must be an object {version, takeaways, items}")});
        return nullptr;
    }
    for (const auto& member : bank.members) {
        if (member.first != "version" && member.first != "takeaways" && member.first != "items" &&
            member.first != "$comment" && member.first != "order" && member.first != "draw" &&
            member.first != "pass_mark")
            report.errors.push_back(
                {"", member.first, message("quiz.schema.unknown_field", "unknown field (a typo?); see docs/quiz.md")});
    }
    double version = 0.0;
    if (!number_of(bank.find("version"), version) || version != 1.0)
        report.errors.push_back({"", "version", message("quiz.bank.version", "must be 1")});
    std::vector<std::string> takeaways;
    const Value* takeaway_list = bank.find("takeaways");
    if (!takeaway_list || takeaway_list->kind != Kind::array || takeaway_list->items.empty()) {
        report.errors.push_back(
            {"", "takeaways", message("quiz.bank.takeaways", "must list the lesson's takeaways as [{id, text}]")});
    } else {
        for (std::size_t i = 0; i < takeaway_list->items.size(); ++i) {
            const Value& t = takeaway_list->items[i];
            const std::string field = "takeaways[" + std::to_string(i) + "]";
            const std::string id = text_of(t.find("id"));
            if (!valid_id(id) || text_of(t.find("text")).empty())
                report.errors.push_back(
                    {"", field, message("quiz.bank.takeaway", "needs an id (a-z, 0-9, -, _) and a text")});
            takeaways.push_back(id);
            validate_takeaway_translations(t, field, report.errors);
            if (valid_id(id)) report.takeaways.push_back({id, takeaway_text(t)});
        }
    }
    const Value* items = bank.find("items");
    if (!items || items->kind != Kind::array || items->items.empty()) {
        report.errors.push_back({"", "items", message("quiz.bank.items", "must be a non-empty array of items")});
        return nullptr;
    }
    read_bank_settings(bank, items->items.size(), report);
    report.unusable.assign(items->items.size(), false);
    std::vector<std::string> ids;
    std::vector<int> covered(takeaways.size(), 0);
    for (std::size_t i = 0; i < items->items.size(); ++i) {
        const Value& item = items->items[i];
        const std::string label = item_label(item, i);
        const std::size_t errors_before = report.errors.size();
        ++report.items;
        validate_item(item, label, report.errors);
        const std::string id = text_of(item.find("id"));
        for (const auto& seen : ids)
            if (!id.empty() && seen == id)
                report.errors.push_back(
                    {label, "id", message("quiz.bank.item_id_repeated", "repeats another item's id")});
        ids.push_back(id);
        const std::string takeaway = text_of(item.find("takeaway"));
        bool known = false;
        for (std::size_t t = 0; t < takeaways.size(); ++t) {
            if (takeaways[t] == takeaway) {
                known = true;
                ++covered[t];
            }
        }
        if (!takeaway.empty() && !takeaways.empty() && !known)
            report.errors.push_back(
                {label, "takeaway", message("quiz.bank.takeaway_unknown", "is not one of the bank's takeaways")});
        if (is_numeric_kind(text_of(item.find("kind")))) ++report.numeric_items;
        if (report.errors.size() > errors_before) report.unusable[i] = true;
        // After the verdict above: a broken translation is the author's to fix, but the learner is
        // then asked in the item's own language, so the item stays usable.
        validate_translations(item, label, report.errors);
    }
    check_practised_slips(*items, report);
    for (std::size_t t = 0; t < takeaways.size(); ++t) {
        if (covered[t] == 0)
            report.errors.push_back(
                {"", "takeaways",
                 message("quiz.bank.takeaway_unchecked", "no item checks the takeaway \"{takeaway}\"",
                         {{"takeaway", takeaways[t]}})});
    }
    return items;
}

// Adds a problem unless the same one (item, field, message) is already listed: an error that
// every seed repeats is one thing for the author to fix.
void add_once(std::vector<Problem>& list, const Problem& problem) {
    for (const Problem& seen : list)
        if (seen.item == problem.item && seen.field == problem.field && seen.message == problem.message) return;
    list.push_back(problem);
}

// Every item of the bank checked as learners meet it (check.cpp), as authored and for `seeds`
// seeds of an item that draws; an item with a problem of its own at seed 0 is unusable.
void check_items(const Value& items, int seeds, BankReport& report) {
    for (std::size_t i = 0; i < items.items.size(); ++i) {
        const Value& item = items.items[i];
        const ItemCheck checked = check_item(item, i, seeds);
        report.instances_checked += checked.instances;
        for (const Problem& p : checked.errors) {
            if (p.seed == 0) report.unusable[i] = true;
            add_once(report.errors, p);
        }
        for (const Problem& p : checked.warnings) add_once(report.warnings, p);
        const Value* randomize = item.find("randomize");
        if (!report.unusable[i] && is_numeric_kind(text_of(item.find("kind"))) && randomize &&
            randomize->kind == Kind::array && !randomize->items.empty())
            report.draws_numbers = true;
        std::vector<Problem> translation_errors;
        check_translations(item, i, translation_errors);
        for (const Problem& p : translation_errors) add_once(report.errors, p);
    }
}

std::string write_report(const BankReport& report, bool with_counts, int seeds) {
    json::Writer w;
    w.begin_object();
    w.field_bool("ok", report.errors.empty());
    w.key("items").integer(report.items);
    w.key("settings").begin_object();
    w.field("order", report.settings.shuffled ? "shuffled" : "fixed");
    w.key("draw");
    if (report.settings.draw > 0)
        w.integer(report.settings.draw);
    else
        w.null();
    w.key("pass_mark");
    if (report.settings.pass_mark >= 0)
        w.number(report.settings.pass_mark);
    else
        w.null();
    w.end_object();
    w.key("takeaways").begin_array();
    for (const auto& [id, text] : report.takeaways) w.begin_object().field("id", id).field("text", text).end_object();
    w.end_array();
    w.field_bool("draws_numbers", report.draws_numbers);
    w.key("unusable").begin_array();
    for (std::size_t i = 0; i < report.unusable.size(); ++i)
        if (report.unusable[i]) w.integer(static_cast<long long>(i));
    w.end_array();
    if (with_counts) {
        w.key("numeric_items").integer(report.numeric_items);
        w.key("seeds").integer(seeds);
        w.field("instances_checked", report.instances_checked);
    }
    w.key("errors");
    write_problems(w, report.errors);
    if (with_counts) {
        w.key("warnings");
        write_problems(w, report.warnings);
    }
    w.end_object();
    return w.take();
}

}  // namespace

}  // namespace quiz_detail

using namespace quiz_detail;

namespace {

// The widget's validation (seeds 0) and quiz-check's (more seeds) are one: the same checks.
std::string check_bank(std::string_view bank_json, int seeds, bool with_counts) {
    BankReport report;
    const json::ParseResult parsed = json::parse(bank_json);
    if (!parsed.ok) {
        report.errors.push_back(
            {"", parsed.path,
             message("quiz.bank.not_json", "the bank is not valid JSON: {error}", {{"error", parsed.error}})});
        return write_report(report, with_counts, seeds);
    }
    if (const Value* items = bank_items(parsed.value, report)) check_items(*items, seeds, report);
    return write_report(report, with_counts, seeds);
}

}  // namespace

std::string quiz_validate_bank_json(std::string_view bank_json) { return check_bank(bank_json, 0, false); }

std::string quiz_check_bank_json(std::string_view bank_json, int seeds) {
    return check_bank(bank_json, seeds < 0 ? 0 : seeds, true);
}

}  // namespace trainscope
