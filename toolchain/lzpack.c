/*
 * lzpack IN OUT: the page's template and the trend's drawing packed for the
 * binary (.incbin), which src/page.c's page_unpack() unpacks when a page is
 * made: 35 KB of text is most of what makes a host's build large. OUT is
 * IN's length (4 bytes, little-endian), then runs: a byte b < 128 and the
 * b + 1 bytes that follow as they are, or a byte 128 + k and an offset d (2
 * bytes, little-endian): k + 3 bytes copied from d bytes back in what is
 * unpacked so far. Greedy, the longest match a hash chain finds.
 */
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#define IN_MAX		(1 << 20)
#define WINDOW		65535		/* the farthest an offset reaches */
#define MATCH_MIN	3
#define MATCH_MAX	(127 + MATCH_MIN)
#define RUN_MAX		128		/* bytes as they are, one run */
#define HASH_BITS	15

static unsigned char in[IN_MAX], out[IN_MAX + IN_MAX / RUN_MAX + 8];
static int32_t head[1 << HASH_BITS], prev[IN_MAX];
static size_t n, o;

static unsigned hash(size_t i)
{
	return ((unsigned)in[i] << 10 ^ (unsigned)in[i + 1] << 5 ^ in[i + 2]) &
	       ((1u << HASH_BITS) - 1);
}

static void insert(size_t i)
{
	if (i + MATCH_MIN <= n) {
		unsigned h = hash(i);

		prev[i] = head[h];
		head[h] = (int32_t)i;
	}
}

static void runs(size_t from, size_t to)
{
	while (from < to) {
		size_t k = to - from > RUN_MAX ? RUN_MAX : to - from;

		out[o++] = (unsigned char)(k - 1);
		memcpy(out + o, in + from, k);
		o += k;
		from += k;
	}
}

int main(int argc, char **argv)
{
	FILE *f;
	size_t i = 0, plain = 0;

	if (argc != 3) {
		fprintf(stderr, "usage: lzpack IN OUT\n");
		return 2;
	}
	if (!(f = fopen(argv[1], "rb"))) {
		perror(argv[1]);
		return 2;
	}
	n = fread(in, 1, sizeof(in), f);
	if (ferror(f) || fgetc(f) != EOF) {
		fprintf(stderr, "lzpack: %s: unreadable, or over IN_MAX (%d bytes)\n", argv[1], IN_MAX);
		return 2;
	}
	fclose(f);
	memset(head, 0xff, sizeof(head));
	for (o = 0; o < 4; o++)
		out[o] = (unsigned char)(n >> 8 * o);
	while (i < n) {
		size_t best = 0, at = 0, k;
		int32_t j = i + MATCH_MIN <= n ? head[hash(i)] : -1;

		for (; j >= 0 && i - (size_t)j <= WINDOW; j = prev[j]) {
			for (k = 0; k < MATCH_MAX && i + k < n && in[j + k] == in[i + k]; k++)
				;
			if (k > best) {
				best = k;
				at = (size_t)j;
			}
		}
		if (best < MATCH_MIN) {
			insert(i++);
			continue;
		}
		runs(plain, i);
		out[o++] = (unsigned char)(128 + best - MATCH_MIN);
		out[o++] = (unsigned char)(i - at);
		out[o++] = (unsigned char)((i - at) >> 8);
		for (k = 0; k < best; k++)
			insert(i++);
		plain = i;
	}
	runs(plain, n);
	if (!(f = fopen(argv[2], "wb")) || fwrite(out, 1, o, f) != o || fclose(f)) {
		perror(argv[2]);
		return 2;
	}
	return 0;
}
