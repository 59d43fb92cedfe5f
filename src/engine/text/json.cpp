#include "engine/text/json.hpp"

#include <cmath>
#include <cstdint>
#include <cstdlib>

#include "engine/text/decimal.hpp"
#include "engine/text/messages.hpp"
#include "engine/text/utf8.hpp"

namespace trainscope::json {

const Value* Value::find(std::string_view key) const {
    if (kind != Kind::object) return nullptr;
    for (const auto& member : members)
        if (member.first == key) return &member.second;
    return nullptr;
}

const Value* Value::find_path(std::string_view dotted_path) const {
    const Value* current = this;
    while (current && !dotted_path.empty()) {
        const std::size_t dot = dotted_path.find('.');
        current = current->find(dotted_path.substr(0, dot));
        dotted_path = dot == std::string_view::npos ? std::string_view{} : dotted_path.substr(dot + 1);
    }
    return current;
}

namespace {

constexpr int max_depth = 64;
// Member names longer than this are cut in paths, so an error never echoes megabytes back.
constexpr std::size_t max_name_in_path = 60;
// Objects with more members than this check duplicates with a hash table instead of a scan.
constexpr std::size_t linear_duplicate_scan = 16;

// Open addressing over the indices of an object's members, so that an object of many members
// is checked for a repeated name in linear time. Small beside std::unordered_set<std::string>,
// whose hashing and prime table cost the page kilobytes (issue 9).
class MemberIndex {
public:
    // True when `name` is already a member; otherwise remembers that it will be the next one.
    bool seen(const Value& object, const std::string& name) {
        const std::size_t count = object.members.size();
        if (slots_.size() < 2 * (count + 1)) {
            std::size_t size = 64;
            while (size < 4 * (count + 1)) size *= 2;
            slots_.assign(size, empty);
            for (std::size_t i = 0; i < count; ++i)
                *find(object, object.members[i].first) = static_cast<std::uint32_t>(i);
        }
        std::uint32_t* slot = find(object, name);
        if (*slot != empty) return true;
        *slot = static_cast<std::uint32_t>(count);
        return false;
    }

private:
    static constexpr std::uint32_t empty = 0xFFFFFFFF;

    std::uint32_t* find(const Value& object, const std::string& name) {
        std::uint32_t hash = 2166136261u;  // FNV-1a
        for (const char c : name) hash = (hash ^ static_cast<unsigned char>(c)) * 16777619u;
        const std::size_t last = slots_.size() - 1;  // a power of two, less one
        for (std::size_t i = hash & last;; i = (i + 1) & last)
            if (slots_[i] == empty || object.members[slots_[i]].first == name) return &slots_[i];
    }

    std::vector<std::uint32_t> slots_;
};

class Parser {
public:
    explicit Parser(std::string_view text) : text_(text) {}

    ParseResult run() {
        ParseResult result;
        const std::size_t bad_byte = utf8::first_invalid_byte(text_);
        if (bad_byte != utf8::valid) {
            result.error = message("json.invalid_utf8", "the text is not valid UTF-8 (byte {byte}); save it as UTF-8",
                                   {{"byte", std::to_string(bad_byte)}});
            return result;
        }
        skip_space();
        if (!parse_value(result.value, 0)) {
            result.error = where() + error_;
            result.path = error_path_;
            return result;
        }
        skip_space();
        if (pos_ != text_.size()) {
            result.error = where() + message("json.trailing_text", "unexpected text after the JSON value");
            return result;
        }
        result.ok = true;
        return result;
    }

private:
    std::string where() const {
        int line = 1, column = 1;
        for (std::size_t i = 0; i < pos_ && i < text_.size(); ++i) {
            if (text_[i] == '\n') {
                ++line;
                column = 1;
            } else {
                ++column;
            }
        }
        return message("json.where", "line {line}, column {column}: ",
                       {{"line", std::to_string(line)}, {"column", std::to_string(column)}});
    }

    bool fail(std::string why) {
        error_ = std::move(why);
        return false;
    }

    // The dotted field path of the value being read: "parallel.gpus", "items[2].id".
    std::string path() const {
        std::string out;
        for (const auto& segment : path_) {
            if (!segment.empty() && segment[0] == '[')
                out += segment;
            else
                out += (out.empty() ? "" : ".") + segment;
        }
        return out;
    }

    void skip_space() {
        while (pos_ < text_.size() &&
               (text_[pos_] == ' ' || text_[pos_] == '\t' || text_[pos_] == '\n' || text_[pos_] == '\r'))
            ++pos_;
    }

