#pragma once
// Deterministic pseudo-random numbers for the demo generator. The output must be identical on
// every platform and standard library for a given seed (tests compare two runs row by row), so
// this uses SplitMix64 and its own float conversions instead of <random>'s distributions, whose
// results are implementation-defined.

#include <cstdint>

namespace ps::core::demo {

class DemoRandom
{
public:
    explicit DemoRandom(uint64_t seed) : m_state(seed) {}

    // Hash of a key tuple: lets any rank compute any other rank's factors without shared state.
    static uint64_t mix(uint64_t a, uint64_t b)
    {
        uint64_t z = a + 0x9E3779B97F4A7C15ull + (b << 6) + (b >> 2) + b * 0xBF58476D1CE4E5B9ull;
        return finalize(z);
    }
    static uint64_t mix(uint64_t a, uint64_t b, uint64_t c) { return mix(mix(a, b), c); }
    static uint64_t mix(uint64_t a, uint64_t b, uint64_t c, uint64_t d) { return mix(mix(a, b, c), d); }

    uint64_t next()
    {
        m_state += 0x9E3779B97F4A7C15ull;
        return finalize(m_state);
    }
    // Uniform in [0, 1), 53 bits.
    double uniform() { return static_cast<double>(next() >> 11) * (1.0 / 9007199254740992.0); }
    // Uniform integer in [lo, hi] (hi >= lo).
    int64_t range(int64_t lo, int64_t hi)
    {
        const uint64_t span = static_cast<uint64_t>(hi - lo) + 1;
        return lo + static_cast<int64_t>(next() % span);
    }
    // A duration around `nominal`, spread by +-`spread` (fraction), at least 1.
    int64_t around(int64_t nominal, double spread)
    {
        const double f = 1.0 + spread * (2.0 * uniform() - 1.0);
        const int64_t v = static_cast<int64_t>(static_cast<double>(nominal) * f);
        return v > 0 ? v : 1;
    }

private:
    static uint64_t finalize(uint64_t z)
    {
        z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
        z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
        return z ^ (z >> 31);
    }

    uint64_t m_state;
};

} // namespace ps::core::demo
