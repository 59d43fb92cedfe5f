#include <string>

#include "catch_include.hpp"
#include "engine/text/utf8.hpp"

using trainscope::utf8::first_invalid_byte;
using trainscope::utf8::truncate;

TEST_CASE("a cut never splits a character", "[utf8]") {
    std::string forty_e_acute;
    for (int i = 0; i < 40; ++i) forty_e_acute += "\xC3\xA9";  // é is two bytes
    const std::string cut = truncate(forty_e_acute, 61);       // 61 lands inside the 31st é
    CHECK(first_invalid_byte(cut) == trainscope::utf8::valid);
    CHECK(cut == forty_e_acute.substr(0, 60) + "\xE2\x80\xA6");
}

TEST_CASE("text that fits is not cut", "[utf8]") { CHECK(truncate("gpus", 60) == "gpus"); }

TEST_CASE("a cut of four-byte characters keeps whole characters", "[utf8]") {
    const std::string faces = "\xF0\x9F\x98\x80\xF0\x9F\x98\x80";
    CHECK(truncate(faces, 5) == "\xF0\x9F\x98\x80\xE2\x80\xA6");
    CHECK(truncate(faces, 3) == "\xE2\x80\xA6");
}

TEST_CASE("the first invalid byte is reported by offset", "[utf8]") {
    CHECK(first_invalid_byte("ab\xFF") == 2);
    CHECK(first_invalid_byte("\xC3") == 0);  // truncated sequence
    CHECK(first_invalid_byte("\xC3\xA9") == trainscope::utf8::valid);
}
