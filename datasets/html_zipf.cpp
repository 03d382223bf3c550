#include "datasets/html_zipf.h"

#include <algorithm>
#include <array>
#include <charconv>
#include <string_view>
#include <unordered_set>

#include "datasets/chunked.h"
#include "datasets/random.h"
#include "datasets/text_zipf.h"
#include "datasets/zipf_table.h"
#include "harness/core/errors.h"

namespace harness::datasets {
namespace {

constexpr std::uint32_t kTextWords = 20000;  // text draws from text-zipf's top words

bool lower_ascii(const std::string& w) {
  return std::all_of(w.begin(), w.end(), [](char c) { return c >= 'a' && c <= 'z'; });
}

template <std::size_t N>
const char* pick(Rng& rng, const std::array<const char*, N>& list) {
  return list[rng.below(static_cast<std::uint32_t>(N))];
}

struct Tables {
  std::vector<std::string> words;  // text-zipf's vocabulary, by rank
  std::vector<std::string> plain;  // its lower-case ASCII words, by rank (URL parts)
  std::vector<std::string> urls;   // link targets, most linked first
  ZipfTable word_zipf{kTextWords, 0.25};
  ZipfTable url_zipf{kHtmlZipfUrls, kHtmlZipfOffset};

  const std::string& word(Rng& rng) const { return words[word_zipf.sample(rng)]; }
  const std::string& plain_word(Rng& rng, std::uint32_t top) const {
    return plain[rng.below(std::min<std::uint32_t>(top, static_cast<std::uint32_t>(plain.size())))];
  }
};

std::string number(std::uint32_t n) { return std::to_string(n); }

// The URL of one rank: kinds in the proportions of a documentation site.
std::string make_url(Rng& rng, const Tables& t, const std::vector<std::string>& hosts,
                     const std::vector<std::string>& dirs) {
  auto name = [&] { return t.plain_word(rng, 8000); };
  auto host = [&] { return hosts[rng.below(static_cast<std::uint32_t>(hosts.size()))]; };
  auto dir = [&] { return dirs[rng.below(static_cast<std::uint32_t>(dirs.size()))]; };
  const std::uint32_t kind = rng.below(100);
  if (kind < 25) return name() + ".html";
  if (kind < 40) return dir() + "/" + name() + ".html";
  if (kind < 48) return "../" + dir() + "/" + name() + ".html";
  if (kind < 52) return name() + ".html#" + name();
  if (kind < 60)
    return rng.below(4) == 0 ? "/" + dir() + "/" : "/" + dir() + "/" + name() + ".html";
  if (kind < 75) return "https://" + host() + "/" + dir() + "/" + name() + ".html";
  if (kind < 80) return "http://" + host() + "/";
  if (kind < 86) {
    return "https://" + host() + "/" + name() + ".php?id=" + number(rng.below(5000)) +
           "&amp;lang=" + pick(rng, std::array{"en", "de", "fr", "ja"});
  }
  if (kind < 91) return "#" + name() + "-" + number(rng.below(40));
  if (kind < 95) return "mailto:" + name() + "@" + host();
  if (kind < 98) return dir() + "/" + name() + "%20" + name() + ".pdf";
  return "https://" + host() + "/wiki/" + name() + "_(" + name() + ")";
}

Tables build_tables(std::uint64_t seed) {
  Tables t;
  t.words = text_zipf_vocabulary(seed);
  for (const std::string& w : t.words) {
    if (w.size() >= 3 && lower_ascii(w)) t.plain.push_back(w);
  }
  t.words.resize(kTextWords);
  Rng rng(mix_seed(seed, 0x75726C73ULL));  // "urls"
  std::vector<std::string> hosts, dirs;
  for (int i = 0; i < 200; ++i) {
    const std::uint32_t form = rng.below(4);
    const std::string a = t.plain_word(rng, 3000), b = t.plain_word(rng, 3000);
    hosts.push_back(form == 0   ? "www." + a + ".org"
                    : form == 1 ? a + "." + b + ".com"
                    : form == 2 ? "docs." + a + ".net"
                                : a + ".example.edu");
  }
  for (int i = 0; i < 300; ++i) {
    const std::string a = t.plain_word(rng, 2000);
    const std::uint32_t form = rng.below(3);
    dirs.push_back(form == 0 ? a : form == 1 ? a + "/" + t.plain_word(rng, 2000) : "doc/" + a);
  }
  std::unordered_set<std::string> seen;
  t.urls = {"index.html", "https://" + hosts[0] + "/", "../index.html"};
  seen.insert(t.urls.begin(), t.urls.end());
  while (t.urls.size() < kHtmlZipfUrls) {
    std::string url = make_url(rng, t, hosts, dirs);
    if (seen.insert(url).second) t.urls.push_back(std::move(url));
  }
  return t;
}

char upper(char c) { return c >= 'a' && c <= 'z' ? static_cast<char>(c - 'a' + 'A') : c; }

// Writes pages into `out` until it holds at least `target` bytes.
class PageWriter {
 public:
  PageWriter(const Tables& t, Rng& rng, std::uint64_t chunk, std::string& out)
      : t_(t), rng_(rng), chunk_(chunk), out_(out) {}

