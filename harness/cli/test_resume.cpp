// The resume check of `harness reproduce`: which results documents are kept.
#include <gtest/gtest.h>

#include <cstdio>
#include <fstream>
#include <string>

#include "harness/cli/resume.h"

namespace harness::cli {
namespace {

using nlohmann::json;

json device(const std::string& backend, int index, const std::string& name) {
  return {{"backend", backend}, {"index", index}, {"name", name}, {"type", "gpu"}};
}

json environment() {
  return {{"harness_version", "0.1.0"},
          {"git_sha", "abc123"},
          {"build_type", "Release"},
          {"compiler", "g++"},
          {"host", {{"hostname", "node7"}}},
          {"backends_compiled", {"cpu", "opencl", "cuda"}},
          {"devices",
           {device("cpu", 0, "Xeon"), device("opencl", 0, "H100"), device("opencl", 1, "PoCL"),
            device("cuda", 0, "H100")}}};
}

json point(const std::string& backend) { return {{"backend", backend}, {"status", "ok"}}; }

json document() {
  return {{"schema_version", 1},
          {"experiment", {{"id", "mars.fig6"}, {"title", "t"}, {"preset", "gpu"}}},
          {"environment", environment()},
          {"complete", true},
          {"points", {point("cpu"), point("opencl"), point("cuda")}}};
}

ResumeTarget target() {
  return {"mars.fig6", "gpu", {"cpu", "opencl", "cuda"}, std::nullopt, environment()};
}

void expect_rerun(const json& doc, const ResumeTarget& t, const std::string& fragment) {
  ResumeCheck c = check_resume(doc, t);
  EXPECT_FALSE(c.skip) << fragment;
  EXPECT_NE(c.reason.find(fragment), std::string::npos) << c.reason;
}

TEST(Resume, KeepsACompleteDocumentOfTheSameBuildPresetAndDevices) {
  ResumeCheck c = check_resume(document(), target());
  EXPECT_TRUE(c.skip);
  EXPECT_EQ(c.reason, "");
}

TEST(Resume, HostAndDeviceDetailsOtherThanIndexAndNameDoNotMatter) {
  ResumeTarget t = target();
  t.environment["host"]["hostname"] = "node8";
  t.environment["devices"][1]["driver_version"] = "580.1";
  EXPECT_TRUE(check_resume(document(), t).skip);
}

TEST(Resume, RerunsAnIncompleteDocument) {
  json doc = document();
  doc["complete"] = false;
  expect_rerun(doc, target(), "incomplete");
}

TEST(Resume, RerunsWhatIsNotAResultsDocument) {
  expect_rerun(json::array(), target(), "not a results document");
  expect_rerun(json{{"complete", true}}, target(), "not a results document");
  json doc = document();
  doc.erase("points");
  expect_rerun(doc, target(), "not a results document");
}

TEST(Resume, RerunsAnotherExperiment) {
  json doc = document();
  doc["experiment"]["id"] = "mars.fig7";
  expect_rerun(doc, target(), "mars.fig7");
}

TEST(Resume, RerunsAnotherBuild) {
  for (const char* key : {"harness_version", "git_sha", "build_type"}) {
    json doc = document();
    doc["environment"][key] = "other";
    expect_rerun(doc, target(), std::string("another build (") + key + " other");
  }
  json doc = document();
  doc["environment"].erase("git_sha");
  expect_rerun(doc, target(), "another build");
}

TEST(Resume, RerunsAnotherPreset) {
  json doc = document();
  doc["experiment"]["preset"] = "ci";
  expect_rerun(doc, target(), "preset ci, not gpu");
}

TEST(Resume, RerunsOnOtherDevicesOfABackendItUses) {
  json doc = document();
  doc["environment"]["devices"][3]["name"] = "A100";
  expect_rerun(doc, target(), "the cuda devices differ (then: 0 A100; now: 0 H100)");
  doc = document();
  doc["environment"]["devices"].erase(2);  // PoCL gone
  expect_rerun(doc, target(), "the opencl devices differ");
  doc = document();
  doc["environment"]["devices"][1]["index"] = 1;
  doc["environment"]["devices"][2]["index"] = 0;
  expect_rerun(doc, target(), "opencl devices differ");
}

TEST(Resume, IgnoresDevicesOfBackendsTheRunDoesNotUse) {
  ResumeTarget t = target();
  t.backends = {"cpu", "opencl"};
  t.backend = "opencl";
  json doc = document();
  doc["points"] = {point("cpu"), point("opencl")};
  doc["environment"]["devices"][3]["name"] = "A100";
  EXPECT_TRUE(check_resume(doc, t).skip);
}

TEST(Resume, RerunsPointsOfAnotherBackendRestriction) {
  ResumeTarget t = target();
  t.backends = {"cpu", "opencl"};
  t.backend = "opencl";
  // Made without --backend (it measured cuda too).
  expect_rerun(document(), t, "points on cuda, which a run under --backend opencl does not use");
  // Made under --backend cpu (no opencl point although opencl has devices).
  json doc = document();
  doc["points"] = {point("cpu")};
  expect_rerun(doc, t, "no point on opencl, which a run under --backend opencl uses");
  // Without --backend, a document made under --backend opencl lacks cuda.
  doc["points"] = {point("cpu"), point("opencl")};
  expect_rerun(doc, target(), "no point on cuda, which a run without --backend uses");
}

TEST(Resume, SkippedPointsOfAVariantThatRunsNowhereHereAreKept) {
  // Under --backend opencl a CUDA-only variant is recorded as skipped points on cuda.
  ResumeTarget t = target();
  t.backends = {"cpu", "opencl"};
  t.backend = "opencl";
  json doc = document();
  json skipped = point("cuda");
  skipped["status"] = "skipped";
  doc["points"] = {point("cpu"), point("opencl"), skipped};
  EXPECT_TRUE(check_resume(doc, t).skip);
  // A measured cuda point still means another restriction.
  doc["points"].push_back(point("cuda"));
  expect_rerun(doc, t, "points on cuda, which a run under --backend opencl does not use");
}

TEST(Resume, ABackendWithoutDevicesNeedsNoPoint) {
  ResumeTarget t = target();
  json doc = document();
  for (json* env : {&t.environment, &doc["environment"]}) {
    (*env)["devices"] = {device("cpu", 0, "Xeon"), device("opencl", 0, "PoCL")};
  }
  doc["points"] = {point("cpu"), point("opencl")};
  EXPECT_TRUE(check_resume(doc, t).skip);
}

TEST(Resume, Files) {
  const std::string path = ::testing::TempDir() + "/resume_test.json";
  std::remove(path.c_str());
  ResumeCheck none = check_resume_file(path, target());
  EXPECT_FALSE(none.skip);
  EXPECT_EQ(none.reason, "");  // nothing to say: it simply runs
  std::ofstream(path) << R"({"complete": true, "points": [)";
  EXPECT_EQ(check_resume_file(path, target()).reason, "the file is not valid JSON");
  std::ofstream(path) << document().dump(1);
  const ResumeCheck kept = check_resume_file(path, target());
  EXPECT_TRUE(kept.skip);
  EXPECT_EQ(kept.doc, document());  // the kept document, read once for its points
  std::remove(path.c_str());
}

TEST(Resume, FileNames) {
  EXPECT_EQ(results_file_name("mars.fig6", std::nullopt), "mars.fig6.json");
  EXPECT_EQ(results_file_name("mars.fig6", backend::Kind::opencl), "mars.fig6@opencl.json");
  EXPECT_EQ(results_file_name("mars.fig6", backend::Kind::cpu), "mars.fig6@cpu.json");
}

}  // namespace
}  // namespace harness::cli
