/* Tests of arborhash.h against the other two headers, and of the bad-argument rules of all
 * three: batch results equal one-at-a-time results, threaded equal single-threaded,
 * Tillich-Zemor is homomorphic, and every checkable misuse returns an error (or, for the void
 * BLAKE3 functions, leaves the hasher unusable) without crashing. */
#include "arborhash.h"
#include "blake2.h"
#include "blake3.h"
#include "check.h"
#include "common.h"

static uint8_t data[3 << 20];

static void blake3_of(const uint8_t *key, const uint8_t *in, size_t len, uint8_t out[32]) {
  static blake3_hasher h;
  if (key) blake3_hasher_init_keyed(&h, key);
  else blake3_hasher_init(&h);
  blake3_hasher_update(&h, in, len);
  blake3_hasher_finalize(&h, out, 32);
}

static void test_batches(void) {
  enum { N = 37 };
  const uint8_t *inputs[N];
  size_t lens[N];
  uint64_t random = 7;
  for (int i = 0; i < N; i++) {
    lens[i] = i < 5 ? (size_t)i * 1024 : (size_t)(next_random(&random) % 9000);
    inputs[i] = data + next_random(&random) % 1000; /* unaligned starts */
  }
  uint8_t key[64], out[N * 64], one[64];
  for (int i = 0; i < 64; i++) key[i] = (uint8_t)(0xA0 + i);

  CHECK(arborhash_blake3_hash_many(inputs, lens, N, out) == ARBORHASH_OK);
  for (int i = 0; i < N; i++) {
    blake3_of(NULL, inputs[i], lens[i], one);
    CHECK(memcmp(out + 32 * i, one, 32) == 0);
  }
  CHECK(arborhash_blake3_keyed_hash_many(key, inputs, lens, N, out) == ARBORHASH_OK);
  for (int i = 0; i < N; i++) {
    blake3_of(key, inputs[i], lens[i], one);
    CHECK(memcmp(out + 32 * i, one, 32) == 0);
  }
  for (size_t keylen = 0; keylen <= 64; keylen += 64) {
    CHECK(arborhash_blake2b_hash_many(inputs, lens, N, key, keylen, 40, out) == ARBORHASH_OK);
    for (int i = 0; i < N; i++) {
      CHECK(blake2b(one, inputs[i], key, 40, lens[i], keylen) == 0);
      CHECK(memcmp(out + 40 * i, one, 40) == 0);
    }
    CHECK(arborhash_blake2s_hash_many(inputs, lens, N, key, keylen / 2, 32, out) == ARBORHASH_OK);
    for (int i = 0; i < N; i++) {
      CHECK(blake2s(one, inputs[i], key, 32, lens[i], keylen / 2) == 0);
      CHECK(memcmp(out + 32 * i, one, 32) == 0);
    }
  }
  /* An empty batch is fine, even with NULL arrays. */
  CHECK(arborhash_blake3_hash_many(NULL, NULL, 0, NULL) == ARBORHASH_OK);
  /* Bad arguments. */
  CHECK(arborhash_blake3_hash_many(NULL, lens, 1, out) == ARBORHASH_BAD_ARGUMENT);
  CHECK(arborhash_blake3_hash_many(inputs, NULL, 1, out) == ARBORHASH_BAD_ARGUMENT);
  CHECK(arborhash_blake3_hash_many(inputs, lens, 1, NULL) == ARBORHASH_BAD_ARGUMENT);
  CHECK(arborhash_blake3_keyed_hash_many(NULL, inputs, lens, 1, out) == ARBORHASH_BAD_ARGUMENT);
  const uint8_t *null_input[1] = {NULL};
  size_t one_len[1] = {1}, zero_len[1] = {0};
  CHECK(arborhash_blake3_hash_many(null_input, one_len, 1, out) == ARBORHASH_BAD_ARGUMENT);
  CHECK(arborhash_blake3_hash_many(null_input, zero_len, 1, out) == ARBORHASH_OK);
  CHECK(arborhash_blake2b_hash_many(inputs, lens, N, key, 65, 64, out) == ARBORHASH_BAD_ARGUMENT);
  CHECK(arborhash_blake2b_hash_many(inputs, lens, N, key, 0, 65, out) == ARBORHASH_BAD_ARGUMENT);
  CHECK(arborhash_blake2b_hash_many(inputs, lens, N, key, 0, 0, out) == ARBORHASH_BAD_ARGUMENT);
  CHECK(arborhash_blake2b_hash_many(inputs, lens, N, NULL, 5, 64, out) == ARBORHASH_BAD_ARGUMENT);
  CHECK(arborhash_blake2s_hash_many(inputs, lens, N, key, 33, 32, out) == ARBORHASH_BAD_ARGUMENT);
  CHECK(arborhash_blake2s_hash_many(inputs, lens, N, key, 0, 33, out) == ARBORHASH_BAD_ARGUMENT);
  CHECK(arborhash_blake2s_hash_many(inputs, lens, (size_t)-1, key, 0, 32, out) == ARBORHASH_BAD_ARGUMENT);
}