  void run(std::size_t target) {
    for (std::uint32_t k = 0; out_.size() < target; ++k) page(k);
  }

 private:
  // ------------------------------------------------------------- lines
  void end_line() {
    out_ += line_;
    out_ += crlf_ ? "\r\n" : "\n";
    line_.clear();
  }
  void flush() {
    if (!line_.empty()) end_line();
  }
  void raw_line(std::string_view s) {
    glue_next_ = false;
    flush();
    line_ = s;
    end_line();
  }
  // A token joined to the line by a space, wrapped at the line width unless
  // the page is minified; `glue` joins without the space.
  void token(std::string_view tok, bool glue = false) {
    glue = glue || glue_next_;
    glue_next_ = false;
    if (!line_.empty() && !glue) {
      if (!minified_ && line_.size() + 1 + tok.size() > width_) {
        end_line();
      } else {
        line_ += ' ';
      }
    }
    line_ += tok;
  }
  // A block that starts on a new line (unless minified); the token after an
  // opening tag is joined to it.
  void block(std::string_view tok) {
    if (!minified_) flush();
    token(tok);
    glue_next_ = tok.size() > 1 && tok[1] != '/';
  }

  // ------------------------------------------------------------- pieces
  std::string capitalized(const std::string& w) {
    std::string s = w;
    if (!s.empty()) s[0] = upper(s[0]);
    return s;
  }
  std::string words(std::uint32_t n, bool capital) {
    std::string s;
    for (std::uint32_t i = 0; i < n; ++i) {
      if (i) s += ' ';
      s += i == 0 && capital ? capitalized(t_.word(rng_)) : t_.word(rng_);
    }
    return s;
  }
  std::string url() { return t_.urls[t_.url_zipf.sample(rng_)]; }
  std::string quoted(const std::string& v) {
    const std::uint32_t q = rng_.below(100);
    if (q < 78) return "\"" + v + "\"";
    if (q < 95) return "'" + v + "'";
    return v;  // unquoted: URLs hold no space, quote or '>'
  }
  std::string other_attribute() {
    switch (rng_.below(8)) {
      case 0:
        return "class=\"" + t_.plain_word(rng_, 300) + "\"";
      case 1:
        return "title=\"" + words(1 + rng_.below(4), true) + "\"";
      case 2:
        return "id=\"" + t_.plain_word(rng_, 3000) + "-" + number(rng_.below(99)) + "\"";
      case 3:
        return "rel=\"nofollow\"";
      case 4:
        return "target=\"_blank\"";
      case 5:
        return "data-href=\"" + url() + "\"";  // not an href: a decoy
      case 6:
        return "style=\"color: #" + number(100 + rng_.below(900)) + "\"";
      default:
        return "class='" + t_.plain_word(rng_, 300) + " " + t_.plain_word(rng_, 300) + "'";
    }
  }
  // An <a ...> start tag with an href.
  std::string anchor_open() {
    const bool caps = rng_.below(100) < 8;
    std::string tag = caps ? "<A" : "<a";
    tag += rng_.below(100) < 3 ? '\t' : ' ';
    const std::uint32_t before = rng_.below(100) < 30 ? 1 + rng_.below(2) : 0;
    for (std::uint32_t i = 0; i < before; ++i) tag += other_attribute() + " ";
    const char* name =
        caps ? (rng_.below(10) < 7 ? "HREF" : "href") : (rng_.below(100) < 3 ? "Href" : "href");
    const std::uint32_t eq = rng_.below(100);
    tag += name;
    tag += eq < 94 ? "=" : eq < 97 ? " = " : "= ";
    tag += quoted(url());
    if (rng_.below(1000) < 3) tag += " href=\"" + url() + "\"";  // repeated: the first counts
    if (rng_.below(100) < 20) tag += " " + other_attribute();
    return tag + ">";
  }
  // A link whose anchor text is `n` words; the start tag is one token.
  void link(std::uint32_t n) {
    token(anchor_open() + t_.word(rng_), false);
    for (std::uint32_t i = 1; i < n; ++i) token(t_.word(rng_));
    token("</a>", true);
  }

