// trainscope: the estimation engine from the command line, for scripts and tests.
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>

#include "cli/table.hpp"
#include "engine/api.hpp"
#include "engine/json.hpp"
#include "engine/quiz.hpp"

namespace {

constexpr int exit_ok = 0;
constexpr int exit_usage = 64;
constexpr int exit_invalid_input = 2;

void print_usage(std::FILE* to) {
    std::fputs(
        "usage:\n"
        "  trainscope estimate FILE|- [--table]   scenario JSON in, estimate JSON (or a table) out\n"
        "  trainscope presets                     the model presets, as JSON\n"
        "  trainscope gpus                        the GPU catalogue, as JSON\n"
        "  trainscope default-scenario            every field of the default scenario, as JSON\n"
        "  trainscope quiz-check FILE [SEEDS]     validate a quiz bank and compute every numeric item\n"
        "                                         for seeds 1..SEEDS (default 200); exit 2 when it fails\n"
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

int run_estimate(int argc, char** argv) {
    const char* path = nullptr;
    bool as_table = false;
    for (int i = 2; i < argc; ++i) {
        if (std::strcmp(argv[i], "--table") == 0) as_table = true;
        else if (!path) path = argv[i];
        else { print_usage(stderr); return exit_usage; }
    }
    if (!path) { print_usage(stderr); return exit_usage; }

    std::string scenario;
    if (!read_all(path, scenario)) {
        std::fprintf(stderr, "trainscope: cannot read %s\n", path);
        return exit_invalid_input;
    }
    const std::string estimate = trainscope::estimate_json(scenario);
    const trainscope::json::ParseResult parsed = trainscope::json::parse(estimate);
    const trainscope::json::Value* errors = parsed.value.find("errors");
    const bool has_errors = errors && !errors->items.empty();

    if (as_table && !has_errors) {
        std::fputs(trainscope::cli::format_table(parsed.value).c_str(), stdout);
    } else {
        std::puts(estimate.c_str());
    }
    if (has_errors) {
        for (const auto& error : errors->items) {
            std::fprintf(stderr, "error: %s %s\n", error.find("field")->text.c_str(), error.find("message")->text.c_str());
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

int run_quiz_check(int argc, char** argv) {
    if (argc < 3 || argc > 4) { print_usage(stderr); return exit_usage; }
    std::string bank;
    if (!read_all(argv[2], bank)) {
        std::fprintf(stderr, "trainscope: cannot read %s\n", argv[2]);
        return exit_invalid_input;
    }
    int seeds = 200;
    if (argc == 4 && !read_seed_count(argv[3], seeds)) {
        std::fprintf(stderr, "trainscope: SEEDS must be a whole number from 0 to %d, not '%.40s'\n", max_seeds, argv[3]);
        return exit_usage;
    }
    const std::string report = trainscope::quiz_check_bank_json(bank, seeds);
    std::puts(report.c_str());
    const trainscope::json::ParseResult parsed = trainscope::json::parse(report);
    const trainscope::json::Value* ok = parsed.value.find("ok");
    return ok && ok->kind == trainscope::json::Kind::boolean && ok->boolean ? exit_ok : exit_invalid_input;
}

}  // namespace

int main(int argc, char** argv) {
    if (argc < 2) { print_usage(stderr); return exit_usage; }
    const std::string command = argv[1];
    if (command == "estimate") return run_estimate(argc, argv);
    if (command == "quiz-check") return run_quiz_check(argc, argv);
    if (command == "presets") { std::puts(trainscope::presets_json().c_str()); return exit_ok; }
    if (command == "gpus") { std::puts(trainscope::gpus_json().c_str()); return exit_ok; }
    if (command == "default-scenario") { std::puts(trainscope::default_scenario_json().c_str()); return exit_ok; }
    if (command == "--help" || command == "-h" || command == "help") { print_usage(stdout); return exit_ok; }
    print_usage(stderr);
    return exit_usage;
}