    bool consume_literal(std::string_view literal) {
        if (text_.substr(pos_, literal.size()) != literal) return false;
        pos_ += literal.size();
        return true;
    }

    bool parse_value(Value& out, int depth) {
        if (depth > max_depth) {
            error_ = message("json.too_deep", "nested more than {depth} levels deep",
                             {{"depth", std::to_string(max_depth)}});
            error_path_ = path();
            return false;
        }
        if (pos_ >= text_.size()) return fail(message("json.unexpected_end", "unexpected end of text"));
        const char c = text_[pos_];
        if (c == '{') return parse_object(out, depth);
        if (c == '[') return parse_array(out, depth);
        if (c == '"') {
            out.kind = Kind::string;
            return parse_string(out.text);
        }
        if (c == '-' || (c >= '0' && c <= '9')) return parse_number(out);
        if (consume_literal("true")) {
            out.kind = Kind::boolean;
            out.boolean = true;
            return true;
        }
        if (consume_literal("false")) {
            out.kind = Kind::boolean;
            out.boolean = false;
            return true;
        }
        if (consume_literal("null")) {
            out.kind = Kind::null;
            return true;
        }
        return fail(
            message("json.expected_value", "expected a value (object, array, string, number, true, false or null)"));
    }

    // JSON.parse keeps the last copy of a member and other readers the first, so one text
    // could mean two scenarios (RFC 8259 §4: names "SHOULD be unique"). We refuse it.
    static bool is_duplicate(const Value& object, MemberIndex& index, const std::string& name) {
        if (object.members.size() < linear_duplicate_scan) {
            for (const auto& member : object.members)
                if (member.first == name) return true;
            return false;
        }
        return index.seen(object, name);
    }

    bool parse_object(Value& out, int depth) {
        MemberIndex names;  // filled only for large objects
        out.kind = Kind::object;
        ++pos_;  // '{'
        skip_space();
        if (pos_ < text_.size() && text_[pos_] == '}') {
            ++pos_;
            return true;
        }
        while (true) {
            skip_space();
            if (pos_ >= text_.size() || text_[pos_] != '"')
                return fail(message("json.expected_member_name", "expected a quoted member name"));
            std::string name;
            if (!parse_string(name)) return false;
            skip_space();
            if (pos_ >= text_.size() || text_[pos_] != ':')
                return fail(message("json.expected_colon", "expected ':' after the member name"));
            ++pos_;
            skip_space();
            path_.push_back(utf8::truncate(name, max_name_in_path));
            if (is_duplicate(out, names, name)) {
                error_path_ = path();
                error_ = message("json.duplicate_member",
                                 "{path}: appears twice; give each member once (readers disagree on which copy counts)",
                                 {{"path", error_path_}});
                return false;
            }
            Value member;
            if (!parse_value(member, depth + 1)) return false;
            path_.pop_back();
            out.members.emplace_back(std::move(name), std::move(member));
            skip_space();
            if (pos_ < text_.size() && text_[pos_] == ',') {
                ++pos_;
                continue;
            }
            if (pos_ < text_.size() && text_[pos_] == '}') {
                ++pos_;
                return true;
            }
            return fail(message("json.expected_object_separator", "expected ',' or '}' in the object"));
        }
    }

    bool parse_array(Value& out, int depth) {
        out.kind = Kind::array;
        ++pos_;  // '['
        skip_space();
        if (pos_ < text_.size() && text_[pos_] == ']') {
            ++pos_;
            return true;
        }
        while (true) {
            skip_space();
            path_.push_back("[" + std::to_string(out.items.size()) + "]");
            Value item;
            if (!parse_value(item, depth + 1)) return false;
            path_.pop_back();
            out.items.push_back(std::move(item));
            skip_space();
            if (pos_ < text_.size() && text_[pos_] == ',') {
                ++pos_;
                continue;
            }
            if (pos_ < text_.size() && text_[pos_] == ']') {
                ++pos_;
                return true;
            }
            return fail(message("json.expected_array_separator", "expected ',' or ']' in the array"));
        }
    }

