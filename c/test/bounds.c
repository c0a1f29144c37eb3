/* Every length, size, offset and count argument of every exported function at 0, at its type's
 * maximum (SIZE_MAX, UINT64_MAX), one past the largest object (SIZE_MAX / 2 + 1) and, where
 * the argument has a limit, at the limit and one past it: an error code (or, for blake3.h's
 * void functions, an unusable hasher and no write) and never a crash or an out-of-bounds access
 * (this program runs under ASan and UBSan too). The subtree functions' bounds are in
 * subtree.c. */
#include <limits.h>

#include "arborhash.h"
#include "blake2.h"
#include "blake3.h"
#include "check.h"
#include "common.h"

#define OK ARBORHASH_OK
#define BAD ARBORHASH_BAD_ARGUMENT

/* Lengths no object can have: Rust's limit is PTRDIFF_MAX (SIZE_MAX / 2) bytes. */
static const size_t huge[] = {SIZE_MAX, SIZE_MAX - 1, SIZE_MAX / 2 + 1};
#define HUGE_COUNT (sizeof huge / sizeof huge[0])

static uint8_t data[4096], out[4096], unchanged[4096];

static void reset_out(void) {
  memset(out, 0x5a, sizeof out);
  memcpy(unchanged, out, sizeof out);
}

static int out_unchanged(void) { return memcmp(out, unchanged, sizeof out) == 0; }

static void test_blake3_h(void) {
  static blake3_hasher h;
  uint8_t want[64], zeros[64] = {0};
  const uint8_t key[32] = {7};
  for (size_t i = 0; i < HUGE_COUNT; i++) {
    /* update: the hasher becomes unusable, nothing is read. */
    blake3_hasher_init(&h);
    blake3_hasher_update(&h, data, huge[i]);
    CHECK(arborhash_blake3_hasher_check(&h) == BAD);
    blake3_hasher_init_keyed(&h, key);
    blake3_hasher_update(&h, data, 100);
    blake3_hasher_update(&h, data, huge[i]);
    CHECK(arborhash_blake3_hasher_check(&h) == BAD);
    reset_out();
    blake3_hasher_finalize(&h, out, 32);
    CHECK(memcmp(out, zeros, 32) == 0);
    /* derive_key_raw with a context no object holds. */
    blake3_hasher_init_derive_key_raw(&h, data, huge[i]);
    CHECK(arborhash_blake3_hasher_check(&h) == BAD);
    /* finalize: nothing written, and the hasher stays usable. */
    blake3_hasher_init(&h);
    blake3_hasher_update(&h, data, 100);
    reset_out();
    blake3_hasher_finalize(&h, out, huge[i]);
    blake3_hasher_finalize_seek(&h, UINT64_MAX, out, huge[i]);
    CHECK(out_unchanged());
    CHECK(arborhash_blake3_hasher_check(&h) == OK);
    CHECK(arborhash_blake3_hasher_update_threaded(&h, data, huge[i]) == BAD);
    CHECK(arborhash_blake3_hasher_check(&h) == BAD);
  }
  /* Length 0: NULL is fine, nothing is written, and the hash is that of no input. */
  blake3_hasher_init(&h);
  blake3_hasher_update(&h, NULL, 0);
  blake3_hasher_finalize(&h, NULL, 0);
  blake3_hasher_finalize_seek(&h, UINT64_MAX, NULL, 0);
  reset_out();
  blake3_hasher_finalize(&h, out, 0);
  CHECK(out_unchanged());
  CHECK(arborhash_blake3_hasher_update_threaded(&h, NULL, 0) == OK);
  CHECK(arborhash_blake3_hasher_check(&h) == OK);
  blake3_hasher_finalize(&h, want, 32);
  uint8_t empty[32];
  CHECK(arborhash_blake3_hash(NULL, 0, empty) == OK && memcmp(want, empty, 32) == 0);
  blake3_hasher_init_derive_key_raw(&h, NULL, 0);
  CHECK(arborhash_blake3_hasher_check(&h) == OK);
  blake3_hasher_finalize(&h, want, 32);
  blake3_hasher_init_derive_key(&h, "");
  blake3_hasher_finalize(&h, empty, 32);
  CHECK(memcmp(want, empty, 32) == 0);
  /* Seeks at the end of the 64-bit range, and outputs that cross it (the official library
   * counts output blocks in 64 bits, so the stream goes on; run.sh compares these bytes with
   * it): the same bytes whichever way they are asked for. */
  blake3_hasher_init(&h);
  blake3_hasher_update(&h, data, 2000);
  uint8_t whole[128], part[64];
  blake3_hasher_finalize_seek(&h, UINT64_MAX - 63, whole, sizeof whole);
  blake3_hasher_finalize_seek(&h, UINT64_MAX, part, 1);
  CHECK(memcmp(part, whole + 63, 1) == 0);
  blake3_hasher_finalize_seek(&h, 0, part, 64);
  CHECK(memcmp(part, whole + 64, 64) != 0);
  CHECK(arborhash_blake3_hasher_check(&h) == OK);
}

