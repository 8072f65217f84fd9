# The benchmark's ASan workload (tests/bench/bench.sh, case asan):
# tests/work/benchwork.c built with AddressSanitizer, whose shadow reserves
# some 20 TiB of address space. ASan needs the dynamic C library, so this one
# is not static.
build/host/benchwork-asan: tests/work/benchwork.c tests/work/wl.c tests/work/wl.h \
		tests/mk/bench.mk | build/host
	$(HOSTCC) -fsanitize=address -O1 -g -Wall -Wextra -Werror -o $@ $(filter %.c,$^)
