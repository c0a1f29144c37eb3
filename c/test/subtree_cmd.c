/* One step of a BLAKE3 tree built in parts, the C side of the cross-language test
 * (python/tests/test_cross_language.py), with the arguments of arborhash/examples/subtree.rs:
 *   subtree_cmd cv FILE OFFSET LEN | parent LEFT RIGHT | root LEFT RIGHT OUT_LEN
 * and cv-pieces FILE OFFSET LEN, the CV from arborhash_blake3_subtree_hasher fed in pieces of
 * pseudo-random lengths (fixed seed). Prints the chaining value or output as hex; an error
 * exits with status 1. */
#include <errno.h>

#include "arborhash.h"
#include "common.h"

static int fail(const char *message) {
  fprintf(stderr, "subtree_cmd: %s\n", message);
  return 1;
}

/* Parses a decimal uint64_t; returns 0, or -1 if the text is not one. */
/* The CV of the len bytes at part, hashed at offset with the incremental hasher. */
static int hash_in_pieces(uint64_t offset, const uint8_t *part, size_t len, uint8_t *cv) {
  arborhash_blake3_subtree_hasher *h;
  if (arborhash_blake3_subtree_hasher_new(ARBORHASH_BLAKE3_MODE_HASH, NULL, offset, &h) !=
      ARBORHASH_OK)
    return -1;
  uint64_t random = 5 + len;
  int status = 0;
  for (size_t done = 0; done < len && status == 0;) {
    size_t piece = next_random(&random) % 2 ? piece_len(&random) : 100000;
    if (piece > len - done) piece = len - done;
    status = arborhash_blake3_subtree_hasher_update(h, part + done, piece);
    done += piece;
  }
  if (status == 0) status = arborhash_blake3_subtree_hasher_finalize_non_root(h, cv);
  arborhash_blake3_subtree_hasher_free(h);
  return status;
}

static int parse_u64(const char *text, uint64_t *value) {
  char *end;
  errno = 0;
  unsigned long long v = strtoull(text, &end, 10);
  if (errno != 0 || end == text || *end != '\0' || text[0] == '-') return -1;
  *value = v;
  return 0;
}

int main(int argc, char **argv) {
  uint8_t left[BLAKE3_OUT_LEN], right[BLAKE3_OUT_LEN], cv[BLAKE3_OUT_LEN];
  int pieces = argc == 5 && strcmp(argv[1], "cv-pieces") == 0;
  if (pieces || (argc == 5 && strcmp(argv[1], "cv") == 0)) {
    uint64_t offset, len;
    if (parse_u64(argv[3], &offset) != 0 || parse_u64(argv[4], &len) != 0)
      return fail("OFFSET and LEN are whole numbers");
    size_t size;
    uint8_t *data = read_all(argv[2], &size);
    if (offset > size || len > size - offset) return fail("the file has no such bytes");
    int status = pieces ? hash_in_pieces(offset, data + offset, (size_t)len, cv)
                        : arborhash_blake3_hash_subtree(ARBORHASH_BLAKE3_MODE_HASH, NULL, offset,
                                                        data + offset, (size_t)len, cv);
    free(data);
    if (status != ARBORHASH_OK) return fail("not a subtree");
    print_hex(cv, sizeof cv);
    return 0;
  }
  if ((argc == 4 && strcmp(argv[1], "parent") == 0) ||
      (argc == 5 && strcmp(argv[1], "root") == 0)) {
    if (parse_hex(argv[2], left, sizeof left) != 0 || parse_hex(argv[3], right, sizeof right) != 0)
      return fail("LEFT and RIGHT are 32 bytes of hex");
    if (argc == 4) {
      if (arborhash_blake3_merge_subtrees_non_root(left, right, ARBORHASH_BLAKE3_MODE_HASH, NULL,
                                                   cv) != ARBORHASH_OK)
        return fail("merge failed");
      print_hex(cv, sizeof cv);
      return 0;
    }
    uint64_t out_len;
    if (parse_u64(argv[4], &out_len) != 0 || out_len > (1 << 20))
      return fail("OUT_LEN is a whole number up to 1 MiB");
    uint8_t *out = malloc(out_len + 1);
    if (out == NULL) return fail("out of memory");
    if (arborhash_blake3_merge_subtrees_root(left, right, ARBORHASH_BLAKE3_MODE_HASH, NULL, 0, out,
                                             (size_t)out_len) != ARBORHASH_OK)
      return fail("merge failed");
    print_hex(out, (size_t)out_len);
    free(out);
    return 0;
  }
  return fail("usage: subtree_cmd cv|cv-pieces FILE OFFSET LEN | parent LEFT RIGHT | "
              "root LEFT RIGHT OUT_LEN");
}
