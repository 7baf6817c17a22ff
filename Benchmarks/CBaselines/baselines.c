#include "CBaselines.h"
int certkit_baselines_placeholder(void) { return 0; }
