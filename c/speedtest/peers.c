/* The C peers from Debian packages other than libb2 and BLAKE3 (see blake2_api.c and
 * blake3_api.c): CRC32C (ISA-L), xxHash, OpenSSL. */
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

static const contestant rows[] = {
    {"CRC32C", "isa-l", "crc32_iscsi", 1, crc32c},
    {"XXH64", "libxxhash", "XXH64", 1, xxh64},
    {"XXH3", "libxxhash", "XXH3_64bits", 1, xxh3},
    {"SHA-256", "OpenSSL", "EVP", 1, sha256_ossl},
    {"BLAKE2b", "OpenSSL", "EVP blake2b512", 1, blake2b_ossl},
    {"BLAKE2s", "OpenSSL", "EVP blake2s256", 1, blake2s_ossl},
};
const table other_peers = {rows, sizeof rows / sizeof rows[0]};