    static void append_utf8(std::string& out, unsigned code_point) {
        if (code_point < 0x80) {
            out += static_cast<char>(code_point);
        } else if (code_point < 0x800) {
            out += static_cast<char>(0xC0 | (code_point >> 6));
            out += static_cast<char>(0x80 | (code_point & 0x3F));
        } else if (code_point < 0x10000) {
            out += static_cast<char>(0xE0 | (code_point >> 12));
            out += static_cast<char>(0x80 | ((code_point >> 6) & 0x3F));
            out += static_cast<char>(0x80 | (code_point & 0x3F));
        } else {
            out += static_cast<char>(0xF0 | (code_point >> 18));
            out += static_cast<char>(0x80 | ((code_point >> 12) & 0x3F));
            out += static_cast<char>(0x80 | ((code_point >> 6) & 0x3F));
            out += static_cast<char>(0x80 | (code_point & 0x3F));
        }
    }

    bool parse_hex4(unsigned& out) {
        if (pos_ + 4 > text_.size()) return fail(message("json.incomplete_u_escape", "incomplete \\u escape"));
        out = 0;
        for (int i = 0; i < 4; ++i) {
            const char h = text_[pos_++];
            out <<= 4;
            if (h >= '0' && h <= '9')
                out |= static_cast<unsigned>(h - '0');
            else if (h >= 'a' && h <= 'f')
                out |= static_cast<unsigned>(h - 'a' + 10);
            else if (h >= 'A' && h <= 'F')
                out |= static_cast<unsigned>(h - 'A' + 10);
            else
                return fail(message("json.bad_hex_digit", "bad hex digit in \\u escape"));
        }
        return true;
    }

    bool parse_string(std::string& out) {
        ++pos_;  // opening quote
        while (pos_ < text_.size()) {
            const char c = text_[pos_++];
            if (c == '"') return true;
            if (static_cast<unsigned char>(c) < 0x20)
                return fail(message("json.control_character", "control character in a string"));
            if (c != '\\') {
                out += c;
                continue;
            }
            if (pos_ >= text_.size()) break;
            const char escape = text_[pos_++];
            switch (escape) {
                case '"':
                    out += '"';
                    break;
                case '\\':
                    out += '\\';
                    break;
                case '/':
                    out += '/';
                    break;
                case 'b':
                    out += '\b';
                    break;
                case 'f':
                    out += '\f';
                    break;
                case 'n':
                    out += '\n';
                    break;
                case 'r':
                    out += '\r';
                    break;
                case 't':
                    out += '\t';
                    break;
                case 'u': {
                    unsigned code_point = 0;
                    if (!parse_hex4(code_point)) return false;
                    if (code_point >= 0xD800 && code_point <= 0xDBFF && text_.substr(pos_, 2) == "\\u") {
                        pos_ += 2;
                        unsigned low = 0;
                        if (!parse_hex4(low)) return false;
                        if (low < 0xDC00 || low > 0xDFFF)
                            return fail(message("json.unpaired_surrogate", "unpaired surrogate in \\u escape"));
                        code_point = 0x10000 + ((code_point - 0xD800) << 10) + (low - 0xDC00);
                    } else if (code_point >= 0xD800 && code_point <= 0xDFFF) {
                        return fail(message("json.unpaired_surrogate", "unpaired surrogate in \\u escape"));
                    }
                    append_utf8(out, code_point);
                    break;
                }
                default:
                    return fail(message("json.unknown_escape", "unknown escape in a string"));
            }
        }
        return fail(message("json.unterminated_string", "unterminated string"));
    }

    bool parse_number(Value& out) {
        const std::size_t start = pos_;
        auto digits = [&] {
            const std::size_t before = pos_;
            while (pos_ < text_.size() && text_[pos_] >= '0' && text_[pos_] <= '9') ++pos_;
            return pos_ > before;
        };
        if (text_[pos_] == '-') ++pos_;
        if (pos_ < text_.size() && text_[pos_] == '0')
            ++pos_;
        else if (!digits())
            return fail(message("json.expected_digits", "expected digits in a number"));
        if (pos_ < text_.size() && text_[pos_] == '.') {
            ++pos_;
            if (!digits())
                return fail(message("json.expected_fraction_digits", "expected digits after the decimal point"));
        }
        if (pos_ < text_.size() && (text_[pos_] == 'e' || text_[pos_] == 'E')) {
            ++pos_;
            if (pos_ < text_.size() && (text_[pos_] == '+' || text_[pos_] == '-')) ++pos_;
            if (!digits()) return fail(message("json.expected_exponent_digits", "expected digits in the exponent"));
        }
        if (pos_ - start > 400) return fail(message("json.number_too_long", "number too long"));
        const double value = read_decimal(text_.substr(start, pos_ - start));
        if (!std::isfinite(value)) return fail(message("json.number_out_of_range", "number out of range"));
        out.kind = Kind::number;
        out.number = value;
        return true;
    }

