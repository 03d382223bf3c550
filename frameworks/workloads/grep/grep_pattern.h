// Grep's patterns (thesis section 5.3: a recursive matcher, the divergent
// case): Kernighan and Pike's little regular expressions.
//   c    a byte that matches itself
//   .    any byte
//   ^    at the pattern's start: the line's start
//   $    at the pattern's end: the line's end
//   x*   zero or more of the atom x (a byte or '.'), as many as possible
// Elsewhere '^' and '$' are literal bytes; a '*' with no atom before it is an
// error. A line matches when the pattern matches somewhere in it (the line
// without its '\n'). Two matchers: the recursive backtracking one the thesis
// runs (the CPU-MT baseline and the families' kernels follow it), and a
// state-set simulation that never backtracks (the reference).
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace harness::workloads::grep {

struct Atom {
  bool any = false;       // '.'
  std::uint8_t byte = 0;  // when !any
  bool star = false;      // followed by '*'
};

struct Pattern {
  bool anchored_start = false, anchored_end = false;
  std::vector<Atom> atoms;
};

// Throws UsageError for an empty pattern, a newline in it, or a '*' with no
// atom before it.
Pattern parse_pattern(const std::string& text);

// Recursive backtracking (matchhere / matchstar): whether `pattern` occurs in
// line[0, length).
bool backtracking_match(const Pattern& pattern, const std::uint8_t* line, std::size_t length);

// The set of pattern positions reachable after each byte, advanced in one
// pass over the line: whether `pattern` occurs in line[0, length).
bool state_set_match(const Pattern& pattern, const std::uint8_t* line, std::size_t length);

}  // namespace harness::workloads::grep
