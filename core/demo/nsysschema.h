#pragma once
// The CREATE TABLE statements the demo exports use, each copied from the newest real
// `nsys export --type sqlite` file in ../shared/testdata/traces/nsys that has the table
// (see the comment above each statement in nsysschema.cpp). Nothing is invented: a reader that
// handles those real exports handles the demo's, and tests/demo checks the subset relation.

#include <vector>

namespace ps::core::demo {

// CREATE TABLE statements, in creation order. No indices: the real exports have none either,
// and inserting into unindexed tables is what keeps a 10 M-row report fast to write.
const std::vector<const char *> &nsysCreateStatements();

} // namespace ps::core::demo
