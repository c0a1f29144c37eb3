/* A b3sum-like program written for the official BLAKE3 C API (blake3.h): it compiles against
 * the official library and against arborhash, and must print the same as b3sum.
 *
 *   b3 [--keyed KEYHEX | --derive-key CONTEXT] [--length N] [--seek S] FILE
 *
 * The input is fed in pieces of pseudo-random sizes, through a copy of the hasher made halfway
 * (struct assignment, as C code does), and the reset hasher must hash it again the same. */
#include "blake3.h"
#include "common.h"

int main(int argc, char **argv) {
  const char *keyhex = NULL, *context = NULL, *path = NULL;
  size_t out_len = BLAKE3_OUT_LEN;
  uint64_t seek = 0;
  for (int i = 1; i < argc; i++) {
    if (strcmp(argv[i], "--keyed") == 0 && i + 1 < argc) keyhex = argv[++i];
    else if (strcmp(argv[i], "--derive-key") == 0 && i + 1 < argc) context = argv[++i];
    else if (strcmp(argv[i], "--length") == 0 && i + 1 < argc) out_len = strtoul(argv[++i], 0, 10);
    else if (strcmp(argv[i], "--seek") == 0 && i + 1 < argc) seek = strtoull(argv[++i], 0, 10);
    else path = argv[i];
  }
  if (path == NULL) {
    fprintf(stderr, "usage: b3 [--keyed KEYHEX | --derive-key CONTEXT] [--length N] [--seek S] FILE\n");
    return 2;
  }
  size_t len;
  uint8_t *input = read_all(path, &len);

  /* On the heap: the official struct is small, arborhash's is 26 KiB. The copy sits 8 bytes
   * past a 64-byte boundary, the hasher on one, as malloc'd structs may. */
  size_t size = (sizeof(blake3_hasher) + 63) / 64 * 64;
  blake3_hasher *hasher = aligned_alloc(64, size);
  uint8_t *copy_memory = aligned_alloc(64, size + 64);
  blake3_hasher *copy = (blake3_hasher *)(copy_memory + 8);
  size_t copied_at = 0;
  int copied = 0;
  uint8_t key[BLAKE3_KEY_LEN];
  if (keyhex != NULL) {
    if (parse_hex(keyhex, key, sizeof key) != 0) {
      fprintf(stderr, "bad key\n");
      return 2;
    }
    blake3_hasher_init_keyed(hasher, key);
  } else if (context != NULL) {
    blake3_hasher_init_derive_key(hasher, context);
  } else {
    blake3_hasher_init(hasher);
  }

  uint64_t random = 0x9E3779B97F4A7C15ULL ^ len;
  uint8_t *out = malloc(out_len + 1), *again = malloc(out_len + 1);
  for (int round = 0; round < 2; round++) {
    size_t done = 0;
    while (done < len) {
      size_t n = piece_len(&random);
      if (n > len - done) n = len - done;
      blake3_hasher_update(hasher, input + done, n);
      done += n;
      if (round == 0 && !copied && done >= len / 2) {
        memcpy(copy, hasher, sizeof *copy);
        copied_at = done;
        copied = 1;
      }
    }
    blake3_hasher_finalize_seek(hasher, seek, round == 0 ? out : again, out_len);
    blake3_hasher_reset(hasher);
  }
  int status = 0;
  if (memcmp(out, again, out_len) != 0) {
    fprintf(stderr, "b3: the reset hasher gave another hash\n");
    status = 1;
  }
  if (copied) {
    /* The copy saw the input up to copied_at; it finishes with the rest in one piece. */
    blake3_hasher_update(copy, input + copied_at, len - copied_at);
    blake3_hasher_finalize_seek(copy, seek, again, out_len);
    if (memcmp(out, again, out_len) != 0) {
      fprintf(stderr, "b3: the copied hasher gave another hash\n");
      status = 1;
    }
  }
  if (status == 0) print_hex(out, out_len);
  free(input);
  free(hasher);
  free(copy_memory);
  free(out);
  free(again);
  return status;
}
