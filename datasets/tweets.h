// "tweets": fixed-length tweet records for Opinion Finder (thesis ch4/ch5).
// Each record is kTweetRecordBytes = 200 bytes, one text line:
//
//   bytes   0-145  the tweet's text, ASCII and UTF-8, padded with spaces
//                  (kTweetTextBytes = 146: 73% of the record, what the
//                  kernel reads)
//   byte      146  '|'
//   bytes 147-156  time stamp, Unix seconds, 10 digits, non-decreasing
//   byte      157  '|'
//   bytes 158-167  user id, 10 digits (zero-padded)
//   byte      168  '|'
//   bytes 169-170  language code ("en", "es", ...)
//   byte      171  '|'
//   bytes 172-178  retweet count, 7 digits
//   byte      179  '|'
//   bytes 180-186  like count, 7 digits
//   byte      187  '|'
//   bytes 188-198  client ("android", "iphone", ...), padded with spaces
//   byte      199  '\n'
//
// The text holds no '\n' and no '|'. Its words are drawn from the text-zipf
// vocabulary (text_zipf_vocabulary(seed)) with its Zipf frequencies, with
// hashtags, @mentions, emoticons, punctuation, "RT @user:" prefixes and
// t.co links; about 20% of the tweets mention a topic (sentiment_lexicon.h's
// kTopicKeywords, Zipf over the topics: "phone" in about 7% of all tweets,
// "battery" in about 4%), sometimes capitalized or as a hashtag. Sentiment
// words (the lexicon's positive 3% and negative 2% of the words, twice as
// often in topic tweets, Zipf within each list), a quarter of them after one
// or two adverbs ("so good", "really very bad"), and 1% lone adverbs. Time
// stamps advance 50 ms per tweet on average from 2010-01-01; user ids are a
// fixed scramble of Zipf activity ranks over 10^6 users (offset 2).
//
// The file is a whole number of records: output_bytes rounds the requested
// size down to a multiple of 200 (a size under 200 gives an empty file).
// Independent chunks of 20,000 records (chunk i seeded from (seed, i), its
// time stamps in its own 1000-second window) are generated in parallel and
// written in order: the bytes never depend on the thread count.
#pragma once

#include <cstddef>
#include <cstdint>

#include "datasets/dataset.h"

namespace harness::datasets {

inline constexpr std::size_t kTweetRecordBytes = 200;
inline constexpr std::size_t kTweetTextBytes = 146;

const Generator& tweets_generator();

}  // namespace harness::datasets
