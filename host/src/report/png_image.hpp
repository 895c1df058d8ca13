// png_image.hpp - writes 8-bit RGB pictures as PNG files (libpng).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace gsdk::host {

// rgb holds height rows of width pixels, 3 bytes each. Creates parent folders and writes atomically. Throws
// std::runtime_error naming the path.
void write_png(const std::string& path, uint32_t width, uint32_t height, const std::vector<uint8_t>& rgb);

} // namespace gsdk::host
