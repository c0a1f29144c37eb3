/*
 * arborhash.h: what blake3.h and blake2.h do not have. Batch hashing of many messages,
 * multi-threaded hashing, BLAKE3 subtrees, the Tillich-Zemor hash and the backend query.
 *
 * Every function returning int returns ARBORHASH_OK (0) on success, ARBORHASH_BAD_ARGUMENT
 * (-1) when an argument breaks its rules, having written nothing, and ARBORHASH_INTERNAL_ERROR
 * (-2) if an internal error (a bug) was caught before it reached the caller. Pointer rules for
 * all: a pointer must point to as many bytes as its length says, and may be NULL only where
 * that length is 0; a length, or a count times its element size, above PTRDIFF_MAX (no object
 * is that large) is refused. Every function may be called from any thread at once, except that one
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

/* The SIMD backend hashing for the calling thread: "portable", "sse41", "avx2", "avx512",
 * "avx512-scalar" or "neon" (a static string). The best the CPU supports unless the environment
 * variable ARBORHASH_BACKEND names another at startup. */
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

/* BLAKE3 extended output of each message: out_len bytes each (any length; 0 writes nothing) at
 * outputs + out_len * i, the first out_len bytes blake3_hasher_finalize gives for it. */
int arborhash_blake3_hash_many_xof(const uint8_t *const *inputs, const size_t *input_lens,
                                   size_t count, size_t out_len, uint8_t *outputs);

/* As arborhash_blake3_hash_many_xof, with the keyed hash and the BLAKE3_KEY_LEN bytes at key. */
int arborhash_blake3_keyed_hash_many_xof(const uint8_t key[BLAKE3_KEY_LEN],
                                         const uint8_t *const *inputs, const size_t *input_lens,
                                         size_t count, size_t out_len, uint8_t *outputs);

/* As arborhash_blake3_hash_many_xof, with key derivation (blake3_hasher_init_derive_key) in the
 * NUL-terminated context, whose bytes need not be UTF-8. The messages share the SIMD lanes
 * when the context is UTF-8 (a context should be a hardcoded string); otherwise they are hashed
 * one after another. */
int arborhash_blake3_derive_key_many_xof(const char *context, const uint8_t *const *inputs,
                                         const size_t *input_lens, size_t count, size_t out_len,
                                         uint8_t *outputs);

/* As arborhash_blake3_derive_key_many_xof, with a context of context_len bytes of any value
 * (blake3_hasher_init_derive_key_raw). */
int arborhash_blake3_derive_key_many_xof_raw(const void *context, size_t context_len,
                                             const uint8_t *const *inputs,
                                             const size_t *input_lens, size_t count,
                                             size_t out_len, uint8_t *outputs);

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

/* ---- BLAKE3 subtrees: parts of one input hashed apart (on other threads or machines) into
 * chaining values (CVs, 32 bytes), merged into their parents and into the root, whose output
 * is the hash of the whole input. The BLAKE3 tree is fixed by the input's length: the left
 * child of every parent holds the largest power of two of whole chunks (BLAKE3_CHUNK_LEN bytes)
 * that leaves at least one byte for the right, arborhash_blake3_left_subtree_len. So a part is
 * a subtree only if it starts at a multiple of BLAKE3_CHUNK_LEN, holds at least one byte and at
 * most arborhash_blake3_max_subtree_len(its offset), and, unless it ends the input, holds a
 * power of two of whole chunks. The functions return -1 for what breaks the first two rules;
 * the third depends on what follows and cannot be checked, nor can merging CVs that are not
 * siblings: both give a wrong hash, never an error. An input of at most one chunk has no
 * subtrees: hash it with blake3.h.
 *
 * Every part of one input is hashed and merged in the same mode, with the same key: ---- */

/* The default hash (blake3_hasher_init); the key argument is not read and may be NULL. */
#define ARBORHASH_BLAKE3_MODE_HASH 0
/* The keyed hash (blake3_hasher_init_keyed); key is the BLAKE3_KEY_LEN-byte key. */
#define ARBORHASH_BLAKE3_MODE_KEYED_HASH 1
/* Key derivation (blake3_hasher_init_derive_key_raw) of the key material, the input; key is the
 * BLAKE3_CONTEXT_LEN-byte context key from arborhash_blake3_hash_derive_key_context. */
#define ARBORHASH_BLAKE3_MODE_DERIVE_KEY_MATERIAL 2

/* The context key of a derive-key context of context_len bytes into the BLAKE3_CONTEXT_LEN
 * bytes at context_key: hash it once per context. */
