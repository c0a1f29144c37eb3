/* The official BLAKE3 C code (built from the Debian package librust-blake3-dev's copy, with its
 * assembly), linked with its API names renamed (official_blake3_hasher_init, ...; see the
 * Makefile) so that it runs beside ours in one process. Without that package the Makefile
 * builds this file with NO_OFFICIAL_BLAKE3 and the table is empty. */
#include "harness.h"

#ifndef NO_OFFICIAL_BLAKE3
#include "blake3.h"

static void blake3_official(const uint8_t *buf, size_t len, uint8_t *out) {
  blake3_hasher hasher;
  blake3_hasher_init(&hasher);
  blake3_hasher_update(&hasher, buf, len);
  blake3_hasher_finalize(&hasher, out, BLAKE3_OUT_LEN);
}

const contestant official[] = {
    {"BLAKE3", "official C " BLAKE3_VERSION_STRING, "blake3.h", 1, blake3_official},
};
const size_t official_count = 1;
#else
const contestant official[1];
const size_t official_count = 0;
#endif
