# Our snprintf (src/fmt.c) against the C library's, built for every target
# like the unit tests and run by tests/run (under qemu-user for boards).
$(BUILD)/fmt_test: tests/unit/fmt_test.c $(BUILD)/obj/fmt.o
	$(CC) $(BUILD_CFLAGS) -Isrc $(BUILD_LDFLAGS) -o $@ tests/unit/fmt_test.c $(BUILD)/obj/fmt.o

fmt-test: $(BUILD)/fmt_test
	$(QEMU) $(BUILD)/fmt_test
.PHONY: fmt-test
