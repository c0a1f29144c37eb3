/* A program written for libb2 (blake2.h): it compiles against libb2 and against arborhash, and
 * must print the same as libb2 and Python's hashlib.
 *
 *   b2 b|s|bp|sp [--length N] [--key HEX] [--salt HEX] [--personal HEX] FILE
 *
 * It hashes the input streaming, in pieces of pseudo-random sizes, and (without salt or
 * personalization) one-shot too, and checks that the two agree. Salt and personalization go
 * through a parameter block (blake2b/blake2s only). */
#include <blake2.h>

#include "common.h"

struct options {
  size_t outlen, keylen, saltlen, personallen;
  uint8_t key[64], salt[16], personal[16];
  int params;
};

#define STREAM(variant, S, init_call, opt, input, len, out)                       \
  do {                                                                             \
    variant##_state S;                                                             \
    uint64_t random = 0x9E3779B97F4A7C15ULL ^ (len);                               \
    if ((init_call) != 0) return -1;                                               \
    for (size_t done = 0, n; done < (len); done += n) {                            \
      n = piece_len(&random);                                                      \
      if (n > (len) - done) n = (len) - done;                                      \
      if (variant##_update(&S, (input) + done, n) != 0) return -1;                 \
    }                                                                              \
    if (variant##_final(&S, (out), (opt)->outlen) != 0) return -1;                 \
  } while (0)

#define INIT(variant, S, opt)                                                      \
  ((opt)->keylen > 0 ? variant##_init_key(&S, (opt)->outlen, (opt)->key, (opt)->keylen) \
                     : variant##_init(&S, (opt)->outlen))

/* Streams with a parameter block: sequential mode, the options' length, salt and
 * personalization. */
#define PARAM_STREAM(variant, opt, input, len, out)                                \
  do {                                                                             \
    variant##_param P;                                                             \
    memset(&P, 0, sizeof P);                                                       \
    P.digest_length = (uint8_t)(opt)->outlen;                                      \
    P.fanout = 1;                                                                  \
    P.depth = 1;                                                                   \
    memcpy(P.salt, (opt)->salt, (opt)->saltlen);                                   \
    memcpy(P.personal, (opt)->personal, (opt)->personallen);                       \
    STREAM(variant, S, variant##_init_param(&S, &P), opt, input, len, out);        \
  } while (0)

static int stream(const char *alg, const struct options *o, const uint8_t *in, size_t len,
                  uint8_t *out) {
  if (strcmp(alg, "b") == 0) {
    if (o->params) {
      PARAM_STREAM(blake2b, o, in, len, out);
    } else {
      STREAM(blake2b, S, INIT(blake2b, S, o), o, in, len, out);
    }
  } else if (strcmp(alg, "s") == 0) {
    if (o->params) {
      PARAM_STREAM(blake2s, o, in, len, out);
    } else {
      STREAM(blake2s, S, INIT(blake2s, S, o), o, in, len, out);
    }
  } else if (strcmp(alg, "bp") == 0) {
    STREAM(blake2bp, S, INIT(blake2bp, S, o), o, in, len, out);
  } else if (strcmp(alg, "sp") == 0) {
    STREAM(blake2sp, S, INIT(blake2sp, S, o), o, in, len, out);
  } else {
    return -1;
  }
  return 0;
}

static int oneshot(const char *alg, const struct options *o, const uint8_t *in, size_t len,
                   uint8_t *out) {
  const void *key = o->keylen > 0 ? o->key : NULL;
  if (strcmp(alg, "b") == 0) return blake2b(out, in, key, o->outlen, len, o->keylen);
  if (strcmp(alg, "s") == 0) return blake2s(out, in, key, o->outlen, len, o->keylen);
  if (strcmp(alg, "bp") == 0) return blake2bp(out, in, key, o->outlen, len, o->keylen);
  if (strcmp(alg, "sp") == 0) return blake2sp(out, in, key, o->outlen, len, o->keylen);
  return -1;
}

static size_t hex_arg(const char *hex, uint8_t *out, size_t max) {
  size_t n = strlen(hex) / 2;
  if (n > max || parse_hex(hex, out, n) != 0) {
    fprintf(stderr, "bad hex argument: %s\n", hex);
    exit(2);
  }
  return n;
}

int main(int argc, char **argv) {
  if (argc < 3) {
    fprintf(stderr, "usage: b2 b|s|bp|sp [--length N] [--key HEX] [--salt HEX] [--personal HEX] FILE\n");
    return 2;
  }
  const char *alg = argv[1], *path = NULL;
  int wide = alg[0] == 'b';
  struct options o = {.outlen = wide ? 64 : 32};
  for (int i = 2; i < argc; i++) {
    if (strcmp(argv[i], "--length") == 0 && i + 1 < argc) o.outlen = strtoul(argv[++i], 0, 10);
    else if (strcmp(argv[i], "--key") == 0 && i + 1 < argc) o.keylen = hex_arg(argv[++i], o.key, wide ? 64 : 32);
    else if (strcmp(argv[i], "--salt") == 0 && i + 1 < argc) o.saltlen = hex_arg(argv[++i], o.salt, wide ? 16 : 8), o.params = 1;
    else if (strcmp(argv[i], "--personal") == 0 && i + 1 < argc) o.personallen = hex_arg(argv[++i], o.personal, wide ? 16 : 8), o.params = 1;
    else path = argv[i];
  }
  if (path == NULL || (o.params && o.keylen > 0)) {
    fprintf(stderr, "b2: need a FILE; a key does not go with salt or personalization here\n");
    return 2;
  }
  size_t len;
  uint8_t *input = read_all(path, &len);
  uint8_t out[64], again[64];
  if (stream(alg, &o, input, len, out) != 0) {
    fprintf(stderr, "b2: streaming failed\n");
    return 1;
  }
  if (!o.params) {
    if (oneshot(alg, &o, input, len, again) != 0 || memcmp(out, again, o.outlen) != 0) {
      fprintf(stderr, "b2: one-shot failed or disagrees with streaming\n");
      return 1;
    }
  }
  print_hex(out, o.outlen);
  free(input);
  return 0;
}
