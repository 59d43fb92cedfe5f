// Deterministic draws of an item's randomised fields: the same seed gives the same question
// natively and in wasm (docs/quiz.md, "Randomisation").
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "engine/quiz/internal.hpp"

namespace trainscope::quiz_detail {

namespace {

// splitmix64 (Steele, Lea & Flood 2014, "Fast splittable pseudorandom number generators";
// constants from Vigna's reference splitmix64.c). Integer-only, so identical on every platform.
std::uint64_t splitmix64(std::uint64_t& state) {
    state += 0x9E3779B97F4A7C15ULL;
    std::uint64_t z = state;
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    return z ^ (z >> 31);
}

// FNV-1a, 64-bit (Fowler, Noll, Vo): mixes the item id in, so two items with the same seed
// draw different numbers.
std::uint64_t fnv1a(std::string_view text) {
    std::uint64_t hash = 0xCBF29CE484222325ULL;
    for (const char c : text) {
        hash ^= static_cast<unsigned char>(c);
        hash *= 0x100000001B3ULL;
    }
    return hash;
}

// A double in [0, 1) from the top 53 bits.
double unit_interval(std::uint64_t& state) {
    return static_cast<double>(splitmix64(state) >> 11) * (1.0 / 9007199254740992.0);
}

}  // namespace

double power_of_ten(int exponent) {
    double result = 1.0;
    for (int i = 0; i < (exponent < 0 ? -exponent : exponent); ++i) result *= 10.0;
    return result;
}

namespace {

// Two significant figures: 13,468,000,000 → 13,000,000,000 ("13 billion"). Scales by exact
// powers of ten so the result is the double nearest the decimal number.
double round_nice(double x) {
    if (!(x > 0.0) || !std::isfinite(x)) return x;
    const int order = static_cast<int>(std::floor(std::log10(x)));
    const int shift = order - 1;
    if (shift >= 0) return std::round(x / power_of_ten(shift)) * power_of_ten(shift);
    return std::round(x * power_of_ten(-shift)) / power_of_ten(-shift);
}

// One draw's range: [min, max], or with `scale_by` that range times the named field's value as
// drawn or authored ("GPUs in proportion to the model": 8 to 16 GPUs per billion parameters).
// False when the field it scales by is not a positive number.
bool draw_range(const Value& entry, const Value& scenario, double& low, double& high) {
    number_of(entry.find("min"), low);
    number_of(entry.find("max"), high);
    const Value* scale_by = entry.find("scale_by");
    if (!scale_by) return true;
    double scale = 0.0;
    if (!number_of(scenario.find_path(text_of(scale_by)), scale) || !(scale > 0.0)) return false;
    low *= scale;
    high *= scale;
    return true;
}

double draw_number(const Value& entry, double u, double low, double high) {
    const std::string distribution = text_of(entry.find("distribution"));
    const std::string round = entry.find("round") ? text_of(entry.find("round")) : std::string("nice");
    double x = distribution == "log_uniform" ? std::exp(std::log(low) + u * (std::log(high) - std::log(low)))
                                             : low + u * (high - low);
    if (round == "nice")
        x = round_nice(x);
    else if (round == "integer")
        x = std::round(x);
    else if (round == "power_of_two")
        x = std::exp2(std::round(std::log2(x)));
    // A scaled range is a proportion, not a limit: clamping would undo a power of two.
    if (entry.find("scale_by")) return x;
    if (x < low) x = low;
    if (x > high) x = high;
    return x;
}

}  // namespace

// Sets a drawn field. A drawn parameter count replaces the authored model (a scenario takes a
// count or a preset, not both): the item asks about the preset as authored, a sized model else.
void set_drawn(Value& scenario, const std::string& path, const Value& value) {
    if (path == "model.params") {
        for (auto& [name, model] : scenario.members) {
            if (name != "model" || !model.is_object()) continue;
            auto& members = model.members;
            members.erase(std::remove_if(members.begin(), members.end(),
                                         [](const auto& member) {
                                             return member.first == "preset" || member.first == "architecture";
                                         }),
                          members.end());
        }
    }
    set_path(scenario, path, value);
}

// Draws the item's randomised fields from the seed into `scenario`, in order (a later draw may
// scale by an earlier one); seed 0 leaves the scenario as authored.
void draw(const Value& item, std::uint32_t seed, Value& scenario, std::vector<std::pair<std::string, Value>>& drawn) {
    const Value* randomize = item.find("randomize");
    if (seed == 0 || !randomize || randomize->kind != Kind::array) return;
    std::uint64_t state = (static_cast<std::uint64_t>(seed) * 0x9E3779B97F4A7C15ULL) ^ fnv1a(text_of(item.find("id")));
    for (const Value& entry : randomize->items) {
        const std::string path = text_of(entry.find("path"));
        const double u = unit_interval(state);
        Value value;
        if (text_of(entry.find("distribution")) == "choice") {
            const Value* values = entry.find("values");
            std::size_t index = static_cast<std::size_t>(std::floor(u * static_cast<double>(values->items.size())));
            if (index >= values->items.size()) index = values->items.size() - 1;
            value = values->items[index];
        } else {
            double low = 0.0, high = 0.0;
            if (!draw_range(entry, scenario, low, high)) continue;  // the scenario keeps its value
            value = number_value(draw_number(entry, u, low, high));
        }
        set_drawn(scenario, path, value);
        drawn.emplace_back(path, value);
    }
}

}  // namespace trainscope::quiz_detail