/* The XOF batches against blake3_hasher, per message, in the three modes; key derivation also
 * with contexts that are not UTF-8, NUL-terminated (mode 3) and of a length with a NUL inside
 * (mode 4, and mode 5 with the UTF-8 context), against blake3_hasher_init_derive_key(_raw). */
static void test_xof_batches(void) {
  enum { N = 21, MAX_OUT = 1000 };
  static const size_t out_lens[] = {0, 1, 31, 32, 33, 64, 65, 200, MAX_OUT};
  static const size_t counts[] = {1, 2, 16, N};
  static uint8_t out[N * MAX_OUT + 1], one[MAX_OUT];
  static blake3_hasher h;
  const uint8_t *inputs[N];
  size_t lens[N];
  uint64_t random = 40;
  for (int i = 0; i < N; i++) {
    lens[i] = i < 6 ? (size_t)i * 1023 : (size_t)(next_random(&random) % 40000);
    inputs[i] = data + next_random(&random) % 1000;
  }
  uint8_t key[32];
  for (int i = 0; i < 32; i++) key[i] = (uint8_t)(0x40 + i);
  const char *context = "arborhash 2026-12-01 batch XOF test";
  const char *bytes_context = "arborhash \xff\xfe\x80 batch context";
  static const uint8_t raw_context[] = {'c', 0xff, 0, 0xc0, 0x80, 'x'};
  for (size_t ci = 0; ci < sizeof counts / sizeof counts[0]; ci++) {
    size_t count = counts[ci];
    for (size_t oi = 0; oi < sizeof out_lens / sizeof out_lens[0]; oi++) {
      size_t out_len = out_lens[oi];
      for (int mode = 0; mode < 6; mode++) {
        memset(out, 0xEE, sizeof out);
        const void *raw = mode == 4 ? (const void *)raw_context : (const void *)context;
        size_t raw_len = mode == 4 ? sizeof raw_context : strlen(context);
        int rc = mode == 0   ? arborhash_blake3_hash_many_xof(inputs, lens, count, out_len, out)
                 : mode == 1 ? arborhash_blake3_keyed_hash_many_xof(key, inputs, lens, count,
                                                                     out_len, out)
                 : mode == 2 ? arborhash_blake3_derive_key_many_xof(context, inputs, lens, count,
                                                                     out_len, out)
                 : mode == 3 ? arborhash_blake3_derive_key_many_xof(bytes_context, inputs, lens,
                                                                     count, out_len, out)
                             : arborhash_blake3_derive_key_many_xof_raw(raw, raw_len, inputs,
                                                                         lens, count, out_len,
                                                                         out);
        CHECK(rc == ARBORHASH_OK);
        for (size_t i = 0; i < count; i++) {
          if (mode == 0) blake3_hasher_init(&h);
          else if (mode == 1) blake3_hasher_init_keyed(&h, key);
          else if (mode == 2) blake3_hasher_init_derive_key(&h, context);
          else if (mode == 3) blake3_hasher_init_derive_key(&h, bytes_context);
          else blake3_hasher_init_derive_key_raw(&h, raw, raw_len);
          blake3_hasher_update(&h, inputs[i], lens[i]);
          blake3_hasher_finalize(&h, one, out_len);
          CHECK(memcmp(out + out_len * i, one, out_len) == 0);
        }
        /* Nothing past the batch's outputs is written. */
        CHECK(out[out_len * count] == 0xEE);
      }
    }
  }
  /* Empty batches, and bad arguments. */
  CHECK(arborhash_blake3_hash_many_xof(NULL, NULL, 0, 100, NULL) == ARBORHASH_OK);
  CHECK(arborhash_blake3_hash_many_xof(inputs, lens, 3, 0, NULL) == ARBORHASH_OK);
  CHECK(arborhash_blake3_derive_key_many_xof("", NULL, NULL, 0, 64, NULL) == ARBORHASH_OK);
  CHECK(arborhash_blake3_hash_many_xof(NULL, lens, 1, 64, out) == ARBORHASH_BAD_ARGUMENT);
  CHECK(arborhash_blake3_hash_many_xof(inputs, NULL, 1, 64, out) == ARBORHASH_BAD_ARGUMENT);
  CHECK(arborhash_blake3_hash_many_xof(inputs, lens, 1, 64, NULL) == ARBORHASH_BAD_ARGUMENT);
  CHECK(arborhash_blake3_keyed_hash_many_xof(NULL, inputs, lens, 1, 64, out) ==
        ARBORHASH_BAD_ARGUMENT);
  CHECK(arborhash_blake3_derive_key_many_xof(NULL, inputs, lens, 1, 64, out) ==
        ARBORHASH_BAD_ARGUMENT);
  CHECK(arborhash_blake3_derive_key_many_xof_raw(NULL, 0, NULL, NULL, 0, 64, NULL) ==
        ARBORHASH_OK);
  CHECK(arborhash_blake3_derive_key_many_xof_raw("\xff", 1, inputs, lens, 3, 0, NULL) ==
        ARBORHASH_OK);
  CHECK(arborhash_blake3_derive_key_many_xof_raw(NULL, 1, inputs, lens, 1, 64, out) ==
        ARBORHASH_BAD_ARGUMENT);
  CHECK(arborhash_blake3_derive_key_many_xof_raw("c", SIZE_MAX, inputs, lens, 1, 64, out) ==
        ARBORHASH_BAD_ARGUMENT);
  CHECK(arborhash_blake3_derive_key_many_xof_raw("\xff", 1, inputs, lens, 1, 64, NULL) ==
        ARBORHASH_BAD_ARGUMENT);
}

