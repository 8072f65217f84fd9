# The ELF reader's tests (tests/suites/elf_suite.sh): the reader against
# readelf, corrupt files through a sanitizer build, and a libFuzzer run. They
# run on the build machine only, so the rules exist for the native build alone.
#   make elftest-deps	everything the suite needs, under $(BUILD)/elftest
#   make elftest	build that, then run the suite
#   (make fuzz, in tests/mk/fuzz.mk, runs its fuzzer with the others)
ifeq ($(TARGET),native)

ELFT_DIR := $(BUILD)/elftest
ELFT_OBJ := $(ELFT_DIR)/obj
FUZZ_SECONDS ?= 60

# The sanitizer build and the fuzzer: clang, glibc, every check fatal.
ELFT_CLANG ?= clang
ELFT_SANFLAGS := -std=c11 -D_GNU_SOURCE -g -O1 -fno-omit-frame-pointer -Wall -Wextra \
	-fsanitize=address,undefined -fno-sanitize-recover=all

# The test files come from tests/work/elfobj.c, built by each compiler: a
# relocatable object, a static executable with no libc, a shared object.
ELFT_ARCHES := x86_64 arm aarch64 mips ppc64
ELFT_CC_x86_64 := gcc
ELFT_CC_arm := arm-linux-gnueabihf-gcc
ELFT_CC_aarch64 := aarch64-linux-gnu-gcc
ELFT_CC_mips := mips-linux-gnu-gcc
ELFT_CC_ppc64 := powerpc64-linux-gnu-gcc
ELFT_CFLAGS := -O1 -fcommon
# Small pages keep the 64-bit files small: they are corrupted byte by byte.
ELFT_LDFLAGS := -nostdlib -Wl,--build-id -Wl,-z,max-page-size=4096 \
	-Wl,-z,common-page-size=4096
ELFT_FILES := $(foreach a,$(ELFT_ARCHES),$(ELFT_OBJ)/$(a).o $(ELFT_OBJ)/$(a).exe \
	$(ELFT_OBJ)/$(a).so) $(ELFT_OBJ)/longsec.o $(ELFT_OBJ)/xnum.o $(ELFT_OBJ)/big.o

$(ELFT_OBJ)/%.o: tests/work/elfobj.c tests/mk/elf.mk | $(ELFT_OBJ)
	$(CCACHE) $(ELFT_CC_$*) $(ELFT_CFLAGS) -c -o $@ $<

$(ELFT_OBJ)/%.exe: tests/work/elfobj.c tests/mk/elf.mk | $(ELFT_OBJ)
	$(ELFT_CC_$*) $(ELFT_CFLAGS) -static -Wl,-e,_start $(ELFT_LDFLAGS) -o $@ $<

$(ELFT_OBJ)/%.so: tests/work/elfobj.c tests/mk/elf.mk | $(ELFT_OBJ)
	$(ELFT_CC_$*) $(ELFT_CFLAGS) -fPIC -shared $(ELFT_LDFLAGS) -o $@ $<

# A section name longer than 255 bytes.
$(ELFT_OBJ)/longsec.o: tests/work/elfobj.c tests/mk/elf.mk | $(ELFT_OBJ)
	gcc $(ELFT_CFLAGS) -DELFOBJ_LONGSEC -c -o $@ $<

# 66000 sections: extended numbering. -O0 keeps it to a second or two.
$(ELFT_OBJ)/xnum.o: tests/work/elfobj.c tests/mk/elf.mk | $(ELFT_OBJ)
	gcc -O0 -DELFOBJ_MANY -c -o $@ $<

# Section and symbol tables longer than the reader's 64 KiB window.
$(ELFT_OBJ)/big.o: tests/work/elfobj.c tests/mk/elf.mk | $(ELFT_OBJ)
	gcc -O0 -DELFOBJ_BIG -c -o $@ $<

$(ELFT_DIR)/exmap-mini-san: $(SRCS) $(HDRS) $(PAGE_LZ) tests/mk/elf.mk | $(ELFT_DIR)
	$(ELFT_CLANG) $(ELFT_SANFLAGS) $(PAGE_DEFS) -o $@ $(SRCS)

$(ELFT_DIR)/fuzz_elf: tests/unit/fuzz_elf.c src/elf.c src/fmt.c $(HDRS) tests/mk/elf.mk | $(ELFT_DIR)
	$(ELFT_CLANG) -g -O1 -Wall -Wextra -fsanitize=fuzzer,address,undefined \
		-fno-sanitize-recover=all -Isrc -o $@ tests/unit/fuzz_elf.c src/elf.c src/fmt.c

ELFCORRUPT_SRCS := tests/work/elfcorrupt.c tests/work/elfcorrupt_hdrs.c tests/work/elfcorrupt_rewrite.c
$(ELFT_DIR)/elfcorrupt: $(ELFCORRUPT_SRCS) tests/work/elfcorrupt.h tests/mk/elf.mk | $(ELFT_DIR)
	$(HOSTCC) -O2 -Wall -Wextra -Werror -o $@ $(ELFCORRUPT_SRCS)

$(ELFT_DIR) $(ELFT_OBJ):
	mkdir -p $@

ELFT_ENV := ELFT_DIR=$(ELFT_DIR) EXMAP=$(BUILD)/exmap-mini FUZZ_SECONDS=$(FUZZ_SECONDS)

elftest-deps: $(BUILD)/exmap-mini $(ELFT_DIR)/exmap-mini-san $(ELFT_DIR)/fuzz_elf \
	$(ELFT_DIR)/elfcorrupt $(ELFT_FILES)

elftest: elftest-deps
	$(ELFT_ENV) tests/suites/elf_suite.sh

.PHONY: elftest-deps elftest

endif
