// trainscope: the estimation engine from the command line, for scripts and tests.
#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <string>
#include <vector>

#include "cli/table.hpp"
#include "engine/api/api.hpp"
#include "engine/api/fit.hpp"
#include "engine/quiz/quiz.hpp"
#include "engine/text/json.hpp"
#include "engine/text/language.hpp"
#include "engine/text/messages.hpp"
#include "engine/text/quantity.hpp"

namespace {

constexpr int exit_ok = 0;
constexpr int exit_usage = 64;
constexpr int exit_invalid_input = 2;

void print_usage(std::FILE* to) {
    std::fputs(
        "usage:\n"
        "  trainscope estimate FILE|- [--table]   scenario JSON in, estimate JSON (or a table) out\n"
        "  trainscope fit FILE|- [--table]        what fits on the scenario's GPUs: the largest micro-batch and\n"
        "                                         sequence, every layout ranked by time, and for a setup that\n"
        "                                         does not fit the changes that make it fit (JSON or a table)\n"
        "  trainscope presets                     the model presets, as JSON\n"
        "  trainscope gpus                        the GPU catalogue, as JSON\n"
        "  trainscope default-scenario            every field of the default scenario, as JSON\n"
        "  trainscope quiz-check FILE [SEEDS] [--json]\n"
        "                                         validate a quiz bank and compute every item that draws\n"
        "                                         numbers for seeds 1..SEEDS (default 200); a report for\n"
        "                                         people, or with --json the report as JSON; exit 2 when\n"
        "                                         it has errors\n"
        "  trainscope quiz-check FILE --preview [SEEDS] [--json]\n"
        "                                         every item as the learner sees it for seeds 0..SEEDS-1\n"
        "                                         (default 3), with the engine's answers; then the check\n"
        "Any command takes --lang de|es: notes, errors and the table in German or Spanish (docs/i18n.md).\n"
        "Invalid input prints field-named errors and exits with 2. See docs/scenario.md.\n",
        to);
}

bool read_all(const char* path, std::string& out) {
    std::FILE* file = std::strcmp(path, "-") == 0 ? stdin : std::fopen(path, "rb");
    if (!file) return false;
    char buffer[65536];
    std::size_t count = 0;
    while ((count = std::fread(buffer, 1, sizeof buffer, file)) > 0) out.append(buffer, count);
    const bool ok = !std::ferror(file);
    if (file != stdin) std::fclose(file);
    return ok;
}

// `estimate` and `fit`: JSON in from FILE or stdin, JSON (or with --table a table) out.
int run_json_command(int argc, char** argv, std::string (*compute)(std::string_view),
                     std::string (*table)(const trainscope::json::Value&)) {
    const char* path = nullptr;
    bool as_table = false;
    for (int i = 2; i < argc; ++i) {
        if (std::strcmp(argv[i], "--table") == 0)
            as_table = true;
        else if (!path)
            path = argv[i];
        else {
            print_usage(stderr);
            return exit_usage;
        }
    }
    if (!path) {
        print_usage(stderr);
        return exit_usage;
    }

    std::string scenario;
    if (!read_all(path, scenario)) {
        std::fprintf(stderr, "trainscope: cannot read %s\n", path);
        return exit_invalid_input;
    }
    const std::string estimate = compute(scenario);
    const trainscope::json::ParseResult parsed = trainscope::json::parse(estimate);
    const trainscope::json::Value* errors = parsed.value.find("errors");
    const bool has_errors = errors && !errors->items.empty();

    if (as_table && !has_errors) {
        std::fputs(table(parsed.value).c_str(), stdout);
    } else {
        std::puts(estimate.c_str());
    }
    if (has_errors) {
        for (const auto& error : errors->items) {
            std::fprintf(stderr, "error: %s %s\n", error.find("field")->text.c_str(),
                         error.find("message")->text.c_str());
        }
        return exit_invalid_input;
    }
    return exit_ok;
}

constexpr int max_seeds = 100000;

// Digits only, at most max_seeds: atoi would read "12abc" as 12 and overflow on "99999999999".
bool read_seed_count(const char* text, int& out) {
    if (*text == '\0' || std::strlen(text) > 6) return false;
    long value = 0;
    for (const char* c = text; *c; ++c) {
        if (*c < '0' || *c > '9') return false;
        value = value * 10 + (*c - '0');
    }
    if (value > max_seeds) return false;
    out = static_cast<int>(value);
    return true;
}

namespace json = trainscope::json;

std::string text_at(const json::Value& value, const char* name) {
    const json::Value* found = value.find(name);
    return found && found->kind == json::Kind::string ? found->text : std::string();
}

// The author's view of a bank: each item's prompt and answer for a few seeds, straight from the
// engine (quiz_instance_json), so what is printed is what the widget asks and grades.
void print_preview(const std::string& bank_text, int seeds) {
    const json::ParseResult bank = json::parse(bank_text);
    const json::Value* items = bank.ok ? bank.value.find("items") : nullptr;
    if (!items || items->kind != json::Kind::array) return;  // the check below says why
    for (std::size_t index = 0; index < items->items.size(); ++index) {
        const json::Value& item = items->items[index];
        const std::string item_text = json::serialize(item);
        const std::string kind = text_at(item, "kind");
        const bool numeric = kind == "numeric" || kind == "estimate";
        const json::Value* randomize = item.find("randomize");
        const bool randomized =
            numeric && randomize && randomize->kind == json::Kind::array && !randomize->items.empty();
        // Lesson items (the default) read as before sets; a deeper one says so (docs/quiz.md, "Sets").
        const bool deeper = text_at(item, "set") == "deeper";
        std::printf("[%zu] %s (%s, takeaway %s%s)\n", index + 1, text_at(item, "id").c_str(), kind.c_str(),
                    text_at(item, "takeaway").c_str(), deeper ? ", deeper set" : "");
        // Choice items draw no numbers: one instance says it all.
        const int last = randomized ? (seeds > 0 ? seeds : 1) : 1;
        for (int seed = 0; seed < last; ++seed) {
            const json::ParseResult asked =
                json::parse(trainscope::quiz_instance_json(item_text, static_cast<std::uint32_t>(seed)));
            const json::Value* errors = asked.ok ? asked.value.find("errors") : nullptr;
            if (!asked.ok || (errors && !errors->items.empty())) {
                std::printf("  seed %d: cannot be asked:\n", seed);
                if (errors)
                    for (const auto& e : errors->items)
                        std::printf("    %s: %s\n", text_at(e, "field").c_str(), text_at(e, "message").c_str());
                break;
            }
            std::printf("  seed %d: %s\n", seed, text_at(asked.value, "prompt").c_str());
            if (numeric) {
                const json::Value* tolerance = asked.value.find(kind == "numeric" ? "tolerance" : "tolerance_factor");
                const double within = tolerance && tolerance->kind == json::Kind::number ? tolerance->number : 0.0;
                if (kind == "numeric")
                    std::printf("    answer: %s (within %g%%)\n", text_at(asked.value, "expected_display").c_str(),
                                within * 100.0);
                else
                    std::printf("    answer: %s (within a factor of %g)\n",
                                text_at(asked.value, "expected_display").c_str(), within);
                continue;
            }
            const json::Value* options = item.find("options");
            if (!options) continue;
            for (const auto& option : options->items) {
                const json::Value* correct = option.find("correct");
                const bool right = correct && correct->kind == json::Kind::boolean && correct->boolean;
                std::printf("    %s %s: %s\n", right ? "[x]" : "[ ]", text_at(option, "id").c_str(),
                            text_at(option, "text").c_str());
            }
        }
    }
    std::puts("");
}

double number_in(const json::Value& value, const char* name) {
    const json::Value* found = value.find(name);
    return found && found->kind == json::Kind::number ? found->number : 0.0;
}

// One problem as a person reads it: "error: gpu-hours-to-train, explanation (seed 3): must state…".
void print_problem(const json::Value& problem, const std::string& severity) {
    const std::string item = text_at(problem, "item");
    std::string where = item.empty() ? trainscope::message("cli.check.the_bank", "the bank") : item;
    if (!text_at(problem, "field").empty()) where += ", " + text_at(problem, "field");
    if (const json::Value* seed = problem.find("seed"); seed && seed->kind == json::Kind::number && seed->number > 0)
        where +=
            " " + trainscope::message(
                      "cli.check.seed", "(seed {seed})",
                      {{"seed", trainscope::quantity::format(seed->number, trainscope::quantity::Figure::integer)}});
    std::printf("  %s: %s: %s\n", severity.c_str(), where.c_str(), text_at(problem, "message").c_str());
}

// The check's report for people (quiz-check's default; --json prints the report itself).
void print_report(const json::Value& report, const char* path) {
    using trainscope::quantity::Figure;
    using trainscope::quantity::format;
    const json::Value* errors = report.find("errors");
    const json::Value* warnings = report.find("warnings");
    const std::size_t error_count = errors ? errors->items.size() : 0,
                      warning_count = warnings ? warnings->items.size() : 0;
    std::printf("%s\n",
                trainscope::message("cli.check.summary",
                                    "{file}: {items} items ({numeric} with a numeric answer); {instances} questions "
                                    "computed, as authored and for seeds 1 to {seeds}.",
                                    {{"file", path},
                                     {"items", format(number_in(report, "items"), Figure::integer)},
                                     {"numeric", format(number_in(report, "numeric_items"), Figure::integer)},
                                     {"instances", format(number_in(report, "instances_checked"), Figure::integer)},
                                     {"seeds", format(number_in(report, "seeds"), Figure::integer)}})
                    .c_str());
    if (error_count == 0 && warning_count == 0) {
        std::printf("%s\n", trainscope::message("cli.check.ok", "No problems: every item can be asked.").c_str());
        return;
    }
    std::printf("%s\n", trainscope::message("cli.check.counts", "Errors: {errors}. Warnings: {warnings}.",
                                            {{"errors", format(static_cast<double>(error_count), Figure::integer)},
                                             {"warnings", format(static_cast<double>(warning_count), Figure::integer)}})
                            .c_str());
    const std::string error_word = trainscope::message("cli.check.error", "error"),
                      warning_word = trainscope::message("cli.check.warning", "warning");
    if (errors)
        for (const auto& problem : errors->items) print_problem(problem, error_word);
    if (warnings)
        for (const auto& problem : warnings->items) print_problem(problem, warning_word);
    const json::Value* unusable = report.find("unusable");
    if (unusable && !unusable->items.empty())
        std::printf("%s\n",
                    trainscope::message(
                        "cli.check.unusable", "The widget leaves out {count} items that cannot be asked; the rest run.",
                        {{"count", format(static_cast<double>(unusable->items.size()), Figure::integer)}})
                        .c_str());
}

struct QuizCheckOptions {
    bool preview = false, as_json = false;
    const char* path = nullptr;
    const char* seed_text = nullptr;
};

bool read_quiz_check_options(int argc, char** argv, QuizCheckOptions& options) {
    for (int i = 2; i < argc; ++i) {
        if (std::strcmp(argv[i], "--preview") == 0 && !options.preview)
            options.preview = true;
        else if (std::strcmp(argv[i], "--json") == 0 && !options.as_json)
            options.as_json = true;
        else if (!options.path)
            options.path = argv[i];
        else if (!options.seed_text)
            options.seed_text = argv[i];
        else
            return false;
    }
    return options.path != nullptr;
}

int run_quiz_check(int argc, char** argv) {
    QuizCheckOptions options;
    if (!read_quiz_check_options(argc, argv, options)) {
        print_usage(stderr);
        return exit_usage;
    }
    std::string bank;
    if (!read_all(options.path, bank)) {
        std::fprintf(stderr, "trainscope: cannot read %s\n", options.path);
        return exit_invalid_input;
    }
    int seeds = options.preview ? 3 : 200;
    if (options.seed_text && !read_seed_count(options.seed_text, seeds)) {
        std::fprintf(stderr, "trainscope: SEEDS must be a whole number from 0 to %d, not '%.40s'\n", max_seeds,
                     options.seed_text);
        return exit_usage;
    }
    if (options.preview) print_preview(bank, seeds);
    const std::string report = trainscope::quiz_check_bank_json(bank, seeds);
    const trainscope::json::ParseResult parsed = trainscope::json::parse(report);
    if (options.as_json)
        std::puts(report.c_str());
    else
        print_report(parsed.value, options.path);
    const trainscope::json::Value* ok = parsed.value.find("ok");
    return ok && ok->kind == trainscope::json::Kind::boolean && ok->boolean ? exit_ok : exit_invalid_input;
}

// The language's engine catalogues, every i18n/<tag>/engine*.json of the source tree (the engine's
// part may be split over several files, docs/i18n.md), merged and installed. "" or why not.
std::string load_engine_catalogues(trainscope::Language language) {
    namespace fs = std::filesystem;
    const fs::path directory = fs::path(TRAINSCOPE_I18N_DIR) / trainscope::language_tag(language);
    std::error_code failed;
    std::vector<fs::path> files;
    for (const auto& entry : fs::directory_iterator(directory, failed)) {
        const std::string name = entry.path().filename().string();
        if (name.rfind("engine", 0) == 0 && name.size() > 5 && name.compare(name.size() - 5, 5, ".json") == 0)
            files.push_back(entry.path());
    }
    if (failed || files.empty()) return "no catalogue in " + directory.string();
    std::sort(files.begin(), files.end());
    json::Writer merged;
    merged.begin_object();
    for (const fs::path& file : files) {
        std::string text;
        if (!read_all(file.string().c_str(), text)) return "cannot read " + file.string();
        const json::ParseResult parsed = json::parse(text);
        if (!parsed.ok || !parsed.value.is_object()) return file.string() + " is not a JSON object";
        for (const auto& [key, value] : parsed.value.members) {
            if (value.kind != json::Kind::string) return file.string() + ": \"" + key + "\" is not a string";
            merged.field(key, value.text);
        }
    }
    merged.end_object();
    return trainscope::load_messages(language, merged.take());
}

int run(int argc, char** argv);

}  // namespace

