# The damaged-capture test (tests/suites/capture_corrupt.sh): exmap-mini built
# whole with clang, glibc, AddressSanitizer and UBSan, every check fatal, the
# way tests/mk/elf.mk builds the ELF reader's. Native only: the test makes its
# captures on this machine.
#   make capfuzz-deps	the sanitizer build, the release build, the workload
#   make capfuzz	build those, then run the test (as root)
ifeq ($(TARGET),native)

CAPFUZZ_DIR := $(BUILD)/capfuzz
CAPFUZZ_CLANG ?= clang
CAPFUZZ_SANFLAGS := -std=c11 -D_GNU_SOURCE -g -O1 -fno-omit-frame-pointer -Wall -Wextra \
	-fsanitize=address,undefined -fno-sanitize-recover=all

$(CAPFUZZ_DIR)/exmap-mini-san: $(SRCS) $(HDRS) $(PAGE_LZ) tests/mk/capfuzz.mk
	@mkdir -p $(CAPFUZZ_DIR)
	$(CAPFUZZ_CLANG) $(CAPFUZZ_SANFLAGS) $(PAGE_DEFS) -o $@ $(SRCS)

capfuzz-deps: $(BUILD)/exmap-mini $(CAPFUZZ_DIR)/exmap-mini-san $(BUILD)/tools/workload

capfuzz: capfuzz-deps
	EXMAP=$(BUILD)/exmap-mini CAPFUZZ_BIN=$(CAPFUZZ_DIR)/exmap-mini-san \
		WORKLOAD=$(BUILD)/tools/workload tests/suites/capture_corrupt.sh

.PHONY: capfuzz-deps capfuzz

endif