static void test_one_shots(void) {
  for (size_t i = 0; i < HUGE_COUNT; i++) {
    reset_out();
    CHECK(arborhash_blake3_hash(data, huge[i], out) == BAD);
    CHECK(arborhash_blake3_hash_threaded(data, huge[i], out) == BAD);
    CHECK(arborhash_tz_sum(data, huge[i], 0, out) == BAD);
    CHECK(arborhash_tz_sum(data, huge[i], 1, out) == BAD);
    CHECK(arborhash_tz_concat(data, huge[i], out) == BAD);
    CHECK(out_unchanged());
  }
  /* tz_concat's count is of 64-byte hashes: one past the largest object's worth. */
  CHECK(arborhash_tz_concat(data, SIZE_MAX / 2 / 64 + 1, out) == BAD);
  /* threaded is a flag: any int value. */
  uint8_t a[64], b[64];
  CHECK(arborhash_tz_sum(data, 100, INT_MIN, a) == OK);
  CHECK(arborhash_tz_sum(data, 100, 0, b) == OK && memcmp(a, b, 64) == 0);
  CHECK(arborhash_tz_sum(NULL, 0, INT_MAX, a) == OK);
  CHECK(arborhash_tz_concat(NULL, 0, b) == OK && memcmp(a, b, 64) == 0);
  CHECK(arborhash_blake3_hash_threaded(NULL, 0, a) == OK);
  CHECK(arborhash_blake3_hash(NULL, 0, b) == OK && memcmp(a, b, 32) == 0);
}

