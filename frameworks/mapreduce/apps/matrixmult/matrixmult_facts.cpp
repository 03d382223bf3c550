// matrixmult's DialectFacts, read from its dialect files (dialect_facts.h).
#define FACTS_APP matrixmult
#include "frameworks/mapreduce/apps/dialect_facts.inc"