  void paragraph() {
    block("<p>");
    const std::uint32_t sentences = 1 + rng_.below(6);
    for (std::uint32_t s = 0; s < sentences; ++s) {
      const std::uint32_t n = 4 + rng_.below(12) + rng_.below(8);
      for (std::uint32_t i = 0; i < n; ++i) {
        const std::uint32_t r = rng_.below(1000);
        if (r < 45) {
          link(1 + rng_.below(4));
        } else if (r < 47) {
          token("<a name=\"" + t_.plain_word(rng_, 3000) + "\"></a>" + t_.word(rng_));  // no href
        } else if (r < 50) {
          token("<abbr title=\"" + words(2, true) + "\">" + upper_word() + "</abbr>");
        } else if (r < 54) {
          token("<em>" + t_.word(rng_) + "</em>");
        } else {
          const std::string& w = t_.word(rng_);
          token(i == 0 ? capitalized(w) : w);
        }
        if (i + 1 == n) {
          token(pick(rng_, std::array{".", ".", ".", "?", "!"}), true);
        } else if (rng_.below(100) < 8) {
          token(",", true);
        }
      }
    }
    token("</p>", !minified_ && rng_.below(2) == 0);
  }
  std::string upper_word() {
    std::string w = t_.plain_word(rng_, 500);
    for (char& c : w) c = upper(c);
    return w.substr(0, 4);
  }
  void list() {
    block(rng_.below(4) == 0 ? "<ol>" : "<ul class=\"toc\">");
    const std::uint32_t items = 2 + rng_.below(9);
    for (std::uint32_t i = 0; i < items; ++i) {
      block("<li>");
      link(1 + rng_.below(5));
      if (rng_.below(3) == 0) token(words(2 + rng_.below(6), false));
      token("</li>", true);
    }
    block("</ul>");
  }
  void heading() {
    const std::string level = number(2 + rng_.below(3));
    block("<h" + level + " id=\"" + t_.plain_word(rng_, 3000) + "\">" +
          words(1 + rng_.below(5), true) + "</h" + level + ">");
  }
  void image() {
    if (rng_.below(2) == 0) {
      block("<img src=\"/img/" + t_.plain_word(rng_, 3000) + ".png\" alt=\"" + words(3, true) +
            "\">");
    } else {  // an image map: <area href> is not an anchor
      block("<map name=\"m" + number(rng_.below(100)) +
            "\"><area shape=\"rect\" coords=\"0,0,9,9\" "
            "href=\"" +
            url() + "\" alt=\"" + t_.word(rng_) + "\"></map>");
    }
  }
  void pre() {
    block("<pre>");
    flush();
    const std::uint32_t lines = 1 + rng_.below(5);
    for (std::uint32_t i = 0; i < lines; ++i) {
      if (rng_.below(3) == 0) {
        raw_line("  &lt;a href=\"" + url() + "\"&gt;" + t_.word(rng_) + "&lt;/a&gt;");
      } else {
        raw_line("  " + t_.plain_word(rng_, 500) + "(" + number(rng_.below(100)) + ");");
      }
    }
    raw_line("</pre>");
  }

