// The sentiment lexicon of Opinion Finder (thesis ch4/ch5): its three
// dictionaries of positive words, negative words and adverbs (intensifiers
// such as "very"), and the topic keywords the "tweets" generator writes. The
// opinion-finder workload scores with these lists and the generator draws its
// sentiment words from them, so both read this one file (scripts/
// opinion_finder_check.py reads it too).
//
// Every word is 1 to 16 lower-case ASCII letters; the three dictionaries are
// disjoint and hold no topic keyword (the workload's tests check it). Each
// dictionary is ordered by how often the generator uses a word (Zipf ranks):
// the common words first.
#pragma once

#include <array>
#include <string_view>

namespace harness::datasets {

inline constexpr std::array<std::string_view, 120> kPositiveWords = {
    "good",       "love",        "great",      "best",      "like",      "happy",
    "awesome",    "nice",        "amazing",    "better",    "cool",      "perfect",
    "fun",        "loved",       "excellent",  "beautiful", "thanks",    "fantastic",
    "wonderful",  "favorite",    "enjoy",      "glad",      "fast",      "win",
    "sweet",      "lovely",      "brilliant",  "loves",     "liked",     "excited",
    "impressive", "smooth",      "easy",       "recommend", "reliable",  "solid",
    "incredible", "worth",       "pleased",    "stunning",  "enjoyed",   "likes",
    "fabulous",   "superb",      "helpful",    "clear",     "bright",    "crisp",
    "stable",     "satisfied",   "thank",      "wow",       "yay",       "lucky",
    "proud",      "joy",         "adore",      "cute",      "delicious", "comfortable",
    "fresh",      "friendly",    "handy",      "neat",      "terrific",  "outstanding",
    "impressed",  "delighted",   "exciting",   "gorgeous",  "elegant",   "durable",
    "efficient",  "fair",        "genius",     "healthy",   "intuitive", "magnificent",
    "marvelous",  "masterpiece", "phenomenal", "pleasant",  "polished",  "powerful",
    "premium",    "rocks",       "sharp",      "slick",     "snappy",    "spectacular",
    "splendid",   "strong",      "stellar",    "stylish",   "success",   "successful",
    "thrilled",   "tremendous",  "trusty",     "valuable",  "vibrant",   "winning",
    "winner",     "wins",        "adorable",   "charming",  "classy",    "enjoying",
    "favourite",  "flawless",    "grateful",   "heavenly",  "ideal",     "luxurious",
    "refreshing", "responsive",  "seamless",   "speedy",    "superior",  "sturdy",
};

inline constexpr std::array<std::string_view, 120> kNegativeWords = {
    "bad",          "hate",       "worst",         "sad",       "terrible",       "slow",
    "awful",        "broken",     "worse",         "annoying",  "fail",           "sucks",
    "horrible",     "poor",       "dead",          "angry",     "crash",          "useless",
    "disappointed", "problem",    "ugly",          "boring",    "stupid",         "died",
    "hated",        "lag",        "drain",         "issue",     "failed",         "crashed",
    "buggy",        "laggy",      "bug",           "waste",     "wrong",          "overpriced",
    "upset",        "annoyed",    "frustrating",   "problems",  "issues",         "trash",
    "garbage",      "weak",       "broke",         "crashes",   "drains",         "drained",
    "fails",        "failure",    "disappointing", "hates",     "lame",           "mess",
    "nasty",        "pathetic",   "painful",       "pain",      "regret",         "ridiculous",
    "rubbish",      "scam",       "shame",         "sick",      "unhappy",        "unreliable",
    "wasted",       "worthless",  "frustrated",    "overheat",  "overheating",    "freeze",
    "frozen",       "freezes",    "glitch",        "glitchy",   "junk",           "defective",
    "faulty",       "noisy",      "dull",          "expensive", "hurt",           "hurts",
    "mad",          "meh",        "fake",          "crappy",    "crap",           "dumb",
    "disaster",     "disgusting", "dreadful",      "fiasco",    "flimsy",         "gross",
    "inferior",     "lousy",      "mediocre",      "miserable", "sloppy",         "sluggish",
    "tired",        "unusable",   "worried",       "worry",     "cracked",        "scratched",
    "fragile",      "fraud",      "ripoff",        "dislike",   "disappointment", "horrid",
    "atrocious",    "clunky",     "dodgy",         "shoddy",    "tragic",         "wretched",
};

inline constexpr std::array<std::string_view, 40> kAdverbs = {
    "so",        "very",       "really",        "too",          "super",        "totally",
    "extremely", "absolutely", "pretty",        "seriously",    "completely",   "incredibly",
    "truly",     "highly",     "quite",         "utterly",      "insanely",     "ridiculously",
    "amazingly", "terribly",   "awfully",       "especially",   "particularly", "rather",
    "fairly",    "damn",       "freaking",      "hella",        "mega",         "ultra",
    "deeply",    "remarkably", "exceptionally", "unbelievably", "thoroughly",   "entirely",
    "majorly",   "crazy",      "wildly",        "mighty",
};

// The subjects tweets mention, by popularity; opinion-finder's default
// subject is the first two, "phone,battery".
inline constexpr std::array<std::string_view, 12> kTopicKeywords = {
    "phone", "battery", "camera",  "screen",  "coffee", "movie",
    "game",  "pizza",   "weather", "traffic", "music",  "flight",
};

}  // namespace harness::datasets