static void test_threaded(void) {
  uint8_t a[32], b[32];
  size_t len = sizeof data - 12345;
  blake3_of(NULL, data, len, a);
  CHECK(arborhash_blake3_hash_threaded(data, len, b) == ARBORHASH_OK);
  CHECK(memcmp(a, b, 32) == 0);
  blake3_hasher *h = malloc(sizeof *h);
  blake3_hasher_init(h);
  CHECK(arborhash_blake3_hasher_update_threaded(h, data, 100) == ARBORHASH_OK);
  CHECK(arborhash_blake3_hasher_update_threaded(h, data + 100, len - 100) == ARBORHASH_OK);
  blake3_hasher_finalize(h, b, 32);
  CHECK(memcmp(a, b, 32) == 0);
  CHECK(arborhash_blake3_hash(data, len, b) == ARBORHASH_OK);
  CHECK(memcmp(a, b, 32) == 0);
  for (size_t n = 0; n < 5000; n += 333) {
    blake3_of(NULL, data + 1, n, a);
    CHECK(arborhash_blake3_hash(data + 1, n, b) == ARBORHASH_OK);
    CHECK(memcmp(a, b, 32) == 0);
  }
  CHECK(arborhash_blake3_hash(NULL, 1, b) == ARBORHASH_BAD_ARGUMENT);
  CHECK(arborhash_blake3_hash(data, 1, NULL) == ARBORHASH_BAD_ARGUMENT);
  CHECK(arborhash_blake3_hash_threaded(NULL, 1, b) == ARBORHASH_BAD_ARGUMENT);
  CHECK(arborhash_blake3_hash_threaded(data, 1, NULL) == ARBORHASH_BAD_ARGUMENT);
  CHECK(arborhash_blake3_hasher_update_threaded(NULL, data, 1) == ARBORHASH_BAD_ARGUMENT);
  CHECK(arborhash_blake3_hasher_update_threaded(h, NULL, 1) == ARBORHASH_BAD_ARGUMENT);
  CHECK(arborhash_blake3_hasher_check(h) == ARBORHASH_BAD_ARGUMENT);
  free(h);
}

/* A hasher gathers a short message and hashes it at finalize, and moves to an incremental
 * hasher past 16 KiB: both paths, and a reset of the second, must agree for every mode. */
