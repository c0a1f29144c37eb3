/* The speed test's contestants: each hashes one message of len bytes at buf (or, for a batch
 * row, `messages` messages of len bytes each, one after another from buf) and writes its digest
 * to out (at most 64 bytes a message). */
#ifndef SPEEDTEST_HARNESS_H
#define SPEEDTEST_HARNESS_H

#include <stddef.h>
#include <stdint.h>

#define BATCH 16

typedef struct {
  const char *name;           /* the algorithm, as in `arbor bench speedtest` */
  const char *implementation; /* the library */
  const char *api;            /* the header or API used */
  int messages;               /* messages per call: 1, or BATCH */
  void (*run)(const uint8_t *buf, size_t len, uint8_t *out);
} contestant;

/* Each contestant file defines one table (ours.c: arborhash; peers.c: the C peers; the
 * official BLAKE3 C code's row is in official.c, absent if it was not built). */
extern const contestant ours[];
extern const size_t ours_count;
extern const contestant peers[];
extern const size_t peers_count;
extern const contestant official[];
extern const size_t official_count;

#endif
