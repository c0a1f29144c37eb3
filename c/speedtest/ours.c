/* arborhash.h's contestants: one-shot BLAKE3, the batch functions, Tillich-Zemor. */
#include "arborhash.h"
#include "harness.h"

static void blake3_oneshot(const uint8_t *buf, size_t len, uint8_t *out) {
  arborhash_blake3_hash(buf, len, out);
}

/* The batch rows' BATCH messages of len bytes, one after another from buf. */
static void batch(const uint8_t *buf, size_t len, const uint8_t *inputs[BATCH],
                  size_t lens[BATCH]) {
  for (int i = 0; i < BATCH; i++) {
    inputs[i] = buf + i * len;
    lens[i] = len;
  }
}

static void blake3_many(const uint8_t *buf, size_t len, uint8_t *out) {
  const uint8_t *inputs[BATCH];
  size_t lens[BATCH];
  batch(buf, len, inputs, lens);
  arborhash_blake3_hash_many(inputs, lens, BATCH, out);
}

static void blake2b_many(const uint8_t *buf, size_t len, uint8_t *out) {
  const uint8_t *inputs[BATCH];
  size_t lens[BATCH];
  batch(buf, len, inputs, lens);
  arborhash_blake2b_hash_many(inputs, lens, BATCH, NULL, 0, 64, out);
}

static void blake2s_many(const uint8_t *buf, size_t len, uint8_t *out) {
  const uint8_t *inputs[BATCH];
  size_t lens[BATCH];
  batch(buf, len, inputs, lens);
  arborhash_blake2s_hash_many(inputs, lens, BATCH, NULL, 0, 32, out);
}

static void tz(const uint8_t *buf, size_t len, uint8_t *out) {
  arborhash_tz_sum(buf, len, 0, out);
}

static const contestant rows[] = {
    {"BLAKE3", "arborhash", "arborhash.h one-shot", 1, blake3_oneshot},
    {"BLAKE2b x16", "arborhash", "arborhash.h batch", BATCH, blake2b_many},
    {"BLAKE2s x16", "arborhash", "arborhash.h batch", BATCH, blake2s_many},
    {"BLAKE3 x16", "arborhash", "arborhash.h batch", BATCH, blake3_many},
    {"TZ", "arborhash", "arborhash.h", 1, tz},
};
const table arborhash_extra = {rows, sizeof rows / sizeof rows[0]};
