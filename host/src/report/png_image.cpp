// png_image.cpp - PNG output through libpng's simplified write API.
#include "report/png_image.hpp"

#include <stdexcept>

#include <png.h>

#include "report/output_file.hpp"

namespace gsdk::host {

void write_png(const std::string& path, uint32_t width, uint32_t height, const std::vector<uint8_t>& rgb) {
  if (rgb.size() != uint64_t{width} * height * 3)
    throw std::runtime_error(path + ": picture of " + std::to_string(width) + "x" + std::to_string(height) +
                             " pixels came with " + std::to_string(rgb.size()) + " bytes");
  png_image image{};
  image.version = PNG_IMAGE_VERSION;
  image.width = width;
  image.height = height;
  image.format = PNG_FORMAT_RGB;
  // Encoded in memory first, so that the file is written atomically like every other output.
  png_alloc_size_t size = 0;
  if (!png_image_write_get_memory_size(image, size, 0, rgb.data(), 0, nullptr))
    throw std::runtime_error(path + ": cannot encode the PNG picture: " + image.message);
  std::string encoded(size, '\0');
  if (!png_image_write_to_memory(&image, encoded.data(), &size, 0, rgb.data(), 0, nullptr))
    throw std::runtime_error(path + ": cannot encode the PNG picture: " + image.message);
  encoded.resize(size);
  write_file(path, encoded);
}

} // namespace gsdk::host
