# The benchmark's ASan workload (tests/bench.sh, case asan): tests/benchwork.c
# built with AddressSanitizer, whose shadow reserves some 20 TiB of address
# space. ASan needs the dynamic C library, so this one is not static.
build/host/benchwork-asan: tests/benchwork.c tests/bench.mk | build/host
	$(HOSTCC) -fsanitize=address -O1 -g -Wall -Wextra -Werror -o $@ $<
