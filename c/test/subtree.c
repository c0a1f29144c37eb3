/* Tests of arborhash.h's BLAKE3 subtrees against one-shot hashing of the whole input: trees
 * split at pseudo-random nodes (fixed seed) into subtrees hashed apart and merged back, in the
 * three modes, give the hash and the extended output of blake3_hasher; and every offset and
 * length that cannot form a subtree, and every bad argument, is refused with
 * ARBORHASH_BAD_ARGUMENT. */
#include "arborhash.h"
#include "blake3.h"
#include "check.h"
#include "common.h"

#define CHUNK BLAKE3_CHUNK_LEN

static uint8_t data[(3 << 20) + 4096];
static uint64_t random_state = 36;

typedef struct {
  int mode;
  const uint8_t *key; /* the key, or the context key */
  const char *name;
} mode;

/* The CV of the node over data[offset, offset + len): hashed whole, or (some of the time, and
 * always where a node is too long to be one subtree call) split and merged. */
static void node_cv(const mode *m, uint64_t offset, size_t len, uint8_t cv[32], int *subtrees) {
  if (len <= CHUNK || next_random(&random_state) % 3 == 0) {
    CHECK(arborhash_blake3_hash_subtree(m->mode, m->key, offset, data + offset, len, cv) ==
          ARBORHASH_OK);
    ++*subtrees;
    return;
  }
  uint64_t left_len = 0;
  CHECK(arborhash_blake3_left_subtree_len(len, &left_len) == ARBORHASH_OK);
  uint8_t left[32], right[32];
  node_cv(m, offset, (size_t)left_len, left, subtrees);
  node_cv(m, offset + left_len, len - (size_t)left_len, right, subtrees);
  CHECK(arborhash_blake3_merge_subtrees_non_root(left, right, m->mode, m->key, cv) ==
        ARBORHASH_OK);
}

/* The whole input's output from seek on, from blake3_hasher, in mode m. */
static void whole(const mode *m, const char *context, size_t len, uint64_t seek, uint8_t *out,
                  size_t out_len) {
  static blake3_hasher h;
  if (m->mode == ARBORHASH_BLAKE3_MODE_HASH) blake3_hasher_init(&h);
  else if (m->mode == ARBORHASH_BLAKE3_MODE_KEYED_HASH) blake3_hasher_init_keyed(&h, m->key);
  else blake3_hasher_init_derive_key(&h, context);
  blake3_hasher_update(&h, data, len);
  blake3_hasher_finalize_seek(&h, seek, out, out_len);
}

