// "transactions": credit-card purchase transactions for MasterCard Affinity,
// one per line, nine '|'-separated fields:
//
//   card|merchant|timestamp|amount|currency|mcc|city|entry mode|reference
//   5312345678901234|M0000042|2013-04-17 13:45:12|23.80|EUR|5411|Paris, FR|chip|493027715533
//
// card: 16 digits (51-55, a 13-digit body, a Luhn check digit), distinct for
// each of transaction_cards(size) cards; merchant: `M` and 7 digits, rank r's
// id being M(r+1), so M0000001 is the most visited; timestamp: a second of 2013;
// amount: 1-4 digits, a point and cents; currency: the city's; mcc: the
// merchant's category code; city: the merchant's (53 cities, "Name, CC");
// entry mode: chip, contactless, online, swipe or manual; reference: a
// 12-digit retrieval reference number. Records are 80-118 bytes, about 96 on
// average, of which the card and merchant fields are a quarter.
//
// Cards are drawn with Zipf-Mandelbrot activity (exponent 1, offset a
// hundredth of the cards: a tenth of the cards make about half the
// purchases); merchants with Zipf popularity (exponent 1, offset 10: the top
// merchant takes about 1.1%). Customers return to their own few merchants:
// each card has kHomeMerchants home merchants (drawn from the merchants' Zipf
// law from the card's number), and three purchases in four go to one of them
// (the first home merchant half of those), the fourth to a merchant drawn
// afresh.
//
// Independent 4 MiB chunks (chunk i seeded from (seed, i)) of whole records,
// generated in parallel and written in order: the bytes never depend on the
// thread count. A chunk's last record carries a longer reference so that the
// chunk ends exactly at its size with '\n'; a chunk too small for one record
// (a file's last few bytes) holds empty lines, which are no records.
#pragma once

#include <cstdint>
#include <string>

#include "datasets/dataset.h"

namespace harness::datasets {

inline constexpr std::uint32_t kTransactionMerchants = 40000;
inline constexpr double kTransactionMerchantOffset = 10.0;
inline constexpr std::uint32_t kHomeMerchants = 4;
// One card per this many bytes of transactions (about 16 purchases a card).
inline constexpr std::uint64_t kTransactionBytesPerCard = 96 * 16;

const Generator& transactions_generator();

// The number of cards in a file of `size_bytes`: one per
// kTransactionBytesPerCard bytes, at least 64 and at most 2^26.
std::uint32_t transaction_cards(std::uint64_t size_bytes);

// The id of the merchant of popularity rank `rank` (0: the most visited):
// "M0000001" for rank 0.
std::string transaction_merchant_id(std::uint32_t rank);

}  // namespace harness::datasets
