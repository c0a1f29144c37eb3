/* CHECK for the C test programs that count checks: counts one, and reports it if it fails. */
#ifndef TEST_CHECK_H
#define TEST_CHECK_H

#include <stdio.h>

static int failures, checks;

#define CHECK(cond)                                                                \
  do {                                                                             \
    checks++;                                                                      \
    if (!(cond)) {                                                                 \
      failures++;                                                                  \
      fprintf(stderr, "%s:%d: check failed: %s\n", __FILE__, __LINE__, #cond);     \
    }                                                                              \
  } while (0)

#endif
