/* The C peers from Debian packages: CRC32C (ISA-L), xxHash, OpenSSL, libb2. libb2's names are
 * the same as ours: this file and libb2.a are linked with its symbols renamed (libb2_blake2b,
 * ...; see the Makefile), so that both run in one process. */
#include <blake2.h>
#include <isa-l/crc.h>
#include <openssl/evp.h>
#include <xxhash.h>

#include <string.h>

#include "harness.h"

static void crc32c(const uint8_t *buf, size_t len, uint8_t *out) {
  uint32_t crc = crc32_iscsi((unsigned char *)buf, (int)len, 0xFFFFFFFF);
  memcpy(out, &crc, sizeof crc);
}

static void xxh64(const uint8_t *buf, size_t len, uint8_t *out) {
  XXH64_hash_t h = XXH64(buf, len, 0);
  memcpy(out, &h, sizeof h);
}

static void xxh3(const uint8_t *buf, size_t len, uint8_t *out) {
  XXH64_hash_t h = XXH3_64bits(buf, len);
  memcpy(out, &h, sizeof h);
}

/* One OpenSSL digest context, reused (as a long-running program would). */
static void openssl(const EVP_MD *md, const uint8_t *buf, size_t len, uint8_t *out) {
  static EVP_MD_CTX *ctx;
  if (ctx == NULL) ctx = EVP_MD_CTX_new();
  EVP_DigestInit_ex(ctx, md, NULL);
  EVP_DigestUpdate(ctx, buf, len);
  EVP_DigestFinal_ex(ctx, out, NULL);
}

static void sha256_ossl(const uint8_t *buf, size_t len, uint8_t *out) {
  openssl(EVP_sha256(), buf, len, out);
}

static void blake2b_ossl(const uint8_t *buf, size_t len, uint8_t *out) {
  openssl(EVP_blake2b512(), buf, len, out);
}

static void blake2s_ossl(const uint8_t *buf, size_t len, uint8_t *out) {
  openssl(EVP_blake2s256(), buf, len, out);
}

static void blake2b_libb2(const uint8_t *buf, size_t len, uint8_t *out) {
  blake2b(out, buf, NULL, BLAKE2B_OUTBYTES, len, 0);
}

static void blake2b_stream_libb2(const uint8_t *buf, size_t len, uint8_t *out) {
  blake2b_state state;
  blake2b_init(&state, BLAKE2B_OUTBYTES);
  blake2b_update(&state, buf, len);
  blake2b_final(&state, out, BLAKE2B_OUTBYTES);
}

static void blake2bp_libb2(const uint8_t *buf, size_t len, uint8_t *out) {
  blake2bp(out, buf, NULL, BLAKE2B_OUTBYTES, len, 0);
}

static void blake2s_libb2(const uint8_t *buf, size_t len, uint8_t *out) {
  blake2s(out, buf, NULL, BLAKE2S_OUTBYTES, len, 0);
}

static void blake2sp_libb2(const uint8_t *buf, size_t len, uint8_t *out) {
  blake2sp(out, buf, NULL, BLAKE2S_OUTBYTES, len, 0);
}

const contestant peers[] = {
    {"CRC32C", "isa-l", "crc32_iscsi", 1, crc32c},
    {"XXH64", "libxxhash", "XXH64", 1, xxh64},
    {"XXH3", "libxxhash", "XXH3_64bits", 1, xxh3},
    {"SHA-256", "OpenSSL", "EVP", 1, sha256_ossl},
    {"BLAKE2b", "OpenSSL", "EVP blake2b512", 1, blake2b_ossl},
    {"BLAKE2s", "OpenSSL", "EVP blake2s256", 1, blake2s_ossl},
    {"BLAKE2b", "libb2", "blake2.h one-shot", 1, blake2b_libb2},
    {"BLAKE2b", "libb2", "blake2.h init/update/final", 1, blake2b_stream_libb2},
    {"BLAKE2bp", "libb2", "blake2.h", 1, blake2bp_libb2},
    {"BLAKE2s", "libb2", "blake2.h", 1, blake2s_libb2},
    {"BLAKE2sp", "libb2", "blake2.h", 1, blake2sp_libb2},
};
const size_t peers_count = sizeof peers / sizeof peers[0];
