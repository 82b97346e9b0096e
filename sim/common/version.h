#pragma once
// What this build is: the project version and the git commit it was built from (cmake writes the
// definitions at build time; "-dirty" when tracked files differed from the commit).

namespace gms {

const char* version_string();  // "0.1.0"
const char* version_commit();  // "1775e07a1b2c" or "1775e07a1b2c-dirty", "unknown" outside git

}  // namespace gms