static void test_trees(void) {
  static const size_t lengths[] = {1025,   2048,   2049,   3072,    4096,           4097,
                                   5000,   16383,  16384,  16385,   65536 + 1024,   100000,
                                   131072, 131073, 1 << 20, (1 << 20) + 1, 3 << 20, (3 << 20) + 4095};
  uint8_t key[32], context_key[32];
  const char *context = "arborhash 2026-12-01 subtree test";
  for (int i = 0; i < 32; i++) key[i] = (uint8_t)(0xa0 + i);
  CHECK(arborhash_blake3_hash_derive_key_context(context, strlen(context), context_key) ==
        ARBORHASH_OK);
  const mode modes[] = {{ARBORHASH_BLAKE3_MODE_HASH, NULL, "hash"},
                        {ARBORHASH_BLAKE3_MODE_KEYED_HASH, key, "keyed"},
                        {ARBORHASH_BLAKE3_MODE_DERIVE_KEY_MATERIAL, context_key, "derive-key"}};
  /* Seeks into the extended output: the start, inside a block, far out, and across 2^64. */
  static const struct {
    uint64_t seek;
    size_t len;
  } outputs[] = {{0, 32}, {0, 1}, {0, 200}, {1000, 131}, {(uint64_t)1 << 40, 64}, {UINT64_MAX - 50, 100}};
  int subtrees = 0, trees = 0;
  for (size_t mi = 0; mi < sizeof modes / sizeof modes[0]; mi++) {
    const mode *m = &modes[mi];
    for (size_t li = 0; li < sizeof lengths / sizeof lengths[0]; li++) {
      size_t len = lengths[li];
      uint8_t want[sizeof outputs / sizeof outputs[0]][200];
      for (size_t oi = 0; oi < sizeof outputs / sizeof outputs[0]; oi++)
        whole(m, context, len, outputs[oi].seek, want[oi], outputs[oi].len);
      for (int round = 0; round < 3; round++) {
        uint64_t split = 0;
        CHECK(arborhash_blake3_left_subtree_len(len, &split) == ARBORHASH_OK);
        uint8_t left[32], right[32];
        node_cv(m, 0, (size_t)split, left, &subtrees);
        node_cv(m, split, len - (size_t)split, right, &subtrees);
        trees++;
        for (size_t oi = 0; oi < sizeof outputs / sizeof outputs[0]; oi++) {
          uint8_t got[200];
          memset(got, 0, sizeof got);
          CHECK(arborhash_blake3_merge_subtrees_root(left, right, m->mode, m->key,
                                                    outputs[oi].seek, got, outputs[oi].len) ==
                ARBORHASH_OK);
          if (memcmp(got, want[oi], outputs[oi].len) != 0) {
            fprintf(stderr, "%s of %zu bytes, seek %llu: merged output differs\n", m->name, len,
                    (unsigned long long)outputs[oi].seek);
            CHECK(0);
          }
        }
        /* One call over the whole input (offset 0 has no limit) is the CV of the root node, as
         * a non-root: merging its children with merge_subtrees_non_root gives it too. */
        uint8_t all[32], merged[32];
        CHECK(arborhash_blake3_hash_subtree(m->mode, m->key, 0, data, len, all) == ARBORHASH_OK);
        CHECK(arborhash_blake3_merge_subtrees_non_root(left, right, m->mode, m->key, merged) ==
              ARBORHASH_OK);
        CHECK(memcmp(all, merged, 32) == 0);
      }
    }
  }
  /* The hashed context equals blake3_hasher_init_derive_key_raw's, non-UTF-8 bytes included. */
  const uint8_t raw_context[] = {'c', 0xff, 0xfe, 0x80, 0};
  uint8_t raw_key[32], a[32], b[32];
  CHECK(arborhash_blake3_hash_derive_key_context(raw_context, sizeof raw_context, raw_key) ==
        ARBORHASH_OK);
  uint64_t split = 0;
  CHECK(arborhash_blake3_left_subtree_len(5000, &split) == ARBORHASH_OK && split == 4096);
  uint8_t l[32], r[32];
  CHECK(arborhash_blake3_hash_subtree(2, raw_key, 0, data, 4096, l) == ARBORHASH_OK);
  CHECK(arborhash_blake3_hash_subtree(2, raw_key, 4096, data + 4096, 904, r) == ARBORHASH_OK);
  CHECK(arborhash_blake3_merge_subtrees_root(l, r, 2, raw_key, 0, a, 32) == ARBORHASH_OK);
  static blake3_hasher h;
  blake3_hasher_init_derive_key_raw(&h, raw_context, sizeof raw_context);
  blake3_hasher_update(&h, data, 5000);
  blake3_hasher_finalize(&h, b, 32);
  CHECK(memcmp(a, b, 32) == 0);
  printf("subtree: %d trees from %d subtree calls\n", trees, subtrees);
}