int main(int argc, char** argv) {
    // --lang TAG (or --lang=TAG) anywhere: taken out before the command reads its arguments.
    std::vector<char*> arguments;
    trainscope::Language language = trainscope::Language::en;
    for (int i = 0; i < argc; ++i) {
        const char* tag = nullptr;
        if (std::strcmp(argv[i], "--lang") == 0) {
            if (i + 1 >= argc) {
                print_usage(stderr);
                return exit_usage;
            }
            tag = argv[++i];
        } else if (std::strncmp(argv[i], "--lang=", 7) == 0) {
            tag = argv[i] + 7;
        } else {
            arguments.push_back(argv[i]);
            continue;
        }
        if (!trainscope::language_from_tag(tag, language)) {
            std::fprintf(stderr, "trainscope: no language has the tag '%.40s'; use en, de or es\n", tag);
            return exit_usage;
        }
    }
    if (language != trainscope::Language::en) {
        const std::string problem = load_engine_catalogues(language);
        if (!problem.empty()) {
            std::fprintf(stderr, "trainscope: %s\n", problem.c_str());
            return exit_usage;
        }
    }
    const trainscope::LanguageScope scope(language);
    arguments.push_back(nullptr);
    return run(static_cast<int>(arguments.size() - 1), arguments.data());
}

namespace {

int run(int argc, char** argv) {
    if (argc < 2) {
        print_usage(stderr);
        return exit_usage;
    }
    const std::string command = argv[1];
    if (command == "estimate")
        return run_json_command(argc, argv, trainscope::estimate_json, trainscope::cli::format_table);
    if (command == "fit") return run_json_command(argc, argv, trainscope::fit_json, trainscope::cli::format_fit_table);
    if (command == "quiz-check") return run_quiz_check(argc, argv);
    if (command == "presets") {
        std::puts(trainscope::presets_json().c_str());
        return exit_ok;
    }
    if (command == "gpus") {
        std::puts(trainscope::gpus_json().c_str());
        return exit_ok;
    }
    if (command == "default-scenario") {
        std::puts(trainscope::default_scenario_json().c_str());
        return exit_ok;
    }
    if (command == "--help" || command == "-h" || command == "help") {
        print_usage(stdout);
        return exit_ok;
    }
    print_usage(stderr);
    return exit_usage;
}

}  // namespace
