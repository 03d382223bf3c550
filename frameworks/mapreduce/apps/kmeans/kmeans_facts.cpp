// kmeans's DialectFacts, read from its dialect files (dialect_facts.h).
#define FACTS_APP kmeans
#include "frameworks/mapreduce/apps/dialect_facts.inc"
