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

typedef struct {
  const contestant *rows;
  size_t count;
} table;

/* blake2_api.c and blake3_api.c are each built twice, against arborhash's header and against
 * the peer's (libb2, the official BLAKE3 C code); ours.c has arborhash.h's rows, peers.c the
 * other C libraries. */
extern const table arborhash_blake2, libb2_blake2;
extern const table arborhash_blake3, official_blake3;
extern const table arborhash_extra, other_peers;

#endif
