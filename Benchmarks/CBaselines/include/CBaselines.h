#ifndef CBASELINES_H
#define CBASELINES_H
int certkit_baselines_placeholder(void);
#endif
