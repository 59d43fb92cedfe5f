// Debian's Catch2 v2 lives at <catch2/catch.hpp>; under em++ we add its folder with
// -isystem (never -I/usr/include, which would pull in glibc headers) and include it bare.
#pragma once
#if defined(TRAINSCOPE_CATCH_SINGLE_HEADER)
#include <catch.hpp>
#else
#include <catch2/catch.hpp>
#endif
