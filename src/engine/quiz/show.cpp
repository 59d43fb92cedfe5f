// Where "show me in the simulation" lands (docs/quiz.md, "Show me"): the item's `show`, or for a
// numeric item without one, the place its answer's field is drawn (figures.cpp).
#include <string>
#include <vector>

#include "engine/quiz/internal.hpp"
#include "engine/text/messages.hpp"

namespace trainscope::quiz_detail {

namespace {

const char* const show_fields[] = {"section", "figure", "moment"};
// Moments of the step section's playhead a show-me may open at (web/src/sections/step.ts): the
// peak, or the first event of a phase (docs/model.md §9).
const char* const step_moments[] = {"peak", "gather", "recompute", "backward", "reduce_scatter", "optimizer"};

std::string known_sections() {
    std::string list;
    for (const ShowTarget* target = show_targets_begin(); target != show_targets_end(); ++target) {
        const std::string quoted = std::string("\"") + target->section + "\"";
        if (list.find(quoted) == std::string::npos) list += (list.empty() ? "" : ", ") + quoted;
    }
    return list;
}

std::string figures_of(const std::string& section) {
    std::string figures;
    for (const ShowTarget* t = show_targets_begin(); t != show_targets_end(); ++t)
        if (section == t->section) figures += std::string(figures.empty() ? "\"" : ", \"") + t->figure + "\"";
    return figures;
}

// The first term of the answer's path: "a + b" is held where "a" is.
std::string first_term(const std::string& path) {
    const std::size_t plus = path.find('+');
    std::string term = path.substr(0, plus);
    while (!term.empty() && term.back() == ' ') term.pop_back();
    while (!term.empty() && term.front() == ' ') term.erase(0, 1);
    return term;
}

std::string answer_path(const Value& item) {
    const Value* answer = item.find("answer");
    return answer ? text_of(answer->find("path")) : std::string();
}

void validate_moment(const Value& show, const std::string& section, const std::string& label,
                     std::vector<Problem>& problems) {
    const Value* moment = show.find("moment");
    if (!moment) return;
    if (section != "step") {
        problems.push_back({label, "show.moment",
                            message("quiz.schema.show_moment_section",
                                    "only the step section has moments; leave it out for the {section} section",
                                    {{"section", section}})});
        return;
    }
    bool moment_known = false;
    std::string moments;
    for (const char* name : step_moments) {
        moment_known = moment_known || text_of(moment) == name;
        moments += std::string(moments.empty() ? "\"" : ", \"") + name + "\"";
    }
    if (moment->kind != Kind::string || !moment_known)
        problems.push_back({label, "show.moment",
                            message("quiz.schema.show_moment", "must be one of {moments}", {{"moments", moments}})});
}

}  // namespace

void check_show_holds_answer(const Value& item, const std::string& label, std::vector<Problem>& problems) {
    const Value* show = item.find("show");
    if (!show) return;  // derived: right by construction
    const ShowTarget* target = find_show_target(text_of(show->find("section")), text_of(show->find("figure")));
    if (!target) return;  // the schema's error
    const ShowTarget& chosen = *target;
    const std::string path = answer_path(item);
    if (const ShowTarget* drawing = figure_drawing(path)) {
        if (chosen.path && path == chosen.path) return;
        problems.push_back({label, "show.figure",
                            message("quiz.schema.show_not_answer",
                                    "\"{figure}\" does not draw the answer \"{path}\"; \"{right}\" in the {section} "
                                    "section does: name it, or leave show out",
                                    {{"figure", chosen.figure},
                                     {"path", path},
                                     {"right", drawing->figure},
                                     {"section", drawing->section}})});
        return;
    }
    const FieldHome& home = home_of(first_term(path));
    if (chosen.section == std::string(home.section)) return;
    problems.push_back({label, "show.section",
                        message("quiz.schema.show_no_figure",
                                "no figure draws \"{path}\"; it is part of \"{figure}\" in the {section} section: "
                                "leave show out to land there",
                                {{"path", path}, {"figure", home.figure}, {"section", home.section}})});
}

void validate_show(const Value& item, const std::string& label, bool numeric, std::vector<Problem>& problems) {
    const Value* show = item.find("show");
    if (!show && numeric) return;  // derived from the answer's field
    if (!show || !show->is_object()) {
        problems.push_back({label, "show",
                            message("quiz.schema.show_missing",
                                    "must name where \"show me in the simulation\" lands: {\"section\": \"sharding\", "
                                    "\"figure\": \"model-states-per-gpu\"}")});
        return;
    }
    check_unknown_fields(*show, show_fields, label, "show.", problems);
    const std::string section = text_of(show->find("section"));
    const std::string figure = text_of(show->find("figure"));
    bool section_known = false;
    for (const ShowTarget* t = show_targets_begin(); t != show_targets_end(); ++t)
        section_known = section_known || section == t->section;
    if (!section_known) {
        problems.push_back(
            {label, "show.section",
             message("quiz.schema.show_section", "must be one of {sections}", {{"sections", known_sections()}})});
        return;
    }
    if (!find_show_target(section, figure))
        problems.push_back({label, "show.figure",
                            message("quiz.schema.show_figure", "must be a figure of the {section} section: {figures}",
                                    {{"section", section}, {"figures", figures_of(section)}})});
    validate_moment(*show, section, label, problems);
}

ShowPlace show_place(const Value& item, bool numeric) {
    ShowPlace place;
    const std::string path = numeric ? answer_path(item) : std::string();
    if (const Value* show = item.find("show")) {
        place.section = text_of(show->find("section"));
        place.figure = text_of(show->find("figure"));
        place.moment = text_of(show->find("moment"));
        const ShowTarget* target = find_show_target(place.section, place.figure);
        place.answer_drawn = numeric && target && target->path && path == target->path;
        return place;
    }
    if (const ShowTarget* drawing = figure_drawing(path)) {
        place.section = drawing->section;
        place.figure = drawing->figure;
        place.answer_drawn = true;
        return place;
    }
    const FieldHome& home = home_of(first_term(path));
    place.section = home.section;
    place.figure = home.figure;
    return place;
}

}  // namespace trainscope::quiz_detail
