#pragma once
// The fuzz input as the file a reader opens: written to `path` (a per-process temp file).

#include <cstdint>
#include <cstdio>
#include <string>

inline bool writeFuzzInput(const std::string &path, const void *data, size_t size)
{
    FILE *f = std::fopen(path.c_str(), "wb");
    if (!f)
        return false;
    const bool ok = std::fwrite(data, 1, size, f) == size;
    return std::fclose(f) == 0 && ok;
}
