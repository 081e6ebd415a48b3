/* SHA-256 (FIPS 180-4) of a byte buffer: names a net in the data pool's manifests the same way
 * `sha256sum` does. */
#ifndef SQUALL_SHA256_H
#define SQUALL_SHA256_H

#include <stddef.h>
#include <stdint.h>

/* Writes the digest as 64 lowercase hex digits and a NUL into hex (65 bytes). */
void sha256_hex(const void *data, size_t size, char hex[65]);

#endif