static void test_lengths(void) {
  uint64_t v = 0;
  /* left_subtree_len: the largest power of two of chunks leaving at least one byte. */
  CHECK(arborhash_blake3_left_subtree_len(1025, &v) == ARBORHASH_OK && v == 1024);
  CHECK(arborhash_blake3_left_subtree_len(2048, &v) == ARBORHASH_OK && v == 1024);
  CHECK(arborhash_blake3_left_subtree_len(2049, &v) == ARBORHASH_OK && v == 2048);
  CHECK(arborhash_blake3_left_subtree_len((1 << 20) + 1, &v) == ARBORHASH_OK && v == 1 << 20);
  CHECK(arborhash_blake3_left_subtree_len(UINT64_MAX, &v) == ARBORHASH_OK &&
        v == (uint64_t)1 << 63);
  CHECK(arborhash_blake3_left_subtree_len(((uint64_t)1 << 63) + 1, &v) == ARBORHASH_OK &&
        v == (uint64_t)1 << 63);
  CHECK(arborhash_blake3_left_subtree_len((uint64_t)1 << 63, &v) == ARBORHASH_OK &&
        v == (uint64_t)1 << 62);
  v = 7;
  CHECK(arborhash_blake3_left_subtree_len(1024, &v) == ARBORHASH_BAD_ARGUMENT && v == 7);
  CHECK(arborhash_blake3_left_subtree_len(1, &v) == ARBORHASH_BAD_ARGUMENT && v == 7);
  CHECK(arborhash_blake3_left_subtree_len(0, &v) == ARBORHASH_BAD_ARGUMENT && v == 7);
  CHECK(arborhash_blake3_left_subtree_len(5000, NULL) == ARBORHASH_BAD_ARGUMENT);
  /* max_subtree_len: the chunk index's largest power-of-two divisor, in chunks. */
  CHECK(arborhash_blake3_max_subtree_len(0, &v) == ARBORHASH_OK && v == UINT64_MAX);
  CHECK(arborhash_blake3_max_subtree_len(1024, &v) == ARBORHASH_OK && v == 1024);
  CHECK(arborhash_blake3_max_subtree_len(2048, &v) == ARBORHASH_OK && v == 2048);
  CHECK(arborhash_blake3_max_subtree_len(3072, &v) == ARBORHASH_OK && v == 1024);
  CHECK(arborhash_blake3_max_subtree_len(1 << 20, &v) == ARBORHASH_OK && v == 1 << 20);
  CHECK(arborhash_blake3_max_subtree_len((uint64_t)1 << 63, &v) == ARBORHASH_OK &&
        v == (uint64_t)1 << 63);
  CHECK(arborhash_blake3_max_subtree_len(UINT64_MAX - 1023, &v) == ARBORHASH_OK && v == 1024);
  v = 7;
  CHECK(arborhash_blake3_max_subtree_len(1, &v) == ARBORHASH_BAD_ARGUMENT && v == 7);
  CHECK(arborhash_blake3_max_subtree_len(1023, &v) == ARBORHASH_BAD_ARGUMENT && v == 7);
  CHECK(arborhash_blake3_max_subtree_len(1025, &v) == ARBORHASH_BAD_ARGUMENT && v == 7);
  CHECK(arborhash_blake3_max_subtree_len(UINT64_MAX, &v) == ARBORHASH_BAD_ARGUMENT && v == 7);
  CHECK(arborhash_blake3_max_subtree_len(1024, NULL) == ARBORHASH_BAD_ARGUMENT);
}

