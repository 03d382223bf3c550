// pvr_rank's DialectFacts, read from its dialect files (dialect_facts.h).
#define FACTS_APP pvr_rank
#include "frameworks/mapreduce/apps/dialect_facts.inc"
