/*
 * SHA-256 as FIPS 180-4 specifies it, for the content hashes of snapshots
 * and package sets.  Written for clarity, not speed: a snapshot is a few
 * hundred kilobytes at most.
 */
#include <stdint.h>
#include <string.h>

#include "sysinfo_int.h"

/* First 32 bits of the fractional parts of the cube roots of the first 64
 * primes. */
static const uint32_t sha256_k[64] = {
	0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5,
	0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5,
	0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3,
	0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174,
	0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc,
	0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da,
	0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7,
	0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967,
	0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13,
	0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85,
	0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3,
	0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070,
	0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5,
	0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3,
	0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208,
	0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2,
};

static uint32_t
sha256_rotr(uint32_t x, int n)
{
	return (x >> n) | (x << (32 - n));
}

/* Process one 64-byte block into the state. */
static void
sha256_block(struct sysinfo_sha256 *s, const uint8_t *p)
{
	uint32_t	w[64], a, b, c, d, e, f, g, h, t1, t2, s0, s1;
	int		i;

	for (i = 0; i < 16; i++)
		w[i] = (uint32_t)p[4 * i] << 24 | (uint32_t)p[4 * i + 1] << 16 |
		    (uint32_t)p[4 * i + 2] << 8 | (uint32_t)p[4 * i + 3];
	for (i = 16; i < 64; i++) {
		s0 = sha256_rotr(w[i - 15], 7) ^ sha256_rotr(w[i - 15], 18) ^
		    (w[i - 15] >> 3);
		s1 = sha256_rotr(w[i - 2], 17) ^ sha256_rotr(w[i - 2], 19) ^
		    (w[i - 2] >> 10);
		w[i] = w[i - 16] + s0 + w[i - 7] + s1;
	}

	a = s->h[0]; b = s->h[1]; c = s->h[2]; d = s->h[3];
	e = s->h[4]; f = s->h[5]; g = s->h[6]; h = s->h[7];
	for (i = 0; i < 64; i++) {
		s1 = sha256_rotr(e, 6) ^ sha256_rotr(e, 11) ^ sha256_rotr(e, 25);
		t1 = h + s1 + ((e & f) ^ (~e & g)) + sha256_k[i] + w[i];
		s0 = sha256_rotr(a, 2) ^ sha256_rotr(a, 13) ^ sha256_rotr(a, 22);
		t2 = s0 + ((a & b) ^ (a & c) ^ (b & c));
		h = g;
		g = f;
		f = e;
		e = d + t1;
		d = c;
		c = b;
		b = a;
		a = t1 + t2;
	}
	s->h[0] += a; s->h[1] += b; s->h[2] += c; s->h[3] += d;
	s->h[4] += e; s->h[5] += f; s->h[6] += g; s->h[7] += h;
}

/* Start a digest with the initial hash value of FIPS 180-4, 5.3.3. */
void
sysinfo_sha256_init(struct sysinfo_sha256 *s)
{
	static const uint32_t h0[8] = {
		0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a,
		0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19,
	};

	memcpy(s->h, h0, sizeof(s->h));
	s->bytes = 0;
	s->nblock = 0;
}

/* Feed len bytes, in any number of pieces. */
void
sysinfo_sha256_update(struct sysinfo_sha256 *s, const void *data, size_t len)
{
	const uint8_t	*p = data;
	size_t		 n;

	s->bytes += len;
	if (s->nblock > 0) {
		n = sizeof(s->block) - s->nblock;
		if (n > len)
			n = len;
		memcpy(s->block + s->nblock, p, n);
		s->nblock += n;
		p += n;
		len -= n;
		if (s->nblock < sizeof(s->block))
			return;
		sha256_block(s, s->block);
		s->nblock = 0;
	}
	while (len >= sizeof(s->block)) {
		sha256_block(s, p);
		p += sizeof(s->block);
		len -= sizeof(s->block);
	}
	memcpy(s->block, p, len);
	s->nblock = len;
}

/* Pad, append the bit length and write the 32-byte digest. */
void
sysinfo_sha256_final(struct sysinfo_sha256 *s, uint8_t out[32])
{
	uint64_t	bits = s->bytes * 8;
	int		i;

	s->block[s->nblock++] = 0x80;
	if (s->nblock > 56) {
		memset(s->block + s->nblock, 0, sizeof(s->block) - s->nblock);
		sha256_block(s, s->block);
		s->nblock = 0;
	}
	memset(s->block + s->nblock, 0, 56 - s->nblock);
	for (i = 0; i < 8; i++)
		s->block[56 + i] = (uint8_t)(bits >> (56 - 8 * i));
	sha256_block(s, s->block);
	for (i = 0; i < 8; i++) {
		out[4 * i] = (uint8_t)(s->h[i] >> 24);
		out[4 * i + 1] = (uint8_t)(s->h[i] >> 16);
		out[4 * i + 2] = (uint8_t)(s->h[i] >> 8);
		out[4 * i + 3] = (uint8_t)s->h[i];
	}
}

/* Write a digest as 64 lowercase hex digits. */
void
sysinfo_sha256_hex(const uint8_t digest[32], char out[SYSINFO_HASH_LEN + 1])
{
	static const char	hex[] = "0123456789abcdef";
	int			i;

	for (i = 0; i < 32; i++) {
		out[2 * i] = hex[digest[i] >> 4];
		out[2 * i + 1] = hex[digest[i] & 0xf];
	}
	out[SYSINFO_HASH_LEN] = '\0';
}
