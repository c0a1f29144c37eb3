/* Helpers shared by the C test programs: reading a file, hex output, a fixed-seed generator. */
#ifndef TEST_COMMON_H
#define TEST_COMMON_H

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Reads the whole file at path ("-" for standard input); exits on failure. */
static inline uint8_t *read_all(const char *path, size_t *len) {
  FILE *f = strcmp(path, "-") == 0 ? stdin : fopen(path, "rb");
  if (f == NULL) {
    perror(path);
    exit(2);
  }
  size_t cap = 1 << 16, n = 0, got;
  uint8_t *buf = malloc(cap);
  while (buf != NULL && (got = fread(buf + n, 1, cap - n, f)) > 0) {
    n += got;
    if (n == cap) buf = realloc(buf, cap *= 2);
  }
  if (buf == NULL || ferror(f)) {
    fprintf(stderr, "%s: read failed\n", path);
    exit(2);
  }
  if (f != stdin) fclose(f);
  *len = n;
  return buf;
}

static inline void print_hex(const uint8_t *bytes, size_t len) {
  for (size_t i = 0; i < len; i++) printf("%02x", bytes[i]);
  printf("\n");
}

/* Parses 2 * len hex digits; returns 0, or -1 if the text is not that. */
static inline int parse_hex(const char *hex, uint8_t *out, size_t len) {
  if (strlen(hex) != 2 * len) return -1;
  for (size_t i = 0; i < len; i++) {
    unsigned byte;
    if (sscanf(hex + 2 * i, "%2x", &byte) != 1) return -1;
    out[i] = (uint8_t)byte;
  }
  return 0;
}

/* A fixed-seed generator (xorshift64*) for piece sizes and test data. */
static inline uint64_t next_random(uint64_t *state) {
  *state ^= *state >> 12;
  *state ^= *state << 25;
  *state ^= *state >> 27;
  return *state * 0x2545F4914F6CDD1DULL;
}

/* Piece sizes that cross block and chunk boundaries: mostly small, sometimes large. */
static inline size_t piece_len(uint64_t *state) {
  uint64_t r = next_random(state);
  switch (r % 4) {
    case 0: return (size_t)(r >> 8) % 65;
    case 1: return (size_t)(r >> 8) % 1100;
    case 2: return (size_t)(r >> 8) % 20000;
    default: return (size_t)(r >> 8) % 3;
  }
}

#endif
