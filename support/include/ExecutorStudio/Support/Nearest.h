//===- Nearest.h - "did you mean" for a name that names nothing -*- C++ -*-===//
//
// The one rule the tools use to suggest a name for a misspelled one (a pass
// option key, a pass of the studio's --pass): the candidate nearest by edit
// distance (llvm::StringRef::edit_distance) when it is at most a third of
// its length away (at least 2), else one that the name begins
// (`cross-compile` for `cross-compile-targets`).
//
//===----------------------------------------------------------------------===//
#ifndef EXECUTORSTUDIO_SUPPORT_NEAREST_H
#define EXECUTORSTUDIO_SUPPORT_NEAREST_H

#include "llvm/ADT/StringRef.h"

#include <algorithm>
#include <optional>
#include <string>

namespace executor_studio {

/// The candidate (a range of strings) nearest to `key`, if one is near.
template <class Range>
std::optional<std::string> nearestName(llvm::StringRef key,
                                       const Range &candidates) {
  std::optional<std::string> found;
  unsigned best = 0;
  bool foundNear = false;
  for (const auto &candidate : candidates) {
    llvm::StringRef name(candidate);
    if (name.empty() || name == key)
      continue;
    unsigned distance = key.edit_distance(name, /*AllowReplacements=*/true);
    bool isNear = distance <= std::max<size_t>(2, name.size() / 3);
    bool begun = !isNear && key.size() >= 3 && name.starts_with(key);
    if (!isNear && !begun)
      continue;
    // A near one before one the key begins; the nearest of each kind.
    if (!found || (isNear && !foundNear) ||
        (isNear == foundNear && distance < best)) {
      found = name.str();
      best = distance;
      foundNear = isNear;
    }
  }
  return found;
}

} // namespace executor_studio

#endif // EXECUTORSTUDIO_SUPPORT_NEAREST_H