/* Subtrees that cannot exist, and bad arguments: refused, with nothing written. */
static void test_refused(void) {
  uint8_t key[32] = {1}, cv[32], out[64], unchanged[64];
  memset(cv, 0x55, sizeof cv);
  memset(unchanged, 0x55, sizeof unchanged);
  memcpy(out, unchanged, sizeof out);
#define REFUSED(call)                                                      \
  do {                                                                     \
    CHECK((call) == ARBORHASH_BAD_ARGUMENT);                               \
    CHECK(memcmp(cv, unchanged, 32) == 0 && memcmp(out, unchanged, 64) == 0); \
  } while (0)
  /* Offsets that are not chunk boundaries. */
  REFUSED(arborhash_blake3_hash_subtree(0, NULL, 1, data, 1, cv));
  REFUSED(arborhash_blake3_hash_subtree(0, NULL, 1023, data, 1, cv));
  REFUSED(arborhash_blake3_hash_subtree(0, NULL, 1025, data, 1, cv));
  REFUSED(arborhash_blake3_hash_subtree(0, NULL, UINT64_MAX, data, 1, cv));
  /* Empty subtrees. */
  REFUSED(arborhash_blake3_hash_subtree(0, NULL, 0, data, 0, cv));
  REFUSED(arborhash_blake3_hash_subtree(0, NULL, 1024, NULL, 0, cv));
  /* Longer than the offset allows: one byte past max_subtree_len. */
  REFUSED(arborhash_blake3_hash_subtree(0, NULL, 1024, data, 1025, cv));
  REFUSED(arborhash_blake3_hash_subtree(0, NULL, 3072, data, 1025, cv));
  REFUSED(arborhash_blake3_hash_subtree(0, NULL, 2048, data, 2049, cv));
  REFUSED(arborhash_blake3_hash_subtree(1, key, 1 << 20, data, (1 << 20) + 1, cv));
  REFUSED(arborhash_blake3_hash_subtree(0, NULL, UINT64_MAX - 1023, data, 1025, cv));
  /* Lengths no object has, and NULL where memory is needed. */
  REFUSED(arborhash_blake3_hash_subtree(0, NULL, 0, data, SIZE_MAX, cv));
  REFUSED(arborhash_blake3_hash_subtree(0, NULL, 0, data, SIZE_MAX / 2 + 1, cv));
  REFUSED(arborhash_blake3_hash_subtree(0, NULL, 0, NULL, 1, cv));
  REFUSED(arborhash_blake3_hash_subtree(0, NULL, 0, data, 1, NULL));
  /* Modes: unknown numbers, and keyed or derive-key without a key. */
  REFUSED(arborhash_blake3_hash_subtree(3, key, 0, data, 1, cv));
  REFUSED(arborhash_blake3_hash_subtree(-1, key, 0, data, 1, cv));
  REFUSED(arborhash_blake3_hash_subtree(1, NULL, 0, data, 1, cv));
  REFUSED(arborhash_blake3_hash_subtree(2, NULL, 0, data, 1, cv));
  REFUSED(arborhash_blake3_merge_subtrees_non_root(key, key, 3, key, cv));
  REFUSED(arborhash_blake3_merge_subtrees_non_root(key, key, 1, NULL, cv));
  REFUSED(arborhash_blake3_merge_subtrees_root(key, key, 2, NULL, 0, out, 32));
  REFUSED(arborhash_blake3_merge_subtrees_root(key, key, -7, key, 0, out, 32));
  /* NULL children or outputs, and output lengths no object has. */
  REFUSED(arborhash_blake3_merge_subtrees_non_root(NULL, key, 0, NULL, cv));
  REFUSED(arborhash_blake3_merge_subtrees_non_root(key, NULL, 0, NULL, cv));
  REFUSED(arborhash_blake3_merge_subtrees_non_root(key, key, 0, NULL, NULL));
  REFUSED(arborhash_blake3_merge_subtrees_root(NULL, key, 0, NULL, 0, out, 32));
  REFUSED(arborhash_blake3_merge_subtrees_root(key, NULL, 0, NULL, 0, out, 32));
  REFUSED(arborhash_blake3_merge_subtrees_root(key, key, 0, NULL, 0, NULL, 32));
  REFUSED(arborhash_blake3_merge_subtrees_root(key, key, 0, NULL, 0, out, SIZE_MAX));
  REFUSED(arborhash_blake3_merge_subtrees_root(key, key, 0, NULL, 0, out, SIZE_MAX / 2 + 1));
  REFUSED(arborhash_blake3_hash_derive_key_context(NULL, 1, cv));
  REFUSED(arborhash_blake3_hash_derive_key_context(data, SIZE_MAX, cv));
  REFUSED(arborhash_blake3_hash_derive_key_context(data, SIZE_MAX / 2 + 1, cv));
  REFUSED(arborhash_blake3_hash_derive_key_context(data, 1, NULL));
#undef REFUSED
  /* What is allowed at the edges: the hash mode ignores its key; no output is output. */
  CHECK(arborhash_blake3_hash_subtree(0, NULL, 0, data, 1, cv) == ARBORHASH_OK);
  CHECK(arborhash_blake3_hash_subtree(0, key, UINT64_MAX - 1023, data, 1024, cv) == ARBORHASH_OK);
  CHECK(arborhash_blake3_hash_subtree(0, NULL, (uint64_t)1 << 63, data, 1 << 20, cv) ==
        ARBORHASH_OK);
  CHECK(arborhash_blake3_merge_subtrees_root(key, key, 0, NULL, UINT64_MAX, NULL, 0) ==
        ARBORHASH_OK);
  CHECK(arborhash_blake3_merge_subtrees_root(key, key, 0, NULL, UINT64_MAX, out, 1) ==
        ARBORHASH_OK);
  CHECK(arborhash_blake3_hash_derive_key_context(NULL, 0, cv) == ARBORHASH_OK);
  /* The empty context's key is what blake3_hasher_init_derive_key("") uses. */
  uint8_t a[32], b[32], l[32], r[32];
  CHECK(arborhash_blake3_hash_subtree(2, cv, 0, data, 1024, l) == ARBORHASH_OK);
  CHECK(arborhash_blake3_hash_subtree(2, cv, 1024, data + 1024, 1, r) == ARBORHASH_OK);
  CHECK(arborhash_blake3_merge_subtrees_root(l, r, 2, cv, 0, a, 32) == ARBORHASH_OK);
  static blake3_hasher h;
  blake3_hasher_init_derive_key(&h, "");
  blake3_hasher_update(&h, data, 1025);
  blake3_hasher_finalize(&h, b, 32);
  CHECK(memcmp(a, b, 32) == 0);
}

