// pvc_dedup's DialectFacts, read from its dialect files (dialect_facts.h).
#define FACTS_APP pvc_dedup
#include "frameworks/mapreduce/apps/dialect_facts.inc"
