/*
 * arborhash.h: what blake3.h and blake2.h do not have. Batch hashing of many messages,
 * multi-threaded hashing, the Tillich-Zemor hash and the backend query.
 *
 * Every function returning int returns ARBORHASH_OK (0) on success, ARBORHASH_BAD_ARGUMENT
 * (-1) when an argument breaks its rules, having written nothing, and ARBORHASH_INTERNAL_ERROR
 * (-2) if an internal error (a bug) was caught before it reached the caller. Pointer rules for
 * all: a pointer must point to as many bytes as its length says, and may be NULL only where
 * that length is 0. Every function may be called from any thread at once, except that one
 * blake3_hasher takes one updating call at a time.
 */
#ifndef ARBORHASH_H
#define ARBORHASH_H

#include <stddef.h>
#include <stdint.h>

#include "blake3.h"

#ifdef __cplusplus
extern "C" {
#endif

/* This library's version. */
#define ARBORHASH_VERSION_STRING "0.1.0"

#define ARBORHASH_OK 0
#define ARBORHASH_BAD_ARGUMENT (-1)
#define ARBORHASH_INTERNAL_ERROR (-2)

/* ARBORHASH_VERSION_STRING, as a static string. */
const char *arborhash_version(void);

/* The SIMD backend hashing for the calling thread: "portable", "sse41", "avx2", "avx512" or
 * "neon" (a static string). The best the CPU supports unless the environment variable ARBORHASH_BACKEND
 * names another at startup. */
const char *arborhash_backend(void);

/* BLAKE3 of len bytes at input into the BLAKE3_OUT_LEN bytes at out, in one call without a
 * blake3_hasher. */
int arborhash_blake3_hash(const void *input, size_t len, uint8_t *out);

/* ---- Batch hashing: many independent messages at once, filling the SIMD lanes across
 * messages (fastest for many short messages, such as 4 KiB blocks). Message i is
 * input_lens[i] bytes at inputs[i] (NULL only if its length is 0); inputs and input_lens
 * have count elements (NULL only if count is 0). ---- */

/* BLAKE3 of each message; hash i goes to the BLAKE3_OUT_LEN bytes at outputs + 32 * i. */
int arborhash_blake3_hash_many(const uint8_t *const *inputs, const size_t *input_lens,
                               size_t count, uint8_t *outputs);

/* As arborhash_blake3_hash_many, with the keyed hash and the BLAKE3_KEY_LEN bytes at key. */
int arborhash_blake3_keyed_hash_many(const uint8_t key[BLAKE3_KEY_LEN],
                                     const uint8_t *const *inputs, const size_t *input_lens,
                                     size_t count, uint8_t *outputs);

/* BLAKE2b of each message, outlen bytes each (1 to 64) at outputs + outlen * i, keyed with
 * the keylen bytes at key if keylen > 0 (at most 64). */
int arborhash_blake2b_hash_many(const uint8_t *const *inputs, const size_t *input_lens,
                                size_t count, const uint8_t *key, size_t keylen,
                                size_t outlen, uint8_t *outputs);

/* As arborhash_blake2b_hash_many for BLAKE2s: outlen 1 to 32, keylen at most 32. */
int arborhash_blake2s_hash_many(const uint8_t *const *inputs, const size_t *input_lens,
                                size_t count, const uint8_t *key, size_t keylen,
                                size_t outlen, uint8_t *outputs);

/* ---- Multi-threaded BLAKE3: inputs of 1 MiB and more are split into subtrees hashed on a
 * pool of threads (one per CPU); shorter inputs are hashed on the calling thread. The result
 * equals the single-threaded hash. ---- */

/* BLAKE3 of len bytes at input into the BLAKE3_OUT_LEN bytes at out. */
int arborhash_blake3_hash_threaded(const void *input, size_t len, uint8_t *out);

/* As blake3_hasher_update, hashing on several threads; -1 also if the hasher is not usable. */
int arborhash_blake3_hasher_update_threaded(blake3_hasher *hasher, const void *input,
                                            size_t len);

/* 0 if hasher was initialised and every call on it since had valid arguments, else -1 (see
 * blake3.h: its functions cannot return errors). */
int arborhash_blake3_hasher_check(const blake3_hasher *hasher);

/* ---- Tillich-Zemor: a homomorphic hash, byte-compatible with the Go package
 * nspcc-dev/tzhash. The hash of a concatenation is the product of the parts' hashes, so parts
 * can be hashed separately and combined.
 *
 * WARNING: NOT A SECURE HASH. Practical collision and (second) preimage attacks are published
 * (Grassl, Ilic, Magliveras and Steinwandt 2011; Petit and Quisquater 2010), and it is
 * malleable by design. Use it as an integrity checksum where no adversary chooses the data,
 * or for compatibility with tzhash; never as a cryptographic hash, MAC or signature input. ---- */

/* Bytes in a Tillich-Zemor hash. */
#define ARBORHASH_TZ_OUT_LEN 64

/* The Tillich-Zemor hash of len bytes at input into the ARBORHASH_TZ_OUT_LEN bytes at out; on
 * several threads if threaded is nonzero (same result). */
int arborhash_tz_sum(const void *input, size_t len, int threaded, uint8_t *out);

/* The hash of the concatenation of count messages, from their hashes lying one after another
 * at hashes (64 * count bytes) into the 64 bytes at out. -1 also if one of them is not a hash
 * any message has (an entry out of the field, or a determinant other than 1). */
int arborhash_tz_concat(const uint8_t *hashes, size_t count, uint8_t *out);

#ifdef __cplusplus
}
#endif

#endif /* ARBORHASH_H */