/* Feeds data[0, len) to h in pieces of pseudo-random lengths, some long. */
static void feed(arborhash_blake3_subtree_hasher *h, size_t len) {
  for (size_t done = 0; done < len;) {
    uint64_t r = next_random(&random_state);
    size_t piece = r % 5 == 0 ? (size_t)(r >> 8) % 300000 : piece_len(&random_state);
    if (piece > len - done) piece = len - done;
    CHECK(arborhash_blake3_subtree_hasher_update(h, data + done, piece) == ARBORHASH_OK);
    done += piece;
  }
}

/* The incremental subtree hasher: at pseudo-random offsets (the chunk index an odd number
 * times a power of two, up to 2^53 chunks), lengths up to the offset's limit and update
 * splits, in every mode, its CV is arborhash_blake3_hash_subtree's; at offset 0 its root
 * output is blake3_hasher's. */
static void test_incremental(void) {
  uint8_t key[32], context_key[32];
  const char *context = "arborhash 2026-12-02 incremental subtree test";
  for (int i = 0; i < 32; i++) key[i] = (uint8_t)(0x40 + 3 * i);
  CHECK(arborhash_blake3_hash_derive_key_context(context, strlen(context), context_key) ==
        ARBORHASH_OK);
  const mode modes[] = {{ARBORHASH_BLAKE3_MODE_HASH, NULL, "hash"},
                        {ARBORHASH_BLAKE3_MODE_KEYED_HASH, key, "keyed"},
                        {ARBORHASH_BLAKE3_MODE_DERIVE_KEY_MATERIAL, context_key, "derive-key"}};
  int cases = 0;
  for (size_t mi = 0; mi < sizeof modes / sizeof modes[0]; mi++) {
    const mode *m = &modes[mi];
    for (int round = 0; round < 40; round++) {
      uint64_t r = next_random(&random_state);
      uint64_t offset = round % 8 == 0 ? 0 : ((r | 1) % ((uint64_t)1 << 40)) << (r >> 58) % 14;
      offset *= CHUNK;
      uint64_t max = 0;
      CHECK(arborhash_blake3_max_subtree_len(offset, &max) == ARBORHASH_OK);
      size_t limit = max < sizeof data ? (size_t)max : sizeof data;
      /* Often the whole limit, the edge the length rule checks. */
      size_t len = round % 3 == 0 ? limit : 1 + (size_t)(next_random(&random_state) % limit);
      arborhash_blake3_subtree_hasher *h = NULL;
      CHECK(arborhash_blake3_subtree_hasher_new(m->mode, m->key, offset, &h) == ARBORHASH_OK);
      if (h == NULL) return;
      feed(h, len);
      uint8_t want[32], got[32];
      CHECK(arborhash_blake3_hash_subtree(m->mode, m->key, offset, data, len, want) ==
            ARBORHASH_OK);
      if (offset == 0) {
        uint8_t whole_out[200], root_out[200];
        uint64_t seek = next_random(&random_state) % 5000;
        whole(m, context, len, seek, whole_out, sizeof whole_out);
        arborhash_blake3_subtree_hasher *copy = NULL;
        CHECK(arborhash_blake3_subtree_hasher_new(m->mode, m->key, 0, &copy) == ARBORHASH_OK);
        if (copy == NULL) return;
        feed(copy, len);
        CHECK(arborhash_blake3_subtree_hasher_finalize_root(copy, seek, root_out,
                                                            sizeof root_out) == ARBORHASH_OK);
        CHECK(memcmp(root_out, whole_out, sizeof root_out) == 0);
        arborhash_blake3_subtree_hasher_free(copy);
      }
      CHECK(arborhash_blake3_subtree_hasher_finalize_non_root(h, got) == ARBORHASH_OK);
      if (memcmp(got, want, 32) != 0) {
        fprintf(stderr, "%s: incremental subtree at %llu of %zu bytes differs\n", m->name,
                (unsigned long long)offset, len);
        CHECK(0);
      }
      arborhash_blake3_subtree_hasher_free(h);
      cases++;
    }
  }
  printf("subtree: %d incremental subtrees\n", cases);
}

