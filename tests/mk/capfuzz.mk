# The damaged-capture test (tests/suites/capture_corrupt.sh): exmap-mini built
# whole with clang, glibc, AddressSanitizer and UBSan, every check fatal, the
# way tests/mk/elf.mk builds the ELF reader's. Native only: the test makes its
# captures on this machine. sanserve (tests/unit/sanserve.c) is the same
# objects, main renamed xm_main, serving the test's runs a fork each.
#   make capfuzz-deps	the sanitizer build, sanserve, the release build, the workload
#   make capfuzz	build those, then run the test (as root)
ifeq ($(TARGET),native)

CAPFUZZ_DIR := $(BUILD)/capfuzz
CAPFUZZ_CLANG ?= clang
CAPFUZZ_SANFLAGS := -std=c11 -D_GNU_SOURCE -g -O1 -fno-omit-frame-pointer -Wall -Wextra \
	-fsanitize=address,undefined -fno-sanitize-recover=all
CAPFUZZ_OBJS := $(SRCS:src/%.c=$(CAPFUZZ_DIR)/obj/%.o)

$(CAPFUZZ_DIR)/obj/%.o: src/%.c $(HDRS) $(PAGE_LZ) tests/mk/capfuzz.mk
	@mkdir -p $(@D)
	$(CCACHE) $(CAPFUZZ_CLANG) $(CAPFUZZ_SANFLAGS) $(PAGE_DEFS) -c -o $@ $<

$(CAPFUZZ_DIR)/exmap-mini-san: $(CAPFUZZ_OBJS)
	$(CAPFUZZ_CLANG) $(CAPFUZZ_SANFLAGS) -o $@ $^

$(CAPFUZZ_DIR)/xm_main.o: $(CAPFUZZ_DIR)/obj/main.o
	objcopy --redefine-sym main=xm_main $< $@

$(CAPFUZZ_DIR)/sanserve: tests/unit/sanserve.c $(CAPFUZZ_DIR)/xm_main.o \
		$(filter-out %/main.o,$(CAPFUZZ_OBJS))
	$(CAPFUZZ_CLANG) $(CAPFUZZ_SANFLAGS) -o $@ $^

capfuzz-deps: $(BUILD)/exmap-mini $(CAPFUZZ_DIR)/exmap-mini-san $(CAPFUZZ_DIR)/sanserve \
	$(BUILD)/tools/workload

capfuzz: capfuzz-deps
	EXMAP=$(BUILD)/exmap-mini CAPFUZZ_BIN=$(CAPFUZZ_DIR)/exmap-mini-san \
		CAPFUZZ_SERVE=$(CAPFUZZ_DIR)/sanserve \
		WORKLOAD=$(BUILD)/tools/workload tests/suites/capture_corrupt.sh

.PHONY: capfuzz-deps capfuzz

endif
