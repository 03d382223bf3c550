#include "frameworks/tables/tables.h"

#include <fmt/format.h>

#include <optional>
#include <ostream>

#include "harness/core/embedded_files.h"
#include "harness/core/errors.h"
#include "harness/core/registry.h"
#include "harness/core/stopwatch.h"

namespace harness::tables {

const std::vector<UserCodeRow>& user_code_rows() {
  static const std::vector<UserCodeRow> rows = {
      {"mars-ii", "II", "invertedindex", {"invertedindex"}, 375, 365},
      {"mars-sm", "SM", "stringmatch", {"stringmatch"}, 173, 250},
      {"mars-ss", "SS", "similarity", {"similarity"}, 258, 196},
      {"mars-mm", "MM", "matrixmult", {"matrixmult"}, 235, 317},
      {"mars-pvc", "PVC", "pageviewcount", {"pvc_dedup", "pvc_count"}, 276, 292},
      {"mars-pvr", "PVR", "pageviewrank", {"pvc_dedup", "pvc_count", "pvr_rank"}, 152, 166},
  };
  return rows;
}

std::vector<std::string> user_code_files(const UserCodeRow& row) {
  std::vector<std::string> files;
  for (const auto& job : row.jobs) {
    const std::string dir = "frameworks/mapreduce/apps/" + job + "/";
    files.push_back(dir + job + "_types.clh");
    files.push_back(dir + job + ".clh");
  }
  return files;
}

namespace {

bool blank(std::string_view line) {
  for (char c : line) {
    if (c != ' ' && c != '\t' && c != '\r' && c != '\f' && c != '\v') return false;
  }
  return true;
}

}  // namespace

std::uint64_t code_lines(std::string_view text) {
  // Pass 1: each /* up to the next */ becomes its newlines (an unclosed one
  // stays, as the regex leaves it).
  std::string kept;
  kept.reserve(text.size());
  for (std::size_t i = 0; i < text.size();) {
    if (text.compare(i, 2, "/*") == 0) {
      const std::size_t end = text.find("*/", i + 2);
      if (end != std::string_view::npos) {
        for (std::size_t j = i; j < end; ++j) {
          if (text[j] == '\n') kept += '\n';
        }
        i = end + 2;
        continue;
      }
    }
    kept += text[i++];
  }
  // Pass 2: each line without its // comment, counted when not blank.
  std::uint64_t lines = 0;
  std::string_view rest = kept;
  while (!rest.empty()) {
    const std::size_t nl = rest.find('\n');
    std::string_view line = rest.substr(0, nl);
    rest = nl == std::string_view::npos ? std::string_view{} : rest.substr(nl + 1);
    if (const std::size_t slash = line.find("//"); slash != std::string_view::npos)
      line = line.substr(0, slash);
    if (!blank(line)) ++lines;
  }
  return lines;
}

std::uint64_t code_lines_state_machine(std::string_view text) {
  enum class State { code, line_comment, block_comment };
  State state = State::code;
  bool has_code = false;  // the current line holds a character of code
  std::uint64_t lines = 0;
  for (std::size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    const char next = i + 1 < text.size() ? text[i + 1] : '\0';
    if (c == '\n') {
      if (has_code) ++lines;
      has_code = false;
      if (state == State::line_comment) state = State::code;
      continue;
    }
    switch (state) {
      case State::code:
        if (c == '/' && next == '*' && text.find("*/", i + 2) != std::string_view::npos) {
          state = State::block_comment;
          ++i;
        } else if (c == '/' && next == '/') {
          state = State::line_comment;
          ++i;
        } else if (c != ' ' && c != '\t' && c != '\r' && c != '\f' && c != '\v') {
          has_code = true;
        }
        break;
      case State::line_comment:
        break;
      case State::block_comment:
        if (c == '*' && next == '/') {
          state = State::code;
          ++i;
        }
        break;
    }
  }
  if (has_code) ++lines;
  return lines;
}

namespace {

std::string_view source_of(const std::string& path) {
  const auto text = embedded_file(path);
  if (!text) throw RunError(fmt::format("tables: {} is not among the embedded sources", path));
  return *text;
}

const UserCodeRow& row_of(const std::string& app) {
  for (const auto& row : user_code_rows()) {
    if (row.app == app) return row;
  }
  throw UsageError(fmt::format("tables/user-code: no table row for app {}", app));
}

// tables/user-code: one row of mars.tab5. Validation: the state machine's
// count equals the line filter's, and every repetition counts the same.
class UserCodePoint final : public PointRunner {
 public:
  explicit UserCodePoint(const PointContext& ctx) : row_(row_of(ctx.app)) {}

  void prepare() override {
    for (const auto& path : user_code_files(row_)) sources_.push_back(source_of(path));
  }
  Measurement run_once() override {
    Measurement m;
    Stopwatch total;
    lines_ = 0;
    for (auto text : sources_) lines_ += code_lines(text);
    m.total_ms = total.elapsed_ms();
    m.phases.push_back({"count", m.total_ms});
    m.counters["user_lines"] = static_cast<double>(lines_);
    m.counters["paper_mars_lines"] = row_.paper_mars;
    m.counters["paper_phoenix_lines"] = row_.paper_phoenix;
    m.counters["files"] = static_cast<double>(sources_.size());
    return m;
  }
  std::string validate_last() override {
    std::uint64_t check = 0;
    for (auto text : sources_) check += code_lines_state_machine(text);
    if (lines_ == 0) return fmt::format("{}: no line of user code counted", row_.app);
    if (check != lines_)
      return fmt::format("{}: {} lines by the line filter, {} by the state machine", row_.app,
                         lines_, check);
    if (first_ && *first_ != lines_)
      return fmt::format("{}: {} lines, {} in an earlier repetition", row_.app, lines_, *first_);
    first_ = lines_;
    return "";
  }
  Work work() const override {
    Work w;
    std::uint64_t bytes = 0;
    for (auto text : sources_) bytes += text.size();
    w.items("source_files", sources_.size(), "count").reads(level::host, bytes, "count");
    return w;
  }
  void dump_output(std::ostream& out) const override {
    out << row_.label << '\t' << row_.mapreduce_app << '\t' << lines_ << '\t' << row_.paper_mars
        << '\t' << row_.paper_phoenix << '\n';
  }

 private:
  const UserCodeRow& row_;
  std::vector<std::string_view> sources_;
  std::uint64_t lines_ = 0;
  std::optional<std::uint64_t> first_;
};

}  // namespace

void register_family() {
  static bool done = false;
  if (done) return;
  done = true;
  VariantInfo v;
  v.framework = "tables";
  v.name = "user-code";
  v.description =
      "non-blank, non-comment lines of an app's user code in the portable dialect (mars.tab5)";
  v.backends = {backend::Kind::cpu};
  for (const auto& row : user_code_rows()) {
    AppInfo app;
    app.name = row.app;
    app.kind = "table";
    app.description = fmt::format("mars.tab5 row {}: lines of user code of {} ({} .clh files)",
                                  row.label, row.mapreduce_app, 2 * row.jobs.size());
    app.reads_input = false;  // counts the embedded sources
    app.validation = {"exact", 0, 0};
    Registry::instance().add_app(std::move(app));
    v.apps.push_back(row.app);
  }
  v.make = [](const PointContext& ctx) { return std::make_unique<UserCodePoint>(ctx); };
  Registry::instance().add_variant(std::move(v));
}

}  // namespace harness::tables
