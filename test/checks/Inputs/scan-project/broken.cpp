// A unit whose scan fails (its header is missing): it is analysed, never
// skipped, so that the missing header is reported.
#include "missing_header.h"

int f() { return 0; }
