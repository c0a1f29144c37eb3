/* arborhash's contestants, through blake3.h, blake2.h and arborhash.h. */
#include "arborhash.h"
#include "blake2.h"
#include "blake3.h"
#include "harness.h"

static void blake3_h(const uint8_t *buf, size_t len, uint8_t *out) {
  blake3_hasher hasher;
  blake3_hasher_init(&hasher);
  blake3_hasher_update(&hasher, buf, len);
  blake3_hasher_finalize(&hasher, out, BLAKE3_OUT_LEN);
}

static void blake3_oneshot(const uint8_t *buf, size_t len, uint8_t *out) {
  arborhash_blake3_hash(buf, len, out);
}

static void blake2b_h(const uint8_t *buf, size_t len, uint8_t *out) {
  blake2b(out, buf, NULL, BLAKE2B_OUTBYTES, len, 0);
}

/* btrfs's way: a state, init, update, final. */
static void blake2b_stream_h(const uint8_t *buf, size_t len, uint8_t *out) {
  blake2b_state state;
  blake2b_init(&state, BLAKE2B_OUTBYTES);
  blake2b_update(&state, buf, len);
  blake2b_final(&state, out, BLAKE2B_OUTBYTES);
}

static void blake2bp_h(const uint8_t *buf, size_t len, uint8_t *out) {
  blake2bp(out, buf, NULL, BLAKE2B_OUTBYTES, len, 0);
}

static void blake2s_h(const uint8_t *buf, size_t len, uint8_t *out) {
  blake2s(out, buf, NULL, BLAKE2S_OUTBYTES, len, 0);
}

static void blake2sp_h(const uint8_t *buf, size_t len, uint8_t *out) {
  blake2sp(out, buf, NULL, BLAKE2S_OUTBYTES, len, 0);
}

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
  arborhash_blake2b_hash_many(inputs, lens, BATCH, NULL, 0, BLAKE2B_OUTBYTES, out);
}

static void blake2s_many(const uint8_t *buf, size_t len, uint8_t *out) {
  const uint8_t *inputs[BATCH];
  size_t lens[BATCH];
  batch(buf, len, inputs, lens);
  arborhash_blake2s_hash_many(inputs, lens, BATCH, NULL, 0, BLAKE2S_OUTBYTES, out);
}

static void tz(const uint8_t *buf, size_t len, uint8_t *out) {
  arborhash_tz_sum(buf, len, 0, out);
}

const contestant ours[] = {
    {"BLAKE2b", "arborhash", "blake2.h one-shot", 1, blake2b_h},
    {"BLAKE2b", "arborhash", "blake2.h init/update/final", 1, blake2b_stream_h},
    {"BLAKE2bp", "arborhash", "blake2.h", 1, blake2bp_h},
    {"BLAKE2s", "arborhash", "blake2.h", 1, blake2s_h},
    {"BLAKE2sp", "arborhash", "blake2.h", 1, blake2sp_h},
    {"BLAKE3", "arborhash", "blake3.h", 1, blake3_h},
    {"BLAKE3", "arborhash", "arborhash.h one-shot", 1, blake3_oneshot},
    {"BLAKE2b x16", "arborhash", "arborhash.h batch", BATCH, blake2b_many},
    {"BLAKE2s x16", "arborhash", "arborhash.h batch", BATCH, blake2s_many},
    {"BLAKE3 x16", "arborhash", "arborhash.h batch", BATCH, blake3_many},
    {"TZ", "arborhash", "arborhash.h", 1, tz},
};
const size_t ours_count = sizeof ours / sizeof ours[0];