    std::string_view text_;
    std::size_t pos_ = 0;
    std::string error_;
    std::string error_path_;
    std::vector<std::string> path_;  // member names and "[i]" indices down to the current value
};

void write_escaped(std::string& out, std::string_view value) {
    out += '"';
    // Runs of characters that need no escape are appended whole: keys and prose are nearly all such.
    std::size_t plain_from = 0;
    for (std::size_t i = 0; i < value.size(); ++i) {
        const char c = value[i];
        if (c != '"' && c != '\\' && static_cast<unsigned char>(c) >= 0x20) continue;
        out.append(value.data() + plain_from, i - plain_from);
        plain_from = i + 1;
        switch (c) {
            case '"':
                out += "\\\"";
                break;
            case '\\':
                out += "\\\\";
                break;
            case '\n':
                out += "\\n";
                break;
            case '\r':
                out += "\\r";
                break;
            case '\t':
                out += "\\t";
                break;
            default:
                if (static_cast<unsigned char>(c) < 0x20) {
                    // Only control characters get here: below 0x20, two hex digits.
                    const char* const hex = "0123456789abcdef";
                    out += "\\u00";
                    out += hex[(c >> 4) & 0xF];
                    out += hex[c & 0xF];
                }
        }
    }
    out.append(value.data() + plain_from, value.size() - plain_from);
    out += '"';
}

}  // namespace

ParseResult parse(std::string_view text) { return Parser(text).run(); }

std::string format_number(double value) {
    if (!std::isfinite(value)) return "null";
    if (value == 0.0) return "0";
    // Whole numbers below 10^15 are what "%.15g" writes them as, digit for digit, and read back
    // exactly: skip the formatting and the round-trip check (most of an estimate's numbers).
    if (std::fabs(value) < 1e15 && value == std::floor(value)) return std::to_string(static_cast<long long>(value));
    const std::string shorter = write_decimal(value, 'g', 15);
    return read_decimal(shorter) == value ? shorter : write_decimal(value, 'g', 17);
}

void Writer::separate() {
    if (need_comma_) out_ += ',';
    need_comma_ = true;
}

Writer& Writer::begin_object() {
    separate();
    out_ += '{';
    need_comma_ = false;
    return *this;
}
Writer& Writer::end_object() {
    out_ += '}';
    need_comma_ = true;
    return *this;
}
Writer& Writer::begin_array() {
    separate();
    out_ += '[';
    need_comma_ = false;
    return *this;
}
Writer& Writer::end_array() {
    out_ += ']';
    need_comma_ = true;
    return *this;
}

Writer& Writer::key(std::string_view name) {
    separate();
    write_escaped(out_, name);
    out_ += ':';
    need_comma_ = false;
    return *this;
}

Writer& Writer::number(double value) {
    separate();
    all_numbers_finite_ = all_numbers_finite_ && std::isfinite(value);
    out_ += format_number(value);
    return *this;
}

Writer& Writer::integer(long long value) {
    separate();
    out_ += write_integer(value);
    return *this;
}

Writer& Writer::boolean(bool value) {
    separate();
    out_ += value ? "true" : "false";
    return *this;
}
Writer& Writer::string(std::string_view value) {
    separate();
    write_escaped(out_, value);
    return *this;
}
Writer& Writer::null() {
    separate();
    out_ += "null";
    return *this;
}
Writer& Writer::raw(std::string_view json_text) {
    separate();
    out_ += json_text;
    return *this;
}

namespace {
void serialize_into(Writer& writer, const Value& value) {
    switch (value.kind) {
        case Kind::null:
            writer.null();
            break;
        case Kind::boolean:
            writer.boolean(value.boolean);
            break;
        case Kind::number:
            writer.number(value.number);
            break;
        case Kind::string:
            writer.string(value.text);
            break;
        case Kind::array:
            writer.begin_array();
            for (const auto& item : value.items) serialize_into(writer, item);
            writer.end_array();
            break;
        case Kind::object:
            writer.begin_object();
            for (const auto& member : value.members) {
                writer.key(member.first);
                serialize_into(writer, member.second);
            }
            writer.end_object();
            break;
    }
}
}  // namespace

std::string serialize(const Value& value) {
    Writer writer;
    serialize_into(writer, value);
    return writer.take();
}

}  // namespace trainscope::json
