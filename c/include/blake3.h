/*
 * blake3.h: BLAKE3 from arborhash, source-compatible with the official BLAKE3 C API.
 *
 * A program written for the official library compiles against this header unchanged and
 * computes the same output. It is source compatibility, not ABI compatibility: blake3_hasher
 * here is 26688 bytes (ARBORHASH_BLAKE3_HASHER_WORDS 64-bit words; the official one is 1912),
 * because arborhash's hasher buffers 16 chunks to hash them in parallel. Recompile, do not
 * swap the shared library under a program built for the official one. The struct may live on
 * the stack (mind small thread stacks), in static storage or in malloc'd memory, and may be
 * copied with = or memcpy; it needs no cleanup.
 *
 * Argument rules: every pointer must point to as many bytes as its length says, or be NULL
 * only where the length is 0. These functions return nothing, as in the official API; a call
 * with a bad argument (NULL hasher, key or context, NULL input with a nonzero length, a length
 * above PTRDIFF_MAX, which no object has) does not crash: it leaves the hasher unusable, later
 * calls on it do nothing and finalize writes zeros; a finalize with such an output writes
 * nothing. arborhash_blake3_hasher_check() in arborhash.h tells whether a hasher is still
 * usable. Calls on a hasher never initialised are refused the same way in almost all cases (a
 * tag word is checked), but do initialise it first.
 *
 * Thread safety: one hasher per thread at a time; finalize may run on several threads at once.
 */
#ifndef BLAKE3_H
#define BLAKE3_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* The official API version this header matches. */
#define BLAKE3_VERSION_STRING "1.8.7"
/* Bytes in a key for blake3_hasher_init_keyed. */
#define BLAKE3_KEY_LEN 32
/* Bytes in a hashed derive-key context string (the key of the key-material stage). */
#define BLAKE3_CONTEXT_LEN 32
/* Bytes in the default output. */
#define BLAKE3_OUT_LEN 32
/* Bytes in a block, the unit of compression. */
#define BLAKE3_BLOCK_LEN 64
/* Bytes in a chunk, the leaves of the tree. */
#define BLAKE3_CHUNK_LEN 1024
/* The tree's greatest depth: 2^54 chunks of 1 KiB are 2^64 bytes. */
#define BLAKE3_MAX_DEPTH 54

/* 64-bit words in blake3_hasher. */
#define ARBORHASH_BLAKE3_HASHER_WORDS 3336

/* An incremental hasher. Its contents are private. */
typedef struct {
  uint64_t opaque[ARBORHASH_BLAKE3_HASHER_WORDS];
} blake3_hasher;

/* BLAKE3_VERSION_STRING, as a static string. */
const char *blake3_version(void);

/* Initialises self for the default hash. */
void blake3_hasher_init(blake3_hasher *self);

/* Initialises self for the keyed hash (a MAC or PRF) with the BLAKE3_KEY_LEN bytes at key. */
void blake3_hasher_init_keyed(blake3_hasher *self, const uint8_t key[BLAKE3_KEY_LEN]);

/* Initialises self for key derivation: context is a NUL-terminated string, hardcoded,
 * globally unique and application-specific (UTF-8 recommended; its bytes are hashed as they
 * are); the key material is then the input. */
void blake3_hasher_init_derive_key(blake3_hasher *self, const char *context);

/* As blake3_hasher_init_derive_key, with a context of context_len bytes (no NUL needed). */
void blake3_hasher_init_derive_key_raw(blake3_hasher *self, const void *context,
                                       size_t context_len);

/* Adds input_len bytes at input. Input may come in pieces of any size; the result does not
 * depend on how it was split. */
void blake3_hasher_update(blake3_hasher *self, const void *input, size_t input_len);

/* Writes out_len bytes of output for all input so far: BLAKE3_OUT_LEN is the default hash,
 * shorter outputs are its prefixes, longer ones extended output. The hasher is unchanged and
 * can take more input. */
void blake3_hasher_finalize(const blake3_hasher *self, uint8_t *out, size_t out_len);

/* As blake3_hasher_finalize, starting at byte seek of the extended output. */
void blake3_hasher_finalize_seek(const blake3_hasher *self, uint64_t seek, uint8_t *out,
                                 size_t out_len);

/* Forgets all input, keeping the mode and key. */
void blake3_hasher_reset(blake3_hasher *self);

#ifdef __cplusplus
}
#endif

#endif /* BLAKE3_H */
