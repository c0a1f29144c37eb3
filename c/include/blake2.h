/*
 * blake2.h: BLAKE2b, BLAKE2s, BLAKE2bp and BLAKE2sp from arborhash, source-compatible with
 * libb2.
 *
 * A program written for libb2 compiles against this header unchanged and computes the same
 * hashes. The parameter structs have libb2's (and the BLAKE2 specification's) packed layout;
 * the state structs are private and of other sizes (ARBORHASH_BLAKE2*_STATE_WORDS 64-bit
 * words), so this is source compatibility, not ABI compatibility. States may live on the stack,
 * in static storage or in malloc'd memory, may be copied with = or memcpy, and need no cleanup.
 *
 * Every function returns 0 on success and -1 on a bad argument, never crashing on one it can
 * check:
 *   - a NULL state, parameter block, key or output, or NULL input with a nonzero length;
 *   - outlen of 0 or above OUTBYTES, keylen above KEYBYTES (and 0 for *_init_key);
 *   - a state that was never initialised (almost always detected through a tag word), or that
 *     was finalised: after *_final a state takes no more calls until initialised again;
 *   - for *_init_param, a parameter block with a nonzero key_length (keys come with
 *     *_init_key), nonzero reserved bytes, or a digest_length or inner_length out of range.
 * *_final writes min(outlen, the state's hash length) bytes. -2 would report an internal error
 * (a bug) caught before it reached the caller.
 */
#ifndef BLAKE2_H
#define BLAKE2_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

enum blake2s_constant {
  BLAKE2S_BLOCKBYTES = 64,
  BLAKE2S_OUTBYTES = 32,
  BLAKE2S_KEYBYTES = 32,
  BLAKE2S_SALTBYTES = 8,
  BLAKE2S_PERSONALBYTES = 8
};

enum blake2b_constant {
  BLAKE2B_BLOCKBYTES = 128,
  BLAKE2B_OUTBYTES = 64,
  BLAKE2B_KEYBYTES = 64,
  BLAKE2B_SALTBYTES = 16,
  BLAKE2B_PERSONALBYTES = 16
};

/* 64-bit words in each state struct. */
#define ARBORHASH_BLAKE2B_STATE_WORDS 32
#define ARBORHASH_BLAKE2S_STATE_WORDS 20
#define ARBORHASH_BLAKE2BP_STATE_WORDS 220
#define ARBORHASH_BLAKE2SP_STATE_WORDS 180

#pragma pack(push, 1)
/* The BLAKE2s parameter block (32 bytes); multi-byte fields are little-endian. */
typedef struct __blake2s_param {
  uint8_t digest_length;                   /* 1 to BLAKE2S_OUTBYTES */
  uint8_t key_length;                      /* 0 here: keys come with blake2s_init_key */
  uint8_t fanout;                          /* 1 for sequential hashing */
  uint8_t depth;                           /* 1 for sequential hashing */
  uint32_t leaf_length;
  uint8_t node_offset[6];
  uint8_t node_depth;
  uint8_t inner_length;                    /* 0 to BLAKE2S_OUTBYTES */
  uint8_t salt[BLAKE2S_SALTBYTES];
  uint8_t personal[BLAKE2S_PERSONALBYTES];
} blake2s_param;

/* The BLAKE2b parameter block (64 bytes); multi-byte fields are little-endian. */
typedef struct __blake2b_param {
  uint8_t digest_length;                   /* 1 to BLAKE2B_OUTBYTES */
  uint8_t key_length;                      /* 0 here: keys come with blake2b_init_key */
  uint8_t fanout;                          /* 1 for sequential hashing */
  uint8_t depth;                           /* 1 for sequential hashing */
  uint32_t leaf_length;
  uint64_t node_offset;
  uint8_t node_depth;
  uint8_t inner_length;                    /* 0 to BLAKE2B_OUTBYTES */
  uint8_t reserved[14];                    /* zero */
  uint8_t salt[BLAKE2B_SALTBYTES];
  uint8_t personal[BLAKE2B_PERSONALBYTES];
} blake2b_param;
#pragma pack(pop)

/* Incremental states. Their contents are private. */
typedef struct __blake2s_state {
  uint64_t opaque[ARBORHASH_BLAKE2S_STATE_WORDS];
} blake2s_state;

typedef struct __blake2b_state {
  uint64_t opaque[ARBORHASH_BLAKE2B_STATE_WORDS];
} blake2b_state;

typedef struct __blake2sp_state {
  uint64_t opaque[ARBORHASH_BLAKE2SP_STATE_WORDS];
} blake2sp_state;

typedef struct __blake2bp_state {
  uint64_t opaque[ARBORHASH_BLAKE2BP_STATE_WORDS];
} blake2bp_state;

/* Streaming API: *_init starts an unkeyed hash of outlen bytes; *_init_key a keyed one (a
 * MAC) with keylen bytes at key; *_init_param one with every parameter of the block at P;
 * *_update adds inlen bytes at in; *_final writes the hash to out. */
int blake2s_init(blake2s_state *S, size_t outlen);
int blake2s_init_key(blake2s_state *S, size_t outlen, const void *key, size_t keylen);
int blake2s_init_param(blake2s_state *S, const blake2s_param *P);
int blake2s_update(blake2s_state *S, const uint8_t *in, size_t inlen);
int blake2s_final(blake2s_state *S, uint8_t *out, size_t outlen);

int blake2b_init(blake2b_state *S, size_t outlen);
int blake2b_init_key(blake2b_state *S, size_t outlen, const void *key, size_t keylen);
int blake2b_init_param(blake2b_state *S, const blake2b_param *P);
int blake2b_update(blake2b_state *S, const uint8_t *in, size_t inlen);
int blake2b_final(blake2b_state *S, uint8_t *out, size_t outlen);

int blake2sp_init(blake2sp_state *S, size_t outlen);
int blake2sp_init_key(blake2sp_state *S, size_t outlen, const void *key, size_t keylen);
int blake2sp_update(blake2sp_state *S, const uint8_t *in, size_t inlen);
int blake2sp_final(blake2sp_state *S, uint8_t *out, size_t outlen);

int blake2bp_init(blake2bp_state *S, size_t outlen);
int blake2bp_init_key(blake2bp_state *S, size_t outlen, const void *key, size_t keylen);
int blake2bp_update(blake2bp_state *S, const uint8_t *in, size_t inlen);
int blake2bp_final(blake2bp_state *S, uint8_t *out, size_t outlen);

/* Simple API: the hash of inlen bytes at in, outlen bytes to out, keyed if keylen > 0. */
int blake2s(uint8_t *out, const void *in, const void *key, size_t outlen, size_t inlen,
            size_t keylen);
int blake2b(uint8_t *out, const void *in, const void *key, size_t outlen, size_t inlen,
            size_t keylen);
int blake2sp(uint8_t *out, const void *in, const void *key, size_t outlen, size_t inlen,
             size_t keylen);
int blake2bp(uint8_t *out, const void *in, const void *key, size_t outlen, size_t inlen,
             size_t keylen);

/* libb2's alias for blake2b. */
static inline int blake2(uint8_t *out, const void *in, const void *key, size_t outlen,
                         size_t inlen, size_t keylen) {
  return blake2b(out, in, key, outlen, inlen, keylen);
}

#ifdef __cplusplus
}
#endif

#endif /* BLAKE2_H */
