# The capture test's board program (tests/suites/capture_test.sh):
# tests/work/workload.c (and the workload library, tests/work/wl.c) built for
# the target like the other tools (static, musl), with a GNU
# build-id and debug information. The guest runs the stripped copy; the host
# keeps the unstripped twin in a sysroot, where exmap-mini -l -S finds it by
# its build-id (strip keeps the build-id and every allocated section).
#   make ARCH=arm build/arm/capture/prog build/arm/capture/prog.stripped

$(BUILD)/capture/prog: tests/work/workload.c tests/work/wl.c tests/work/wl.h \
		tests/mk/capture.mk | $(TOOLCHAIN_DEPS)
	@mkdir -p $(BUILD)/capture
	$(CC) -static -O2 -g -Wall -Wextra -Werror -Wl,--build-id=sha1 -o $@ $(filter %.c,$^)

$(BUILD)/capture/prog.stripped: $(BUILD)/capture/prog
	$(STRIP) -o $@ $<
