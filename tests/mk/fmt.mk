# Our snprintf (src/fmt.c) against the C library's, built for every target
# like the unit tests and run by tests/run (under qemu-user for boards).
# Its cases in three files (tests/unit/fmt_test.h says which holds which).
FMT_TEST_SRCS := tests/unit/fmt_test.c tests/unit/fmt_test_rows.c tests/unit/fmt_test_msgs.c
$(BUILD)/fmt_test: $(FMT_TEST_SRCS) tests/unit/fmt_test.h src/exmap.h $(BUILD)/obj/fmt.o
	$(CC) $(BUILD_CFLAGS) -Isrc $(BUILD_LDFLAGS) -o $@ $(FMT_TEST_SRCS) $(BUILD)/obj/fmt.o

fmt-test: $(BUILD)/fmt_test
	$(QEMU) $(BUILD)/fmt_test
.PHONY: fmt-test
