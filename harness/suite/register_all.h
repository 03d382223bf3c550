// The whole suite: every framework family, app and microbenchmark family of
// the tree registered with the Registry. The CLI and the tests that run
// experiments call it; the core (harness/core, harness/runner) knows only the
// Registry, and frameworks/ and micro/ know nothing of each other.
#pragma once

namespace harness {

// Registers every framework and app once per process (later calls do nothing).
void register_all();

}  // namespace harness
