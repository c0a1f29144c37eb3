/* The blake3.h contestant. This one source is built twice: against arborhash's blake3.h (the
 * table arborhash_blake3) and against the official BLAKE3 C code's (official_blake3, linked
 * with the official names renamed). TABLE and IMPLEMENTATION come from the Makefile. */
#include "blake3.h"
#include "harness.h"

/* As the official example does: a hasher on the stack, init, update, finalize. */
static void blake3_stream(const uint8_t *buf, size_t len, uint8_t *out) {
  blake3_hasher hasher;
  blake3_hasher_init(&hasher);
  blake3_hasher_update(&hasher, buf, len);
  blake3_hasher_finalize(&hasher, out, BLAKE3_OUT_LEN);
}

static const contestant rows[] = {
    {"BLAKE3", IMPLEMENTATION, "blake3.h", 1, blake3_stream},
};
const table TABLE = {rows, sizeof rows / sizeof rows[0]};
