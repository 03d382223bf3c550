// similarity's DialectFacts, read from its dialect files (dialect_facts.h).
#define FACTS_APP similarity
#include "frameworks/mapreduce/apps/dialect_facts.inc"