static void test_blake3_paths(void) {
  blake3_hasher *gathered = malloc(sizeof *gathered), *incremental = malloc(sizeof *incremental);
  uint8_t key[BLAKE3_KEY_LEN], a[300], b[300];
  for (int i = 0; i < BLAKE3_KEY_LEN; i++) key[i] = (uint8_t)(3 * i);
  for (int keyed = 0; keyed < 2; keyed++) {
    for (size_t len = 0; len <= 16385; len += len < 70 ? 1 : 4093) {
      if (keyed) {
        blake3_hasher_init_keyed(gathered, key);
        blake3_hasher_init_keyed(incremental, key);
      } else {
        blake3_hasher_init(gathered);
        blake3_hasher_init(incremental);
      }
      blake3_hasher_update(incremental, data, 20000);
      blake3_hasher_reset(incremental);
      blake3_hasher_update(gathered, data + 3, len);
      blake3_hasher_update(incremental, data + 3, len);
      for (uint64_t seek = 0; seek < 2000; seek += 999) {
        blake3_hasher_finalize_seek(gathered, seek, a, sizeof a);
        blake3_hasher_finalize_seek(incremental, seek, b, sizeof b);
        CHECK(memcmp(a, b, sizeof a) == 0);
      }
      blake3_hasher_finalize(gathered, a, 20);
      blake3_hasher_finalize(incremental, b, 20);
      CHECK(memcmp(a, b, 20) == 0);
    }
  }
  free(gathered);
  free(incremental);
}

static void test_tz(void) {
  uint8_t whole[64], parts[3 * 64], joined[64], threaded[64], empty[64];
  size_t len = 100000, cut1 = 777, cut2 = 50001;
  CHECK(arborhash_tz_sum(data, len, 0, whole) == ARBORHASH_OK);
  CHECK(arborhash_tz_sum(data, len, 1, threaded) == ARBORHASH_OK);
  CHECK(memcmp(whole, threaded, 64) == 0);
  CHECK(arborhash_tz_sum(data, cut1, 0, parts) == ARBORHASH_OK);
  CHECK(arborhash_tz_sum(data + cut1, cut2 - cut1, 0, parts + 64) == ARBORHASH_OK);
  CHECK(arborhash_tz_sum(data + cut2, len - cut2, 0, parts + 128) == ARBORHASH_OK);
  CHECK(arborhash_tz_concat(parts, 3, joined) == ARBORHASH_OK);
  CHECK(memcmp(whole, joined, 64) == 0);
  /* The empty message hashes to the identity matrix: entries 1, 0, 0, 1, big-endian. */
  CHECK(arborhash_tz_sum(NULL, 0, 0, empty) == ARBORHASH_OK);
  uint8_t identity[64] = {0};
  identity[15] = 1;
  identity[63] = 1;
  CHECK(memcmp(empty, identity, 64) == 0);
  CHECK(arborhash_tz_concat(NULL, 0, joined) == ARBORHASH_OK);
  CHECK(memcmp(joined, identity, 64) == 0);
  /* A matrix of determinant 0 is no message's hash. */
  memset(parts, 0, 64);
  CHECK(arborhash_tz_concat(parts, 1, joined) == ARBORHASH_BAD_ARGUMENT);
  CHECK(arborhash_tz_sum(NULL, 1, 0, whole) == ARBORHASH_BAD_ARGUMENT);
  CHECK(arborhash_tz_sum(data, 1, 0, NULL) == ARBORHASH_BAD_ARGUMENT);
  CHECK(arborhash_tz_concat(NULL, 1, joined) == ARBORHASH_BAD_ARGUMENT);
}

/* Derives from `context` given NUL-terminated and given with its length: the same key. */
static void check_derive_key_forms_agree(blake3_hasher *h, const char *context) {
  uint8_t raw[32], terminated[32];
  blake3_hasher_init_derive_key_raw(h, context, strlen(context));
  blake3_hasher_update(h, data, 5000);
  blake3_hasher_finalize(h, raw, 32);
  blake3_hasher_init_derive_key(h, context);
  blake3_hasher_update(h, data, 5000);
  blake3_hasher_finalize(h, terminated, 32);
  CHECK(memcmp(raw, terminated, 32) == 0);
}

