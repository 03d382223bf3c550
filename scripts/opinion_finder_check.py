#!/usr/bin/env python3
"""Checks a `harness run --app opinion-finder --dump-output` against counts
computed here, with Python only, from the definition in
frameworks/workloads/opinion_finder/README.md:

- the input is 200-byte records; the tweet is the first 146 bytes of each;
- a word is a maximal run of ASCII letters, compared lower-cased;
- a tweet mentions the subject when one of its words is a keyword;
- in a mentioning tweet, words are scanned in order: an adverb doubles the
  pending factor (which starts at 1, at most 8), a positive word adds the
  factor to the score, a negative word subtracts it, and any word other than
  an adverb sets the factor back to 1.

The dictionaries are read from datasets/sentiment_lexicon.h (the C++ source
that defines them). Exact comparison (integers only).

usage: opinion_finder_check.py INPUT DUMP [subject=phone,battery]
       (exit 0 when the dump agrees, 1 naming the first difference)"""
import pathlib
import re
import sys

RECORD = 200
TEXT = 146
MAX_FACTOR = 8
NAMES = ["tweets", "mentioning", "positive_words", "negative_words", "score"]
LEXICON = pathlib.Path(__file__).resolve().parent.parent / "datasets" / "sentiment_lexicon.h"


def lexicon_list(source: str, name: str) -> set:
    match = re.search(name + r"\s*=\s*\{(.*?)\};", source, re.S)
    if not match:
        raise SystemExit(f"{LEXICON}: no list {name}")
    return set(re.findall(r'"([a-z]+)"', match.group(1)))


def expected_counts(data: bytes, keywords: set) -> dict:
    source = LEXICON.read_text()
    positive = lexicon_list(source, "kPositiveWords")
    negative = lexicon_list(source, "kNegativeWords")
    adverbs = lexicon_list(source, "kAdverbs")
    counts = dict.fromkeys(NAMES, 0)
    for at in range(0, len(data), RECORD):
        counts["tweets"] += 1
        words = [w.lower().decode() for w in re.findall(rb"[A-Za-z]+", data[at:at + TEXT])]
        if not keywords.intersection(words):
            continue
        counts["mentioning"] += 1
        factor = 1
        for word in words:
            if word in positive:
                counts["score"] += factor
                counts["positive_words"] += 1
                factor = 1
            elif word in negative:
                counts["score"] -= factor
                counts["negative_words"] += 1
                factor = 1
            elif word in adverbs:
                factor = min(2 * factor, MAX_FACTOR)
            else:
                factor = 1
    return counts


def main() -> int:
    if len(sys.argv) not in (3, 4):
        print(__doc__, file=sys.stderr)
        return 2
    subject = "phone,battery"
    if len(sys.argv) == 4:
        if not sys.argv[3].startswith("subject="):
            print(__doc__, file=sys.stderr)
            return 2
        subject = sys.argv[3][len("subject="):]
    keywords = {k.strip().lower() for k in subject.split(",")}
    if not all(re.fullmatch(r"[a-z]{1,16}", k) for k in keywords):
        print(f"subject {subject!r}: keywords are 1-16 ASCII letters separated by commas")
        return 2
    data = pathlib.Path(sys.argv[1]).read_bytes()
    if len(data) % RECORD:
        print(f"input of {len(data)} bytes is not a whole number of {RECORD}-byte records")
        return 1
    expected = expected_counts(data, keywords)
    lines = pathlib.Path(sys.argv[2]).read_text().splitlines()
    got = [line.split("\t") for line in lines]
    if [g[0] for g in got] != NAMES or any(len(g) != 2 for g in got):
        print(f"dump lines are not {NAMES} each with a value: {lines}")
        return 1
    for name, value in got:
        if int(value) != expected[name]:
            print(f"MISMATCH: {name} is {value}, expected {expected[name]}")
            return 1
    print("identical: " + ", ".join(f"{n} {expected[n]}" for n in NAMES))
    return 0


if __name__ == "__main__":
    sys.exit(main())
