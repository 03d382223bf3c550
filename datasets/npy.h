// NumPy .npy files (format versions 1.0-3.0) of little-endian float32 arrays in
// C order: the format of the matrix, point and feature datasets and of users'
// own numeric inputs. Several arrays may follow one another in one file, as
// `np.save` called repeatedly on one open file writes them (`np.load` on that
// file handle reads them back in order).
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace harness::datasets {

struct NpyArray {
  std::vector<std::uint64_t> shape;
  std::uint64_t data_offset = 0;  // bytes from the start of the buffer to the first element
  std::uint64_t elements() const;
  std::uint64_t end() const { return data_offset + 4 * elements(); }  // one past the data
};

// Parses the array whose header starts at `offset`. Throws UsageError naming
// `what` for anything but a well-formed float32 ('<f4'), C-order array whose
// data lies within [0, size).
NpyArray parse_npy(const std::uint8_t* data, std::size_t size, std::size_t offset,
                   const std::string& what);

// Every array of the buffer, one after another (at least one).
std::vector<NpyArray> parse_npy_arrays(const std::uint8_t* data, std::size_t size,
                                       const std::string& what);

// A version 1.0 header for a float32 C-order array of `shape`, padded so the
// data starts at a multiple of 64 bytes, as NumPy writes it.
std::string npy_header(const std::vector<std::uint64_t>& shape);

}  // namespace harness::datasets