static void test_batches(void) {
  const uint8_t *inputs[4] = {data, data + 1, data + 2, data + 3};
  size_t lens[4] = {10, 20, 30, 40};
  const uint8_t key[64] = {3};
  /* count at 0 with NULL arrays and output. */
  CHECK(arborhash_blake3_hash_many(NULL, NULL, 0, NULL) == OK);
  CHECK(arborhash_blake3_keyed_hash_many(key, NULL, NULL, 0, NULL) == OK);
  CHECK(arborhash_blake2b_hash_many(NULL, NULL, 0, NULL, 0, 64, NULL) == OK);
  CHECK(arborhash_blake2s_hash_many(NULL, NULL, 0, NULL, 0, 32, NULL) == OK);
  /* Counts no array can hold, so that neither array is read (they hold 4 elements here):
   * past PTRDIFF_MAX / sizeof(size_t) always, and where count * the output length exceeds
   * PTRDIFF_MAX (checked before the arrays are read). A count the arrays could hold by these
   * rules is the caller's promise. */
  static const size_t counts[] = {SIZE_MAX, SIZE_MAX - 1, SIZE_MAX / 2 + 1, SIZE_MAX / 2,
                                  SIZE_MAX / 2 / sizeof(size_t) + 1};
  static const size_t counts_32[] = {SIZE_MAX / 32 + 1, SIZE_MAX / 2 / 32 + 1};
  for (size_t i = 0; i < sizeof counts / sizeof counts[0]; i++) {
    reset_out();
    CHECK(arborhash_blake2b_hash_many(inputs, lens, counts[i], NULL, 0, 1, out) == BAD);
    CHECK(arborhash_blake2s_hash_many(inputs, lens, counts[i], key, 32, 1, out) == BAD);
    CHECK(arborhash_blake3_derive_key_many_xof("c", inputs, lens, counts[i], 1, out) == BAD);
    CHECK(arborhash_blake3_hash_many_xof(inputs, lens, counts[i], 0, out) == BAD);
    CHECK(out_unchanged());
  }
  for (size_t i = 0; i < sizeof counts / sizeof counts[0] + 2; i++) {
    size_t count = i < 2 ? counts_32[i] : counts[i - 2];
    reset_out();
    CHECK(arborhash_blake3_hash_many(inputs, lens, count, out) == BAD);
    CHECK(arborhash_blake3_keyed_hash_many(key, inputs, lens, count, out) == BAD);
    CHECK(arborhash_blake2b_hash_many(inputs, lens, count, NULL, 0, 32, out) == BAD);
    CHECK(arborhash_blake2s_hash_many(inputs, lens, count, key, 32, 32, out) == BAD);
    CHECK(arborhash_blake3_hash_many_xof(inputs, lens, count, 64, out) == BAD);
    CHECK(arborhash_blake3_keyed_hash_many_xof(key, inputs, lens, count, 32, out) == BAD);
    CHECK(out_unchanged());
  }
  /* XOF output lengths whose product with the count no object holds. */
  for (size_t i = 0; i < HUGE_COUNT; i++) {
    reset_out();
    CHECK(arborhash_blake3_hash_many_xof(inputs, lens, 1, huge[i], out) == BAD);
    CHECK(arborhash_blake3_hash_many_xof(inputs, lens, 4, huge[i], out) == BAD);
    CHECK(arborhash_blake3_keyed_hash_many_xof(key, inputs, lens, 2, huge[i], out) == BAD);
    CHECK(arborhash_blake3_derive_key_many_xof("c", inputs, lens, 3, huge[i], out) == BAD);
    CHECK(arborhash_blake3_hash_many_xof(NULL, NULL, 0, huge[i], NULL) == OK);
    CHECK(out_unchanged());
  }
  /* 2 * (SIZE_MAX / 2 + 1) wraps to 0 in size_t: still refused. */
  CHECK(arborhash_blake3_hash_many_xof(inputs, lens, 2, SIZE_MAX / 2 + 1, out) == BAD);
  /* A message length no object has. */
  for (size_t i = 0; i < HUGE_COUNT; i++) {
    size_t bad_lens[4] = {10, huge[i], 30, 40};
    reset_out();
    CHECK(arborhash_blake3_hash_many(inputs, bad_lens, 4, out) == BAD);
    CHECK(arborhash_blake3_keyed_hash_many(key, inputs, bad_lens, 4, out) == BAD);
    CHECK(arborhash_blake2b_hash_many(inputs, bad_lens, 4, NULL, 0, 64, out) == BAD);
    CHECK(arborhash_blake2s_hash_many(inputs, bad_lens, 4, NULL, 0, 32, out) == BAD);
    CHECK(arborhash_blake3_hash_many_xof(inputs, bad_lens, 4, 100, out) == BAD);
    /* Key and output lengths at SIZE_MAX and past the largest object. */
    CHECK(arborhash_blake2b_hash_many(inputs, lens, 4, key, huge[i], 64, out) == BAD);
    CHECK(arborhash_blake2b_hash_many(inputs, lens, 4, NULL, 0, huge[i], out) == BAD);
    CHECK(arborhash_blake2s_hash_many(inputs, lens, 4, key, huge[i], 32, out) == BAD);
    CHECK(arborhash_blake2s_hash_many(inputs, lens, 4, NULL, 0, huge[i], out) == BAD);
    CHECK(out_unchanged());
  }
  /* The BLAKE2 limits and one past them. */
  CHECK(arborhash_blake2b_hash_many(inputs, lens, 4, key, 64, 64, out) == OK);
  CHECK(arborhash_blake2b_hash_many(inputs, lens, 4, key, 0, 1, out) == OK);
  CHECK(arborhash_blake2s_hash_many(inputs, lens, 4, key, 32, 32, out) == OK);
  reset_out();
  CHECK(arborhash_blake2b_hash_many(inputs, lens, 4, key, 65, 64, out) == BAD);
  CHECK(arborhash_blake2b_hash_many(inputs, lens, 4, key, 0, 65, out) == BAD);
  CHECK(arborhash_blake2b_hash_many(inputs, lens, 4, key, 0, 0, out) == BAD);
  CHECK(arborhash_blake2s_hash_many(inputs, lens, 4, key, 33, 32, out) == BAD);
  CHECK(arborhash_blake2s_hash_many(inputs, lens, 4, key, 0, 33, out) == BAD);
  CHECK(arborhash_blake2s_hash_many(inputs, lens, 4, key, 0, 0, out) == BAD);
  CHECK(out_unchanged());
}