/* The incremental hasher's refusals: each leaves the hasher as it was. */
static void test_incremental_refused(void) {
  uint8_t key[32] = {2}, cv[32], want[32], out[64];
  arborhash_blake3_subtree_hasher *h = NULL;
  /* Offsets that are not chunk boundaries, bad modes and keys, no place for the hasher. */
  CHECK(arborhash_blake3_subtree_hasher_new(0, NULL, 1, &h) == ARBORHASH_BAD_ARGUMENT);
  CHECK(arborhash_blake3_subtree_hasher_new(0, NULL, 1025, &h) == ARBORHASH_BAD_ARGUMENT);
  CHECK(arborhash_blake3_subtree_hasher_new(0, NULL, UINT64_MAX, &h) == ARBORHASH_BAD_ARGUMENT);
  CHECK(arborhash_blake3_subtree_hasher_new(3, key, 0, &h) == ARBORHASH_BAD_ARGUMENT);
  CHECK(arborhash_blake3_subtree_hasher_new(1, NULL, 0, &h) == ARBORHASH_BAD_ARGUMENT);
  CHECK(arborhash_blake3_subtree_hasher_new(2, NULL, 0, &h) == ARBORHASH_BAD_ARGUMENT);
  CHECK(arborhash_blake3_subtree_hasher_new(0, NULL, 0, NULL) == ARBORHASH_BAD_ARGUMENT);
  CHECK(h == NULL);
  /* NULL hashers. */
  CHECK(arborhash_blake3_subtree_hasher_update(NULL, data, 1) == ARBORHASH_BAD_ARGUMENT);
  CHECK(arborhash_blake3_subtree_hasher_finalize_non_root(NULL, cv) == ARBORHASH_BAD_ARGUMENT);
  CHECK(arborhash_blake3_subtree_hasher_finalize_root(NULL, 0, out, 32) ==
        ARBORHASH_BAD_ARGUMENT);
  arborhash_blake3_subtree_hasher_free(NULL);
  /* At offset 3072 (one chunk at most): empty, then past the limit at update, in one call
   * and across calls; the refused bytes are not added. */
  CHECK(arborhash_blake3_subtree_hasher_new(1, key, 3072, &h) == ARBORHASH_OK);
  if (h == NULL) return;
  CHECK(arborhash_blake3_subtree_hasher_finalize_non_root(h, cv) == ARBORHASH_BAD_ARGUMENT);
  CHECK(arborhash_blake3_subtree_hasher_update(h, data, 1025) == ARBORHASH_BAD_ARGUMENT);
  CHECK(arborhash_blake3_subtree_hasher_update(h, data, SIZE_MAX) == ARBORHASH_BAD_ARGUMENT);
  CHECK(arborhash_blake3_subtree_hasher_update(h, NULL, 1) == ARBORHASH_BAD_ARGUMENT);
  CHECK(arborhash_blake3_subtree_hasher_update(h, NULL, 0) == ARBORHASH_OK);
  CHECK(arborhash_blake3_subtree_hasher_update(h, data, 1000) == ARBORHASH_OK);
  CHECK(arborhash_blake3_subtree_hasher_update(h, data + 1000, 25) == ARBORHASH_BAD_ARGUMENT);
  CHECK(arborhash_blake3_subtree_hasher_update(h, data + 1000, 24) == ARBORHASH_OK);
  CHECK(arborhash_blake3_subtree_hasher_update(h, data + 1024, 1) == ARBORHASH_BAD_ARGUMENT);
  /* Not the root (offset 3072), and no NULL output; then finalize once, not twice. */
  CHECK(arborhash_blake3_subtree_hasher_finalize_root(h, 0, out, 32) == ARBORHASH_BAD_ARGUMENT);
  CHECK(arborhash_blake3_subtree_hasher_finalize_non_root(h, NULL) == ARBORHASH_BAD_ARGUMENT);
  CHECK(arborhash_blake3_subtree_hasher_finalize_non_root(h, cv) == ARBORHASH_OK);
  CHECK(arborhash_blake3_hash_subtree(1, key, 3072, data, 1024, want) == ARBORHASH_OK);
  CHECK(memcmp(cv, want, 32) == 0);
  CHECK(arborhash_blake3_subtree_hasher_finalize_non_root(h, cv) == ARBORHASH_BAD_ARGUMENT);
  CHECK(arborhash_blake3_subtree_hasher_update(h, data, 1) == ARBORHASH_BAD_ARGUMENT);
  arborhash_blake3_subtree_hasher_free(h);
  /* Offset 0: the root once, the empty input's hash included; and the highest chunk. */
  CHECK(arborhash_blake3_subtree_hasher_new(0, NULL, 0, &h) == ARBORHASH_OK);
  if (h == NULL) return;
  CHECK(arborhash_blake3_subtree_hasher_finalize_root(h, 0, NULL, 32) == ARBORHASH_BAD_ARGUMENT);
  CHECK(arborhash_blake3_subtree_hasher_finalize_root(h, 0, out, SIZE_MAX) ==
        ARBORHASH_BAD_ARGUMENT);
  CHECK(arborhash_blake3_subtree_hasher_finalize_root(h, 0, out, 32) == ARBORHASH_OK);
  CHECK(arborhash_blake3_hash(NULL, 0, want) == ARBORHASH_OK);
  CHECK(memcmp(out, want, 32) == 0);
  CHECK(arborhash_blake3_subtree_hasher_finalize_root(h, 0, out, 32) == ARBORHASH_BAD_ARGUMENT);
  CHECK(arborhash_blake3_subtree_hasher_finalize_non_root(h, cv) == ARBORHASH_BAD_ARGUMENT);
  arborhash_blake3_subtree_hasher_free(h);
  CHECK(arborhash_blake3_subtree_hasher_new(0, NULL, UINT64_MAX - 1023, &h) == ARBORHASH_OK);
  if (h == NULL) return;
  CHECK(arborhash_blake3_subtree_hasher_update(h, data, 1024) == ARBORHASH_OK);
  CHECK(arborhash_blake3_subtree_hasher_update(h, data, 1) == ARBORHASH_BAD_ARGUMENT);
  CHECK(arborhash_blake3_subtree_hasher_finalize_non_root(h, cv) == ARBORHASH_OK);
  CHECK(arborhash_blake3_hash_subtree(0, NULL, UINT64_MAX - 1023, data, 1024, want) ==
        ARBORHASH_OK);
  CHECK(memcmp(cv, want, 32) == 0);
  arborhash_blake3_subtree_hasher_free(h);
}

int main(void) {
  uint64_t fill = 39;
  for (size_t i = 0; i < sizeof data; i += 8) {
    uint64_t r = next_random(&fill);
    memcpy(data + i, &r, 8);
  }
  test_trees();
  test_lengths();
  test_refused();
  test_incremental();
  test_incremental_refused();
  printf("subtree: %d checks, %d failed (backend %s)\n", checks, failures, arborhash_backend());
  return failures != 0;
}
