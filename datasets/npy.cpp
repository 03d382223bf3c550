#include "datasets/npy.h"

#include <fmt/format.h>

#include <cstring>
#include <string_view>

#include "harness/core/errors.h"

namespace harness::datasets {

std::uint64_t NpyArray::elements() const {
  std::uint64_t n = 1;
  for (std::uint64_t d : shape) n *= d;
  return n;
}

namespace {

[[noreturn]] void bad(const std::string& what, const std::string& why) {
  throw UsageError(what + ": not a float32 .npy array (" + why +
                   "); save it with numpy.save(f, array.astype(numpy.float32))");
}

// The value of `'key': ` in the header dictionary, up to the next top-level ',' or '}'.
std::string_view dict_value(std::string_view header, std::string_view key) {
  const std::string quoted = "'" + std::string(key) + "'";
  std::size_t at = header.find(quoted);
  if (at == std::string_view::npos) return {};
  at = header.find(':', at + quoted.size());
  if (at == std::string_view::npos) return {};
  ++at;
  while (at < header.size() && header[at] == ' ') ++at;
  std::size_t end = at;
  int depth = 0;
  while (end < header.size()) {
    const char c = header[end];
    if (c == '(') ++depth;
    if (c == ')') --depth;
    if (depth == 0 && (c == ',' || c == '}')) break;
    ++end;
  }
  return header.substr(at, end - at);  // a tuple's inner ',' is at depth 1: kept
}

std::vector<std::uint64_t> parse_shape(std::string_view text, const std::string& what) {
  if (text.size() < 2 || text.front() != '(' || text.back() != ')') bad(what, "bad shape");
  std::vector<std::uint64_t> shape;
  std::string_view body = text.substr(1, text.size() - 2);
  while (!body.empty()) {
    std::size_t i = 0;
    while (i < body.size() && body[i] == ' ') ++i;
    std::uint64_t v = 0;
    std::size_t digits = 0;
    while (i < body.size() && body[i] >= '0' && body[i] <= '9') {
      v = v * 10 + static_cast<std::uint64_t>(body[i] - '0');
      ++i, ++digits;
      if (digits > 15) bad(what, "dimension too large");
    }
    while (i < body.size() && body[i] == ' ') ++i;
    if (digits == 0) {
      if (i == body.size()) break;
      bad(what, "bad shape");
    }
    shape.push_back(v);
    if (i < body.size() && body[i] != ',') bad(what, "bad shape");
    body = i < body.size() ? body.substr(i + 1) : std::string_view{};
  }
  return shape;
}

}  // namespace

NpyArray parse_npy(const std::uint8_t* data, std::size_t size, std::size_t offset,
                   const std::string& what) {
  static constexpr char kMagic[] = "\x93NUMPY";
  if (size < offset + 10 || std::memcmp(data + offset, kMagic, 6) != 0) bad(what, "no .npy magic");
  const std::uint8_t major = data[offset + 6];
  std::uint64_t header_len = 0, prefix = 0;
  if (major == 1) {
    header_len = data[offset + 8] | (std::uint64_t{data[offset + 9]} << 8);
    prefix = 10;
  } else if (major == 2 || major == 3) {
    if (size < offset + 12) bad(what, "truncated header");
    for (int i = 3; i >= 0; --i) header_len = (header_len << 8) | data[offset + 8 + i];
    prefix = 12;
  } else {
    bad(what, fmt::format("format version {}", major));
  }
  if (offset + prefix + header_len > size) bad(what, "truncated header");
  const std::string_view header(reinterpret_cast<const char*>(data + offset + prefix), header_len);
  const std::string_view descr = dict_value(header, "descr");
  if (descr != "'<f4'" && descr != "'float32'") {
    bad(what, "dtype " + std::string(descr) + ", not '<f4' (little-endian float32)");
  }
  if (dict_value(header, "fortran_order") != "False") bad(what, "Fortran order");
  NpyArray a;
  a.shape = parse_shape(dict_value(header, "shape"), what);
  a.data_offset = offset + prefix + header_len;
  if (a.data_offset % 4 != 0) bad(what, "data not 4-byte aligned");
  if (a.end() > size) {
    bad(what, fmt::format("shape needs {} bytes of data, the file has {}", 4 * a.elements(),
                          size - a.data_offset));
  }
  return a;
}

std::vector<NpyArray> parse_npy_arrays(const std::uint8_t* data, std::size_t size,
                                       const std::string& what) {
  std::vector<NpyArray> out;
  std::size_t at = 0;
  do {
    out.push_back(parse_npy(data, size, at, what));
    at = out.back().end();
  } while (at < size);
  return out;
}

std::string npy_header(const std::vector<std::uint64_t>& shape) {
  std::string dims;
  for (std::uint64_t d : shape) dims += std::to_string(d) + ", ";
  if (shape.size() > 1) dims.resize(dims.size() - 2);
  if (shape.size() == 1) dims.resize(dims.size() - 1);
  std::string dict = "{'descr': '<f4', 'fortran_order': False, 'shape': (" + dims + "), }";
  const std::size_t total = (10 + dict.size() + 1 + 63) / 64 * 64;
  dict.append(total - 10 - dict.size() - 1, ' ');
  dict += '\n';
  std::string header = "\x93NUMPY";
  header += '\x01';
  header += '\x00';
  header += static_cast<char>(dict.size() & 0xff);
  header += static_cast<char>(dict.size() >> 8);
  return header + dict;
}

}  // namespace harness::datasets
