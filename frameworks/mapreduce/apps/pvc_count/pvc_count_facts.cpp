// pvc_count's DialectFacts, read from its dialect files (dialect_facts.h).
#define FACTS_APP pvc_count
#include "frameworks/mapreduce/apps/dialect_facts.inc"