static void test_blake3_misuse(void) {
  blake3_hasher *h = malloc(sizeof *h);
  uint8_t out[40], zeros[40] = {0};
  blake3_hasher_init(h);
  CHECK(arborhash_blake3_hasher_check(h) == ARBORHASH_OK);
  /* NULL input with a length makes the hasher unusable; finalize then writes zeros. */
  blake3_hasher_update(h, NULL, 5);
  CHECK(arborhash_blake3_hasher_check(h) == ARBORHASH_BAD_ARGUMENT);
  memset(out, 0xFF, sizeof out);
  blake3_hasher_finalize(h, out, sizeof out);
  CHECK(memcmp(out, zeros, sizeof out) == 0);
  /* NULL input with length 0 is fine. */
  blake3_hasher_init(h);
  blake3_hasher_update(h, NULL, 0);
  CHECK(arborhash_blake3_hasher_check(h) == ARBORHASH_OK);
  blake3_hasher_init_keyed(h, NULL);
  CHECK(arborhash_blake3_hasher_check(h) == ARBORHASH_BAD_ARGUMENT);
  blake3_hasher_init_derive_key(h, NULL);
  CHECK(arborhash_blake3_hasher_check(h) == ARBORHASH_BAD_ARGUMENT);
  /* Contexts are bytes, as in the official library: UTF-8 or not. */
  blake3_hasher_init_derive_key(h, "\xff\xfe not UTF-8");
  CHECK(arborhash_blake3_hasher_check(h) == ARBORHASH_OK);
  blake3_hasher_init_derive_key_raw(h, "abc", 3);
  CHECK(arborhash_blake3_hasher_check(h) == ARBORHASH_OK);
  blake3_hasher_init_derive_key_raw(h, NULL, 3);
  CHECK(arborhash_blake3_hasher_check(h) == ARBORHASH_BAD_ARGUMENT);
  /* The raw and NUL-terminated forms agree, for UTF-8 and other bytes. */
  check_derive_key_forms_agree(h, "ctx");
  check_derive_key_forms_agree(h, "\xff\xfe\x80");
  /* Calls with a NULL hasher or output do nothing. */
  blake3_hasher_init(NULL);
  blake3_hasher_update(NULL, data, 10);
  blake3_hasher_finalize(NULL, out, 32);
  CHECK(memcmp(out, zeros, 32) == 0);
  blake3_hasher_finalize(h, NULL, 32);
  blake3_hasher_reset(NULL);
  CHECK(arborhash_blake3_hasher_check(NULL) == ARBORHASH_BAD_ARGUMENT);
  /* A hasher never initialised is refused. */
  memset(h, 0xAB, sizeof *h);
  CHECK(arborhash_blake3_hasher_check(h) == ARBORHASH_BAD_ARGUMENT);
  blake3_hasher_update(h, data, 10);
  free(h);
}

