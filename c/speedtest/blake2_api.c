/* The blake2.h contestants. This one source is built twice: against arborhash's blake2.h (the
 * table arborhash_blake2) and against libb2's (libb2_blake2, linked with libb2's names renamed),
 * which is the source compatibility the C library promises. TABLE and IMPLEMENTATION come from
 * the Makefile. */
#include <blake2.h>

#include "harness.h"

static void blake2b_oneshot(const uint8_t *buf, size_t len, uint8_t *out) {
  blake2b(out, buf, NULL, BLAKE2B_OUTBYTES, len, 0);
}

/* btrfs's way: a state, init, update, final. */
static void blake2b_stream(const uint8_t *buf, size_t len, uint8_t *out) {
  blake2b_state state;
  blake2b_init(&state, BLAKE2B_OUTBYTES);
  blake2b_update(&state, buf, len);
  blake2b_final(&state, out, BLAKE2B_OUTBYTES);
}

static void blake2bp_oneshot(const uint8_t *buf, size_t len, uint8_t *out) {
  blake2bp(out, buf, NULL, BLAKE2B_OUTBYTES, len, 0);
}

static void blake2s_oneshot(const uint8_t *buf, size_t len, uint8_t *out) {
  blake2s(out, buf, NULL, BLAKE2S_OUTBYTES, len, 0);
}

static void blake2sp_oneshot(const uint8_t *buf, size_t len, uint8_t *out) {
  blake2sp(out, buf, NULL, BLAKE2S_OUTBYTES, len, 0);
}

static const contestant rows[] = {
    {"BLAKE2b", IMPLEMENTATION, "blake2.h one-shot", 1, blake2b_oneshot},
    {"BLAKE2b", IMPLEMENTATION, "blake2.h init/update/final", 1, blake2b_stream},
    {"BLAKE2bp", IMPLEMENTATION, "blake2.h", 1, blake2bp_oneshot},
    {"BLAKE2s", IMPLEMENTATION, "blake2.h", 1, blake2s_oneshot},
    {"BLAKE2sp", IMPLEMENTATION, "blake2.h", 1, blake2sp_oneshot},
};
const table TABLE = {rows, sizeof rows / sizeof rows[0]};
