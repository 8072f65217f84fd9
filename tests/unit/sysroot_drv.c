/* sysroot_drv: sysroot_open() for tests/suites/sysroot_test.sh. */
/*
 * sysroot_drv ROOT PATH [HEXID]: sysroot_open() for
 * tests/suites/sysroot_test.sh. Prints "used PATH" (exit 0) or "none: WHY"
 * (exit 1); 2 on misuse or when the result breaks the contract. USEDLEN in the
 * environment shrinks the buffer the path is given in, to test that a cut path
 * is refused.
 */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "exmap.h"

static unsigned char id[ELF_BUILDID_MAX];
static char used[PATH_MAX], why[16384];

static int parse_hex(const char *s, size_t *len)
{
	size_t n = strlen(s), i;

	if (n == 0 || n % 2 || n / 2 > sizeof(id))
		return -1;
	for (i = 0; i < n; i += 2) {
		char byte[3] = { s[i], s[i + 1], 0 }, *end;

		id[i / 2] = (unsigned char)strtoul(byte, &end, 16);
		if (*end || !byte[0] || byte[0] == '+' || byte[0] == '-' || byte[0] == ' ')
			return -1;
	}
	*len = n / 2;
	return 0;
}

int main(int argc, char **argv)
{
	size_t idlen = 0, usedlen = sizeof(used);
	const char *ul = getenv("USEDLEN");
	uint64_t size;
	struct stat st;
	int fd;

	if (argc < 3 || argc > 4 || (argc == 4 && parse_hex(argv[3], &idlen) < 0)) {
		fprintf(stderr, "usage: sysroot_drv root path [hexid]\n");
		return 2;
	}
	if (ul && (usedlen = strtoul(ul, NULL, 10)) > sizeof(used))
		usedlen = sizeof(used);
	fd = sysroot_open(argv[1], argv[2], id, idlen, &size, used, usedlen, why, sizeof(why));
	if (fd < 0) {
		printf("none: %s\n", why);
		return 1;
	}
	if (why[0] || fstat(fd, &st) < 0 || (uint64_t)st.st_size != size || !S_ISREG(st.st_mode)) {
		printf("broken: fd %d, size %llu, why \"%s\"\n", fd, (unsigned long long)size, why);
		return 2;
	}
	printf("used %s\n", used);
	return 0;
}