static void test_blake2_misuse(void) {
  blake2b_state S, *moved;
  blake2s_state T;
  blake2bp_state P;
  blake2sp_state Q;
  uint8_t out[64], one[64], key[65] = {1};
  CHECK(blake2b_init(NULL, 64) == -1);
  CHECK(blake2b_init(&S, 0) == -1);
  CHECK(blake2b_init(&S, 65) == -1);
  CHECK(blake2s_init(&T, 33) == -1);
  CHECK(blake2bp_init(&P, 65) == -1);
  CHECK(blake2sp_init(&Q, 0) == -1);
  CHECK(blake2b_init_key(&S, 64, NULL, 10) == -1);
  CHECK(blake2b_init_key(&S, 64, key, 0) == -1);
  CHECK(blake2b_init_key(&S, 64, key, 65) == -1);
  CHECK(blake2s_init_key(&T, 32, key, 33) == -1);
  CHECK(blake2bp_init_key(&P, 64, key, 65) == -1);
  CHECK(blake2sp_init_key(&Q, 32, key, 33) == -1);
  /* A state whose init failed is refused. */
  CHECK(blake2b_update(&S, data, 1) == -1);
  CHECK(blake2b_final(&S, out, 64) == -1);
  /* A state never initialised is refused. */
  memset(&S, 0xAB, sizeof S);
  CHECK(blake2b_update(&S, data, 1) == -1);
  CHECK(blake2b_update(NULL, data, 1) == -1);
  CHECK(blake2b_init(&S, 64) == 0);
  CHECK(blake2b_update(&S, NULL, 1) == -1);
  CHECK(blake2b_update(&S, NULL, 0) == 0);
  CHECK(blake2b_update(&S, data, 1000) == 0);
  CHECK(blake2b_final(&S, NULL, 64) == -1);
  CHECK(blake2b_final(&S, out, 0) == -1);
  CHECK(blake2b_final(&S, out, 65) == -1);
  /* A copy of the state, moved 8 bytes off its alignment, carries on as the original. */
  uint8_t *memory = aligned_alloc(64, (sizeof S + 64 + 63) / 64 * 64);
  moved = (blake2b_state *)(memory + ((uintptr_t)&S % 64 + 8) % 64);
  memcpy(moved, &S, sizeof S);
  CHECK(blake2b_update(moved, data + 1000, 3000) == 0);
  CHECK(blake2b_final(moved, out, 64) == 0);
  CHECK(blake2b(one, data, NULL, 64, 4000, 0) == 0);
  CHECK(memcmp(out, one, 64) == 0);
  free(memory);
  /* After final: no more calls until initialised again. */
  CHECK(blake2b_final(&S, out, 64) == 0);
  CHECK(blake2b_final(&S, out, 64) == -1);
  CHECK(blake2b_update(&S, data, 1) == -1);
  /* A shorter outlen at final gives a prefix. */
  CHECK(blake2s_init(&T, 32) == 0 && blake2s_final(&T, out, 16) == 0);
  CHECK(blake2s(one, NULL, NULL, 32, 0, 0) == 0 && memcmp(out, one, 16) == 0);
  /* Parameter blocks: key_length, reserved bytes and lengths out of range are refused. */
  blake2b_param pb;
  memset(&pb, 0, sizeof pb);
  pb.digest_length = 64;
  pb.fanout = 1;
  pb.depth = 1;
  CHECK(blake2b_init_param(&S, &pb) == 0);
  CHECK(blake2b_final(&S, out, 64) == 0);
  CHECK(blake2b(one, NULL, NULL, 64, 0, 0) == 0 && memcmp(out, one, 64) == 0);
  pb.key_length = 1;
  CHECK(blake2b_init_param(&S, &pb) == -1);
  pb.key_length = 0;
  pb.reserved[3] = 1;
  CHECK(blake2b_init_param(&S, &pb) == -1);
  pb.reserved[3] = 0;
  pb.digest_length = 65;
  CHECK(blake2b_init_param(&S, &pb) == -1);
  pb.digest_length = 64;
  pb.inner_length = 65;
  CHECK(blake2b_init_param(&S, &pb) == -1);
  CHECK(blake2b_init_param(&S, NULL) == -1);
  CHECK(blake2b_init_param(NULL, &pb) == -1);
  blake2s_param ps;
  memset(&ps, 0, sizeof ps);
  ps.digest_length = 33;
  CHECK(blake2s_init_param(&T, &ps) == -1);
  CHECK(sizeof(blake2b_param) == 64 && sizeof(blake2s_param) == 32);
  /* One-shot rules. */
  CHECK(blake2b(NULL, data, NULL, 64, 1, 0) == -1);
  CHECK(blake2b(out, NULL, NULL, 64, 1, 0) == -1);
  CHECK(blake2b(out, data, NULL, 64, 1, 5) == -1);
  CHECK(blake2b(out, data, key, 0, 1, 0) == -1);
  CHECK(blake2b(out, data, key, 64, 1, 65) == -1);
  CHECK(blake2s(out, data, key, 33, 1, 0) == -1);
  CHECK(blake2bp(out, data, key, 64, 1, 65) == -1);
  CHECK(blake2sp(out, data, key, 32, 1, 33) == -1);
  CHECK(blake2(out, data, key, 64, 1, 64) == 0);
}

int main(void) {
  uint64_t random = 1;
  for (size_t i = 0; i < sizeof data; i += 8) {
    uint64_t r = next_random(&random);
    memcpy(data + i, &r, 8);
  }
  const char *backend = arborhash_backend();
  CHECK(backend != NULL);
  CHECK(strcmp(arborhash_version(), ARBORHASH_VERSION_STRING) == 0);
  CHECK(strcmp(blake3_version(), BLAKE3_VERSION_STRING) == 0);
  test_batches();
  test_xof_batches();
  test_threaded();
  test_blake3_paths();
  test_tz();
  test_blake3_misuse();
  test_blake2_misuse();
  printf("api: %d checks, %d failed (backend %s)\n", checks, failures, backend);
  return failures != 0;
}
