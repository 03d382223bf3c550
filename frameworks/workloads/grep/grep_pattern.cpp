#include "frameworks/workloads/grep/grep_pattern.h"

#include "harness/core/errors.h"

namespace harness::workloads::grep {

Pattern parse_pattern(const std::string& text) {
  if (text.empty()) throw UsageError("grep: the pattern is empty");
  if (text.find('\n') != std::string::npos) throw UsageError("grep: the pattern holds a newline");
  Pattern p;
  std::size_t begin = 0, end = text.size();
  if (text[0] == '^') {
    p.anchored_start = true;
    begin = 1;
  }
  if (end > begin && text[end - 1] == '$') {
    p.anchored_end = true;
    --end;
  }
  for (std::size_t i = begin; i < end; ++i) {
    if (text[i] == '*') {
      if (p.atoms.empty() || p.atoms.back().star)
        throw UsageError("grep: '*' at byte " + std::to_string(i) + " of pattern '" + text +
                         "' follows no atom");
      p.atoms.back().star = true;
      continue;
    }
    Atom a;
    a.any = text[i] == '.';
    a.byte = static_cast<std::uint8_t>(text[i]);
    p.atoms.push_back(a);
  }
  return p;
}

namespace {

bool matches(const Atom& a, std::uint8_t c) { return a.any || a.byte == c; }

bool match_here(const Pattern& p, std::size_t atom, const std::uint8_t* s, const std::uint8_t* end);

// Zero or more of p.atoms[atom], then the rest: longest first, backing off.
bool match_star(const Pattern& p, std::size_t atom, const std::uint8_t* s,
                const std::uint8_t* end) {
  const std::uint8_t* t = s;
  while (t < end && matches(p.atoms[atom], *t)) ++t;
  for (;;) {
    if (match_here(p, atom + 1, t, end)) return true;
    if (t == s) return false;
    --t;
  }
}

bool match_here(const Pattern& p, std::size_t atom, const std::uint8_t* s,
                const std::uint8_t* end) {
  if (atom == p.atoms.size()) return !p.anchored_end || s == end;
  if (p.atoms[atom].star) return match_star(p, atom, s, end);
  if (s < end && matches(p.atoms[atom], *s)) return match_here(p, atom + 1, s + 1, end);
  return false;
}

}  // namespace

bool backtracking_match(const Pattern& p, const std::uint8_t* line, std::size_t length) {
  const std::uint8_t* end = line + length;
  if (p.anchored_start) return match_here(p, 0, line, end);
  for (const std::uint8_t* s = line;; ++s) {
    if (match_here(p, 0, s, end)) return true;
    if (s == end) return false;
  }
}

bool state_set_match(const Pattern& p, const std::uint8_t* line, std::size_t length) {
  const std::size_t n = p.atoms.size();
  // live[i]: the atoms before i have matched a prefix ending here. A starred
  // atom may match nothing, so reaching i also reaches i+1 past it.
  std::vector<char> live(n + 1, 0), next(n + 1, 0);
  auto close = [&](std::vector<char>& set) {
    for (std::size_t i = 0; i < n; ++i) {
      if (set[i] && p.atoms[i].star) set[i + 1] = 1;
    }
  };
  auto accepted = [&](bool at_end) { return live[n] && (!p.anchored_end || at_end); };
  live[0] = 1;
  close(live);
  if (accepted(length == 0)) return true;
  for (std::size_t k = 0; k < length; ++k) {
    std::fill(next.begin(), next.end(), 0);
    for (std::size_t i = 0; i < n; ++i) {
      if (!live[i] || !matches(p.atoms[i], line[k])) continue;
      if (p.atoms[i].star) next[i] = 1;  // one more of it
      next[i + 1] = 1;
    }
    if (!p.anchored_start) next[0] = 1;  // a match may start at the next byte
    live.swap(next);
    close(live);
    if (accepted(k + 1 == length)) return true;
  }
  return false;
}

}  // namespace harness::workloads::grep