/* libb2's functions for one variant: lengths at 0, at the limit, one past, and huge. */
#define TEST_BLAKE2(v, OUTBYTES, KEYBYTES)                                                  \
  static void test_##v(void) {                                                             \
    static v##_state S;                                                                    \
    uint8_t key[(KEYBYTES) + 1] = {9};                                                     \
    CHECK(v##_init(&S, (OUTBYTES)) == OK);                                                 \
    CHECK(v##_init(&S, 1) == OK);                                                          \
    CHECK(v##_init(&S, 0) == BAD);                                                         \
    CHECK(v##_init(&S, (OUTBYTES) + 1) == BAD);                                            \
    CHECK(v##_init_key(&S, (OUTBYTES), key, (KEYBYTES)) == OK);                            \
    CHECK(v##_init_key(&S, (OUTBYTES), key, (KEYBYTES) + 1) == BAD);                       \
    CHECK(v##_init_key(&S, (OUTBYTES), key, 0) == BAD);                                    \
    CHECK(v##_init_key(&S, 0, key, 1) == BAD);                                             \
    CHECK(v##_init_key(&S, (OUTBYTES) + 1, key, 1) == BAD);                                \
    for (size_t i = 0; i < HUGE_COUNT; i++) {                                              \
      CHECK(v##_init(&S, huge[i]) == BAD);                                                 \
      CHECK(v##_init_key(&S, huge[i], key, 1) == BAD);                                     \
      CHECK(v##_init_key(&S, (OUTBYTES), key, huge[i]) == BAD);                            \
      CHECK(v##_init(&S, (OUTBYTES)) == OK);                                               \
      CHECK(v##_update(&S, data, huge[i]) == BAD);                                         \
      CHECK(v##_init(&S, (OUTBYTES)) == OK);                                               \
      reset_out();                                                                         \
      CHECK(v##_final(&S, out, huge[i]) == BAD);                                           \
      CHECK(v(out, data, NULL, (OUTBYTES), huge[i], 0) == BAD);                            \
      CHECK(v(out, data, key, (OUTBYTES), 1, huge[i]) == BAD);                             \
      CHECK(v(out, data, NULL, huge[i], 1, 0) == BAD);                                     \
      CHECK(out_unchanged());                                                              \
    }                                                                                      \
    CHECK(v##_init(&S, (OUTBYTES)) == OK);                                                 \
    CHECK(v##_update(&S, NULL, 0) == OK);                                                  \
    CHECK(v##_final(&S, out, 0) == BAD);                                                   \
    CHECK(v##_final(&S, out, (OUTBYTES) + 1) == BAD);                                      \
    CHECK(v##_final(&S, out, (OUTBYTES)) == OK);                                           \
    uint8_t one[OUTBYTES];                                                                 \
    CHECK(v(one, NULL, NULL, (OUTBYTES), 0, 0) == OK && memcmp(one, out, (OUTBYTES)) == 0); \
    CHECK(v(out, data, key, (OUTBYTES), 100, (KEYBYTES)) == OK);                           \
    CHECK(v(out, data, key, 1, 100, 0) == OK);                                             \
    CHECK(v(out, data, key, (OUTBYTES), 100, (KEYBYTES) + 1) == BAD);                      \
    CHECK(v(out, data, key, (OUTBYTES) + 1, 100, 0) == BAD);                               \
    CHECK(v(out, data, key, 0, 100, 0) == BAD);                                            \
  }

TEST_BLAKE2(blake2b, BLAKE2B_OUTBYTES, BLAKE2B_KEYBYTES)
TEST_BLAKE2(blake2s, BLAKE2S_OUTBYTES, BLAKE2S_KEYBYTES)
TEST_BLAKE2(blake2bp, BLAKE2B_OUTBYTES, BLAKE2B_KEYBYTES)
TEST_BLAKE2(blake2sp, BLAKE2S_OUTBYTES, BLAKE2S_KEYBYTES)

int main(void) {
  uint64_t fill = 3;
  for (size_t i = 0; i < sizeof data; i += 8) {
    uint64_t r = next_random(&fill);
    memcpy(data + i, &r, 8);
  }
  test_blake3_h();
  test_one_shots();
  test_batches();
  test_blake2b();
  test_blake2s();
  test_blake2bp();
  test_blake2sp();
  printf("bounds: %d checks, %d failed (backend %s)\n", checks, failures, arborhash_backend());
  return failures != 0;
}
