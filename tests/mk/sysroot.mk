# The sysroot search (src/sysroot.c): a driver around sysroot_open() and
# tests/suites/sysroot_test.sh, which builds sysroot trees with the host's gcc. They
# run on the build machine only, so the rules exist for the native build alone.
#   make build/sysroot_drv	the driver, built like exmap-mini
#   make sysroot-test		build it and its sanitizer twin, run the test on both
ifeq ($(TARGET),native)

$(BUILD)/sysroot_drv: tests/unit/sysroot_drv.c $(LIBOBJS)
	$(CC) $(BUILD_CFLAGS) -Isrc $(BUILD_LDFLAGS) -o $@ tests/unit/sysroot_drv.c $(LIBOBJS)

# The same under ASan and UBSan (clang, glibc), with elf.mk's flags.
$(BUILD)/sysroot_drv-san: tests/unit/sysroot_drv.c $(filter-out src/main.c,$(SRCS)) $(HDRS) \
		$(PAGE_LZ) tests/mk/sysroot.mk | $(BUILD)/obj
	$(ELFT_CLANG) $(ELFT_SANFLAGS) $(PAGE_DEFS) -Isrc -o $@ tests/unit/sysroot_drv.c \
		$(filter-out src/main.c,$(SRCS))

sysroot-test: $(BUILD)/sysroot_drv $(BUILD)/sysroot_drv-san
	DRV=$(BUILD)/sysroot_drv tests/suites/sysroot_test.sh
	DRV=$(BUILD)/sysroot_drv-san tests/suites/sysroot_test.sh

.PHONY: sysroot-test

endif
