// musl libc's fmt_fp (src/stdio/vfprintf.c) for %e, %f and %g with double arguments, as
// Emscripten's printf builds it, writing to a string. No flags or widths: the engine uses none.
// musl: Copyright © 2005-2020 Rich Felker, et al. MIT licence (third_party/musl/COPYRIGHT).
#include <cfloat>
#include <climits>
#include <cmath>
#include <cstdint>

#include "engine/text/decimal.hpp"

namespace trainscope {

namespace {

// The digits of x, written backwards ending at `end`; returns where they start.
char* digits_before(std::uint32_t x, char* end) {
    for (; x; x /= 10) *--end = static_cast<char>('0' + x % 10);
    return end;
}

}  // namespace

std::string write_integer(long long value) {
    char buffer[24];
    char* end = buffer + sizeof buffer;
    unsigned long long x = value < 0 ? 0ull - static_cast<unsigned long long>(value) : static_cast<unsigned long long>(value);
    char* s = end;
    do {
        *--s = static_cast<char>('0' + x % 10);
        x /= 10;
    } while (x);
    if (value < 0) *--s = '-';
    return std::string(s, end);
}

std::string write_decimal(double y, char t, int p) {
    std::uint32_t big[(DBL_MANT_DIG + 28) / 29 + 1 + (DBL_MAX_EXP + DBL_MANT_DIG + 28 + 8) / 9];
    std::uint32_t *a, *d, *r, *z;
    int e2 = 0, e, i, j;
    char buf[9 + DBL_MANT_DIG / 4];
    std::string out;

    if (std::signbit(y)) {
        y = -y;
        out += '-';
    }
    const bool negative = !out.empty();
    if (!std::isfinite(y)) return out + (y != y ? "nan" : "inf");

    if (p < 0) p = 6;
    y = std::frexp(y, &e2) * 2;
    if (y != 0) e2--;
    if (y != 0) y *= 0x1p28, e2 -= 28;

    if (e2 < 0) a = r = z = big;
    else a = r = z = big + sizeof(big) / sizeof(*big) - DBL_MANT_DIG - 1;

    do {
        *z = static_cast<std::uint32_t>(y);
        y = 1000000000 * (y - *z++);
    } while (y != 0);

    while (e2 > 0) {
        std::uint32_t carry = 0;
        const int sh = e2 < 29 ? e2 : 29;
        for (d = z - 1; d >= a; d--) {
            const std::uint64_t x = (static_cast<std::uint64_t>(*d) << sh) + carry;
            *d = static_cast<std::uint32_t>(x % 1000000000);
            carry = static_cast<std::uint32_t>(x / 1000000000);
        }
        if (carry) *--a = carry;
        while (z > a && !z[-1]) z--;
        e2 -= sh;
    }
    while (e2 < 0) {
        std::uint32_t carry = 0, *b;
        const int sh = -e2 < 9 ? -e2 : 9;
        const int need = 1 + (p + DBL_MANT_DIG / 3 + 8) / 9;
        for (d = a; d < z; d++) {
            const std::uint32_t rm = *d & ((1U << sh) - 1);
            *d = (*d >> sh) + carry;
            carry = (1000000000U >> sh) * rm;
        }
        if (!*a) a++;
        if (carry) *z++ = carry;
        // No digits past the requested precision (slow).
        b = t == 'f' ? r : a;
        if (z - b > need) z = b + need;
        e2 += sh;
    }

    if (a < z) for (i = 10, e = static_cast<int>(9 * (r - a)); *a >= static_cast<std::uint32_t>(i); i *= 10, e++) {}
    else e = 0;

    // Rounding: j is the precision after the radix point (possibly negative).
    j = p - (t != 'f') * e - (t == 'g' && p);
    if (j < 9 * (z - r - 1)) {
        // C's division of negative numbers is avoided.
        d = r + 1 + ((j + 9 * DBL_MAX_EXP) / 9 - DBL_MAX_EXP);
        j += 9 * DBL_MAX_EXP;
        j %= 9;
        for (i = 10, j++; j < 9; i *= 10, j++) {}
        const std::uint32_t ui = static_cast<std::uint32_t>(i);
        const std::uint32_t x = *d % ui;
        // Significant digits past j?
        if (x || d + 1 != z) {
            double round = 2 / DBL_EPSILON;
            double small;
            if ((*d / ui & 1) || (i == 1000000000 && d > a && (d[-1] & 1))) round += 2;
            if (x < ui / 2) small = 0x0.8p0;
            else if (x == ui / 2 && d + 1 == z) small = 0x1.0p0;
            else small = 0x1.8p0;
            if (negative) round *= -1, small *= -1;
            *d -= x;
            // Round up when round + small differs from round.
            if (round + small != round) {
                *d = *d + ui;
                while (*d > 999999999) {
                    *d-- = 0;
                    if (d < a) *--a = 0;
                    (*d)++;
                }
                for (i = 10, e = static_cast<int>(9 * (r - a)); *a >= static_cast<std::uint32_t>(i); i *= 10, e++) {}
            }
        }
        if (z > d + 1) z = d + 1;
    }
    for (; z > a && !z[-1]; z--) {}

    if (t == 'g') {
        if (!p) p++;
        if (p > e && e >= -4) {
            t = 'f';
            p -= e + 1;
        } else {
            t = 'e';
            p--;
        }
        // Trailing zeros in the last place.
        if (z > a && z[-1]) for (i = 10, j = 0; z[-1] % static_cast<std::uint32_t>(i) == 0; i *= 10, j++) {}
        else j = 9;
        const int kept = t == 'f' ? static_cast<int>(9 * (z - r - 1)) - j : static_cast<int>(9 * (z - r - 1)) + e - j;
        p = p < (kept > 0 ? kept : 0) ? p : (kept > 0 ? kept : 0);
    }

    char* const end = buf + 9;
    if (t == 'f') {
        if (a > r) a = r;
        for (d = a; d <= r; d++) {
            char* s = digits_before(*d, end);
            if (d != a) while (s > buf) *--s = '0';
            else if (s == end) *--s = '0';
            out.append(s, end);
        }
        if (p) out += '.';
        for (; d < z && p > 0; d++, p -= 9) {
            char* s = digits_before(*d, end);
            while (s > buf) *--s = '0';
            out.append(s, static_cast<std::size_t>(p < 9 ? p : 9));
        }
        if (p > 0) out.append(static_cast<std::size_t>(p), '0');
    } else {
        if (z <= a) z = a + 1;
        for (d = a; d < z && p >= 0; d++) {
            char* s = digits_before(*d, end);
            if (s == end) *--s = '0';
            if (d != a) {
                while (s > buf) *--s = '0';
            } else {
                out += *s++;
                if (p > 0) out += '.';
            }
            const int length = static_cast<int>(end - s);
            out.append(s, static_cast<std::size_t>(length < p ? length : p));
            p -= length;
        }
        if (p > 0) out.append(static_cast<std::size_t>(p), '0');
        out += 'e';
        out += e < 0 ? '-' : '+';
        if (e > -10 && e < 10) out += '0';
        out += write_integer(e < 0 ? -e : e);
    }
    return out;
}

}  // namespace trainscope