int arborhash_blake3_hash_derive_key_context(const void *context, size_t context_len,
                                             uint8_t context_key[BLAKE3_CONTEXT_LEN]);

/* The CV of the subtree of len bytes at input, which starts input_offset bytes into the whole
 * input, into the BLAKE3_OUT_LEN bytes at cv. -1 if input_offset is not a multiple of
 * BLAKE3_CHUNK_LEN, len is 0 or len exceeds arborhash_blake3_max_subtree_len(input_offset). */
int arborhash_blake3_hash_subtree(int mode, const uint8_t key[BLAKE3_KEY_LEN],
                                  uint64_t input_offset, const void *input, size_t len,
                                  uint8_t cv[BLAKE3_OUT_LEN]);

/* The CV of the parent, not the root, of the sibling subtrees whose CVs are left and right. */
int arborhash_blake3_merge_subtrees_non_root(const uint8_t left[BLAKE3_OUT_LEN],
                                             const uint8_t right[BLAKE3_OUT_LEN], int mode,
                                             const uint8_t key[BLAKE3_KEY_LEN],
                                             uint8_t cv[BLAKE3_OUT_LEN]);

/* out_len bytes of the output of the root whose children's CVs are left and right, from byte
 * seek of the extended output on: with seek 0 and out_len BLAKE3_OUT_LEN, the hash of the
 * whole input (as blake3_hasher_finalize_seek gives for it). */
int arborhash_blake3_merge_subtrees_root(const uint8_t left[BLAKE3_OUT_LEN],
                                         const uint8_t right[BLAKE3_OUT_LEN], int mode,
                                         const uint8_t key[BLAKE3_KEY_LEN], uint64_t seek,
                                         uint8_t *out, size_t out_len);

/* Into *left_len, the length of the left child of a parent over input_len bytes (for the whole
 * input, the root's). -1 if input_len is at most BLAKE3_CHUNK_LEN (a chunk has no children). */
int arborhash_blake3_left_subtree_len(uint64_t input_len, uint64_t *left_len);

/* Into *max_len, the most bytes a subtree starting at input_offset can hold:
 * BLAKE3_CHUNK_LEN times the largest power of two dividing input_offset / BLAKE3_CHUNK_LEN, and
 * UINT64_MAX (no limit) for offset 0. -1 if input_offset is not a multiple of
 * BLAKE3_CHUNK_LEN. */
int arborhash_blake3_max_subtree_len(uint64_t input_offset, uint64_t *max_len);

/* A subtree fed in pieces, for parts that do not sit in memory at once. It is a separate,
 * allocated hasher rather than an offset set on a blake3_hasher because blake3.h's update
 * cannot return an error: here the call that breaks a rule returns -1, and the hasher
 * stays as it was. One hasher takes one call at a time; after a finalize it refuses every call
 * but free. */
typedef struct arborhash_blake3_subtree_hasher arborhash_blake3_subtree_hasher;

/* A new hasher for the subtree starting input_offset bytes into the whole input, in mode with
 * key (as for arborhash_blake3_hash_subtree), into *hasher. -1 if input_offset is not a
 * multiple of BLAKE3_CHUNK_LEN, for a bad mode or key, or a NULL hasher. */
int arborhash_blake3_subtree_hasher_new(int mode, const uint8_t key[BLAKE3_KEY_LEN],
                                        uint64_t input_offset,
                                        arborhash_blake3_subtree_hasher **hasher);

/* Adds the len bytes at input. -1, adding nothing, if the subtree would hold more than
 * arborhash_blake3_max_subtree_len(input_offset) bytes. */
int arborhash_blake3_subtree_hasher_update(arborhash_blake3_subtree_hasher *hasher,
                                           const void *input, size_t len);

/* The CV of the subtree into the BLAKE3_OUT_LEN bytes at cv (what arborhash_blake3_hash_subtree
 * gives for the same bytes). -1 if the hasher took no bytes (no subtree is empty). */
int arborhash_blake3_subtree_hasher_finalize_non_root(arborhash_blake3_subtree_hasher *hasher,
                                                      uint8_t cv[BLAKE3_OUT_LEN]);

/* out_len bytes of the root output from byte seek on (as blake3_hasher_finalize_seek): the
 * hasher then holds the whole input, so -1 unless its input_offset is 0. */
int arborhash_blake3_subtree_hasher_finalize_root(arborhash_blake3_subtree_hasher *hasher,
                                                  uint64_t seek, uint8_t *out, size_t out_len);

/* Frees a hasher from arborhash_blake3_subtree_hasher_new (NULL does nothing). */
void arborhash_blake3_subtree_hasher_free(arborhash_blake3_subtree_hasher *hasher);

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
