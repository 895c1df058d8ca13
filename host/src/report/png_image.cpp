// png_image.cpp - PNG output through libpng's simplified write API.
#include "report/png_image.hpp"

#include <filesystem>
#include <stdexcept>

#include <png.h>

namespace gsdk::host {

void write_png(const std::string& path, uint32_t width, uint32_t height, const std::vector<uint8_t>& rgb) {
  if (rgb.size() != uint64_t{width} * height * 3)
    throw std::runtime_error(path + ": picture of " + std::to_string(width) + "x" + std::to_string(height) +
                             " pixels came with " + std::to_string(rgb.size()) + " bytes");
  const std::filesystem::path parent = std::filesystem::path(path).parent_path();
  if (!parent.empty()) std::filesystem::create_directories(parent);
  png_image image{};
  image.version = PNG_IMAGE_VERSION;
  image.width = width;
  image.height = height;
  image.format = PNG_FORMAT_RGB;
  if (!png_image_write_to_file(&image, path.c_str(), 0, rgb.data(), 0, nullptr))
    throw std::runtime_error(path + ": cannot write the PNG file: " + image.message);
}

} // namespace gsdk::host
