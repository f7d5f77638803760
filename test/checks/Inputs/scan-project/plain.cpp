// Ordinary code: no file of this unit mentions cuBLAS.
#include <map>
#include <string>
#include <vector>

int count(const std::vector<std::string> &words) {
  std::map<std::string, int> seen;
  for (const std::string &w : words)
    seen[w]++;
  if (seen.empty()) return 0;
  return static_cast<int>(seen.size());
}
