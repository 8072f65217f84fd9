# The fuzzers of what exmap-mini reads from outside (tests/suites/fuzz_logs.sh):
# watch logs, console logs holding captures, captures (tests/unit/fuzz_*.c on
# tests/unit/fuzzlib.c), libFuzzer with AddressSanitizer and UBSan, every
# check fatal, as tests/mk/elf.mk builds the ELF reader's. Native only.
# clang's -Wextra warns of tables' rows that leave their last fields zero
# (cli.c's), which gcc's does not.
#   make fuzz-deps	the three fuzzers, exmap-mini's sanitizer build, wlogdump
#   make fuzz		them all (the ELF reader's too) for FUZZ_SECONDS each
ifeq ($(TARGET),native)

FUZZ_DIR := $(BUILD)/fuzz
FUZZ_CLANG ?= clang
FUZZ_TARGETS := wlog conlog capture
FUZZ_CFLAGS := -std=c11 -D_GNU_SOURCE -D_FILE_OFFSET_BITS=64 -g -O1 -fno-omit-frame-pointer \
	-Wall -Wextra -Werror -Wno-missing-field-initializers -fno-sanitize-recover=all
FUZZ_OBJS := $(patsubst src/%.c,$(FUZZ_DIR)/obj/%.o,$(filter-out src/main.c,$(SRCS)))

# exmap-mini's objects instrumented for coverage (no libFuzzer main of their own)
$(FUZZ_DIR)/obj/%.o: src/%.c $(HDRS) tests/mk/fuzz.mk
	@mkdir -p $(FUZZ_DIR)/obj
	$(CCACHE) $(FUZZ_CLANG) $(FUZZ_CFLAGS) $(PAGE_DEFS) -fsanitize=fuzzer-no-link,address,undefined -c -o $@ $<

$(FUZZ_DIR)/obj/page.o $(FUZZ_DIR)/obj/trendpage.o: $(PAGE_LZ)

$(FUZZ_DIR)/fuzz_%: tests/unit/fuzz_%.c tests/unit/fuzzlib.c tests/unit/fuzzmut.c tests/unit/fuzzlib.h $(FUZZ_OBJS)
	$(FUZZ_CLANG) $(FUZZ_CFLAGS) -fsanitize=fuzzer,address,undefined -Isrc -o $@ \
		tests/unit/fuzz_$*.c tests/unit/fuzzlib.c tests/unit/fuzzmut.c $(FUZZ_OBJS)

FUZZ_ENV := FUZZ_DIR=$(FUZZ_DIR) EXMAP=$(BUILD)/exmap-mini EXMAP_SAN=$(BUILD)/capfuzz/exmap-mini-san \
	WLOGDUMP=$(BUILD)/wlogdump WORKLOAD=build/host/workload FUZZ_SECONDS=$(FUZZ_SECONDS)

fuzz-deps: $(FUZZ_TARGETS:%=$(FUZZ_DIR)/fuzz_%) $(BUILD)/exmap-mini $(BUILD)/capfuzz/exmap-mini-san \
	$(BUILD)/wlogdump build/host/workload

fuzz: elftest-deps fuzz-deps
	$(ELFT_ENV) tests/suites/elf_suite.sh fuzz
	$(FUZZ_ENV) tests/suites/fuzz_logs.sh fuzz

.PHONY: fuzz-deps fuzz

endif
