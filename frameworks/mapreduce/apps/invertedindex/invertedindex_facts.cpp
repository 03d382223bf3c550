// invertedindex's DialectFacts, read from its dialect files (dialect_facts.h).
#define FACTS_APP invertedindex
#include "frameworks/mapreduce/apps/dialect_facts.inc"
