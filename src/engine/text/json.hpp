// A small JSON reader and writer for scenarios and estimates.
// Why our own: no exceptions (the wasm build has none), no iostream (~100 KB of wasm),
// and errors that say where the text went wrong.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace trainscope::json {

enum class Kind { null, boolean, number, string, array, object };

struct Value {
    Kind kind = Kind::null;
    bool boolean = false;
    double number = 0.0;
    std::string text;
    std::vector<Value> items;                            // array elements
    std::vector<std::pair<std::string, Value>> members;  // object members, in document order

    bool is_null() const { return kind == Kind::null; }
    bool is_object() const { return kind == Kind::object; }
    // The member named `key`, or nullptr when absent or when this is not an object.
    const Value* find(std::string_view key) const;
    // Follows a dotted path such as "training.per_gpu.total"; nullptr when any step is missing.
    const Value* find_path(std::string_view dotted_path) const;
};

struct ParseResult {
    Value value;
    bool ok = false;
    std::string error;  // "line 3, column 7: expected ':'" when !ok
    // For a member given twice or nesting too deep: the field path ("parallel.gpus", "items[2].id"),
    // so callers can name the field. Empty for syntax errors, which the line and column place.
    std::string path;
};

// Parses one JSON document (RFC 8259). Depth is limited so hostile input cannot exhaust the stack.
ParseResult parse(std::string_view text);

// Builds compact JSON text. Non-finite numbers are written as null: JSON has no NaN.
class Writer {
public:
    Writer& begin_object();
    Writer& end_object();
    Writer& begin_array();
    Writer& end_array();
    Writer& key(std::string_view name);
    Writer& number(double value);
    Writer& integer(long long value);
    Writer& boolean(bool value);
    Writer& string(std::string_view value);
    Writer& null();
    Writer& raw(std::string_view json_text);  // an already-serialised value
    // Convenience for the common "key": value pairs.
    Writer& field(std::string_view name, double value) { return key(name).number(value); }
    Writer& field(std::string_view name, std::string_view value) { return key(name).string(value); }
    Writer& field(std::string_view name, const char* value) { return key(name).string(value); }
    Writer& field_bool(std::string_view name, bool value) { return key(name).boolean(value); }

    // False once a NaN or infinity was written (as null): a formula misbehaved upstream.
    bool all_numbers_finite() const { return all_numbers_finite_; }
    const std::string& text() const { return out_; }
    std::string take() { return std::move(out_); }

private:
    void separate();
    std::string out_;
    bool need_comma_ = false;
    bool all_numbers_finite_ = true;
};

// Shortest text that reads back as the same double ("%.15g", else "%.17g").
std::string format_number(double value);
// Serialises a parsed value back to compact JSON.
std::string serialize(const Value& value);

}  // namespace trainscope::json
