#include <gtest/gtest.h>
TEST(Sl1Placeholder, Builds) { SUCCEED(); }