  void page(std::uint32_t k) {
    crlf_ = false;
    minified_ = false;
    // The delimiter line first, on a line of its own.
    raw_line("<!-- page: /site/" + number(static_cast<std::uint32_t>(chunk_)) + "/" +
             t_.plain_word(rng_, 5000) + "-" + number(k) + ".html -->");
    crlf_ = rng_.below(100) < 3;
    width_ = 60 + rng_.below(41);
    raw_line("<!DOCTYPE html>");
    raw_line(rng_.below(4) == 0 ? "<HTML>" : "<html lang=\"en\">");
    raw_line("<head>");
    raw_line("<meta charset=\"utf-8\">");
    raw_line("<title>" + words(2 + rng_.below(5), true) + "</title>");
    if (rng_.below(100) < 60)
      raw_line("<link rel=\"stylesheet\" href=\"/style/" + t_.plain_word(rng_, 50) + ".css\">");
    raw_line("</head>");
    raw_line(rng_.below(4) == 0 ? "<BODY>" : "<body>");
    minified_ = rng_.below(100) < 2;
    block("<div class=\"nav\">");
    const std::uint32_t nav = 2 + rng_.below(5);
    for (std::uint32_t i = 0; i < nav; ++i) {
      if (i) token("|");
      link(1 + rng_.below(2));
    }
    token("</div>", true);
    block("<h1>" + words(2 + rng_.below(5), true) + "</h1>");
    const std::uint32_t blocks = 3 + rng_.below(23);
    for (std::uint32_t b = 0; b < blocks; ++b) {
      const std::uint32_t r = rng_.below(100);
      if (r < 70) {
        paragraph();
      } else if (r < 85) {
        list();
      } else if (r < 92) {
        heading();
      } else if (r < 97) {
        image();
      } else {
        pre();
      }
    }
    block("<p class=\"footer\">");
    token(words(3, true));
    link(2);
    token("</p>", true);
    minified_ = false;
    raw_line(rng_.below(4) == 0 ? "</BODY>" : "</body>");
    raw_line("</html>");
  }

  const Tables& t_;
  Rng& rng_;
  std::uint64_t chunk_;
  std::string& out_;
  std::string line_;
  std::size_t width_ = 80;
  bool crlf_ = false;
  bool minified_ = false;
  bool glue_next_ = false;
};

// Chunk `index`, exactly `size` bytes, ending in '\n'.
void generate_chunk(const Tables& t, std::uint64_t seed, std::uint64_t index, std::size_t size,
                    std::string& out) {
  out.clear();
  if (size == 0) return;
  Rng rng(mix_seed(mix_seed(seed, 0x68746D6CULL), index));  // "html"
  out.reserve(size + 64 * 1024);
  PageWriter(t, rng, index, out).run(size);
  out.resize(size);
  end_chunk_with_newline(out);
}

class HtmlZipf final : public Generator {
 public:
  std::string name() const override { return "html-zipf"; }
  std::string description() const override {
    return "HTML pages ('<!-- page:' lines between them) with Zipf(1)-distributed <a href> links";
  }
  int version() const override { return 1; }
  std::string extension() const override { return "html"; }
  void generate(std::uint64_t size_bytes, std::uint64_t seed, std::ostream& out) const override {
    generate_html_zipf(size_bytes, seed, out, 0);
  }
};

}  // namespace

const Generator& html_zipf_generator() {
  static const HtmlZipf generator;
  return generator;
}

std::vector<std::string> html_zipf_urls(std::uint64_t seed) { return build_tables(seed).urls; }

void generate_html_zipf(std::uint64_t size_bytes, std::uint64_t seed, std::ostream& out,
                        unsigned threads, std::uint64_t chunk_bytes) {
  const Tables tables = size_bytes ? build_tables(seed) : Tables{};
  write_chunks("html-zipf", size_bytes, chunk_bytes, threads, out,
               [&](std::uint64_t index, std::size_t size, std::string& buffer) {
                 generate_chunk(tables, seed, index, size, buffer);
               });
}

}  // namespace harness::datasets
