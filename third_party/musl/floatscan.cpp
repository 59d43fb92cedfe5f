// musl libc's decimal reader (src/internal/floatscan.c, decfloat) as musl builds it where long
// double is double, which makes it correctly rounded in plain double arithmetic.
// musl: Copyright © 2005-2020 Rich Felker, et al. MIT licence (the full text is in
// third_party/musl/COPYRIGHT).
#include "engine/text/decimal.hpp"

#include <cfloat>
#include <climits>
#include <cmath>
#include <cstdint>

namespace trainscope {

namespace {

constexpr int b1b_digits = 2;  // base-1e9 digits of 2^53
constexpr std::uint32_t b1b_max[] = {9007199, 254740991};
constexpr int kmax = 128;
constexpr int mask = kmax - 1;

class Text {
public:
    explicit Text(std::string_view text) : text_(text) {}
    int get() { return pos_ < text_.size() ? static_cast<unsigned char>(text_[pos_++]) : (++pos_, -1); }
    void unget() { --pos_; }

private:
    std::string_view text_;
    std::size_t pos_ = 0;
};

bool is_digit(int c) { return static_cast<unsigned>(c - '0') < 10U; }

long long read_exponent(Text& f) {
    int c = f.get();
    bool negative = false;
    if (c == '+' || c == '-') {
        negative = c == '-';
        c = f.get();
    }
    if (!is_digit(c)) return LLONG_MIN;
    int x = 0;
    for (; is_digit(c) && x < INT_MAX / 10; c = f.get()) x = 10 * x + c - '0';
    long long y = x;
    for (; is_digit(c) && y < LLONG_MAX / 100; c = f.get()) y = 10 * y + c - '0';
    return negative ? -y : y;
}

double decimal(Text& f, int c, double sign) {
    constexpr int bits_wanted = DBL_MANT_DIG;
    constexpr int emin = DBL_MIN_EXP - bits_wanted;
    constexpr int emax = -emin - bits_wanted + 3;
    static const int p10s[] = {10, 100, 1000, 10000, 100000, 1000000, 10000000, 100000000};
    std::uint32_t x[kmax];
    int i = 0, j = 0, k = 0;
    long long lrp = 0, dc = 0;
    int lnz = 0;
    bool gotdig = false, gotrad = false;
    int bits = bits_wanted;
    bool denormal = false;
    double frac = 0;
    double bias = 0;

    // Leading zeros take no buffer space.
    for (; c == '0'; c = f.get()) gotdig = true;
    if (c == '.') {
        gotrad = true;
        for (c = f.get(); c == '0'; c = f.get()) gotdig = true, lrp--;
    }

    x[0] = 0;
    for (; is_digit(c) || c == '.'; c = f.get()) {
        if (c == '.') {
            if (gotrad) break;
            gotrad = true;
            lrp = dc;
        } else if (k < kmax - 3) {
            dc++;
            if (c != '0') lnz = static_cast<int>(dc);
            if (j) x[k] = x[k] * 10 + static_cast<std::uint32_t>(c - '0');
            else x[k] = static_cast<std::uint32_t>(c - '0');
            if (++j == 9) {
                k++;
                j = 0;
            }
            gotdig = true;
        } else {
            dc++;
            if (c != '0') {
                lnz = (kmax - 4) * 9;
                x[kmax - 4] |= 1;
            }
        }
    }
    if (!gotrad) lrp = dc;

    if (gotdig && (c | 32) == 'e') {
        const long long e10 = read_exponent(f);
        if (e10 != LLONG_MIN) lrp += e10;
    }
    if (!gotdig) return 0;

    // Zero is special, to avoid nasty special cases later.
    if (!x[0]) return sign * 0.0;

    // Small integers without exponent, overflow and underflow.
    if (lrp == dc && dc < 10) return sign * static_cast<double>(x[0]);
    if (lrp > -emin / 2) return sign * DBL_MAX * DBL_MAX;
    if (lrp < emin - 2 * DBL_MANT_DIG) return sign * DBL_MIN * DBL_MIN;

    // Align an incomplete final base-1e9 digit.
    if (j) {
        for (; j < 9; j++) x[k] *= 10;
        k++;
        j = 0;
    }

    int a = 0;
    int z = k;
    int e2 = 0;
    int rp = static_cast<int>(lrp);

    // Small to mid-size integers, even in exponent notation.
    if (lnz < 9 && lnz <= rp && rp < 18) {
        if (rp == 9) return sign * static_cast<double>(x[0]);
        if (rp < 9) return sign * static_cast<double>(x[0]) / p10s[8 - rp];
        const int bitlim = bits - 3 * (rp - 9);
        if (bitlim > 30 || x[0] >> bitlim == 0) return sign * static_cast<double>(x[0]) * p10s[rp - 10];
    }

    // Drop trailing zeros.
    for (; !x[z - 1]; z--) {}

    // Align the radix point to a base-1e9 digit boundary.
    if (rp % 9) {
        const int rpm9 = rp >= 0 ? rp % 9 : rp % 9 + 9;
        const std::uint32_t p10 = static_cast<std::uint32_t>(p10s[8 - rpm9]);
        std::uint32_t carry = 0;
        for (k = a; k != z; k++) {
            const std::uint32_t tmp = x[k] % p10;
            x[k] = x[k] / p10 + carry;
            carry = 1000000000 / p10 * tmp;
            if (k == a && !x[k]) {
                a = (a + 1) & mask;
                rp -= 9;
            }
        }
        if (carry) x[z++] = carry;
        rp += 9 - rpm9;
    }

    // Upscale until the wanted number of bits are left of the radix point.
    while (rp < 9 * b1b_digits || (rp == 9 * b1b_digits && x[a] < b1b_max[0])) {
        std::uint32_t carry = 0;
        e2 -= 29;
        for (k = (z - 1) & mask;; k = (k - 1) & mask) {
            const std::uint64_t tmp = (static_cast<std::uint64_t>(x[k]) << 29) + carry;
            if (tmp > 1000000000) {
                carry = static_cast<std::uint32_t>(tmp / 1000000000);
                x[k] = static_cast<std::uint32_t>(tmp % 1000000000);
            } else {
                carry = 0;
                x[k] = static_cast<std::uint32_t>(tmp);
            }
            if (k == ((z - 1) & mask) && k != a && !x[k]) z = k;
            if (k == a) break;
        }
        if (carry) {
            rp += 9;
            a = (a - 1) & mask;
            if (a == z) {
                z = (z - 1) & mask;
                x[(z - 1) & mask] |= x[z];
            }
            x[a] = carry;
        }
    }

    // Downscale until exactly the wanted number of bits are left of the radix point.
    for (;;) {
        std::uint32_t carry = 0;
        int sh = 1;
        for (i = 0; i < b1b_digits; i++) {
            k = (a + i) & mask;
            if (k == z || x[k] < b1b_max[i]) {
                i = b1b_digits;
                break;
            }
            if (x[(a + i) & mask] > b1b_max[i]) break;
        }
        if (i == b1b_digits && rp == 9 * b1b_digits) break;
        if (rp > 9 + 9 * b1b_digits) sh = 9;
        e2 += sh;
        for (k = a; k != z; k = (k + 1) & mask) {
            const std::uint32_t tmp = x[k] & ((1U << sh) - 1);
            x[k] = (x[k] >> sh) + carry;
            carry = (1000000000U >> sh) * tmp;
            if (k == a && !x[k]) {
                a = (a + 1) & mask;
                i--;
                rp -= 9;
            }
        }
        if (carry) {
            if (((z + 1) & mask) != a) {
                x[z] = carry;
                z = (z + 1) & mask;
            } else {
                x[(z - 1) & mask] |= 1;
            }
        }
    }

    // Assemble the wanted bits into a double.
    double y = 0;
    for (i = 0; i < b1b_digits; i++) {
        if (((a + i) & mask) == z) x[(z = (z + 1) & mask) - 1] = 0;
        y = 1000000000.0 * y + x[(a + i) & mask];
    }

    y *= sign;

    // Fewer bits for a denormal result.
    if (bits > DBL_MANT_DIG + e2 - emin) {
        bits = DBL_MANT_DIG + e2 - emin;
        if (bits < 0) bits = 0;
        denormal = true;
    }

    // A bias term forces rounding; the lower bits move out.
    if (bits < DBL_MANT_DIG) {
        bias = std::copysign(std::scalbn(1, 2 * DBL_MANT_DIG - bits - 1), y);
        frac = std::fmod(y, std::scalbn(1, DBL_MANT_DIG - bits));
        y -= frac;
        y += bias;
    }

    // The tail of the decimal input affects rounding.
    if (((a + i) & mask) != z) {
        const std::uint32_t t = x[(a + i) & mask];
        if (t < 500000000 && (t || ((a + i + 1) & mask) != z)) frac += 0.25 * sign;
        else if (t > 500000000) frac += 0.75 * sign;
        else if (t == 500000000) {
            if (((a + i + 1) & mask) == z) frac += 0.5 * sign;
            else frac += 0.75 * sign;
        }
        if (DBL_MANT_DIG - bits >= 2 && std::fmod(frac, 1) == 0) frac++;
    }

    y += frac;
    y -= bias;

    if (((e2 + DBL_MANT_DIG) & INT_MAX) > emax - 5) {
        if (std::fabs(y) >= 2 / DBL_EPSILON) {
            y *= 0.5;
            e2++;
        }
    }
    (void)denormal;
    return std::scalbn(y, e2);
}

}  // namespace

double read_decimal(std::string_view text) {
    Text f(text);
    int c = f.get();
    double sign = 1;
    if (c == '+' || c == '-') {
        if (c == '-') sign = -1;
        c = f.get();
    }
    return decimal(f, c, sign);
}

}  // namespace trainscope
