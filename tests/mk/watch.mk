# The watch suite's reader of watch logs (tests/unit/wlogdump.c), on
# exmap-mini's objects: what src/wlog.c gives, as CSV.
$(BUILD)/wlogdump: tests/unit/wlogdump.c $(UNITOBJS) $(TOOLCHAIN_DEPS) | $(BUILD)/obj
	$(CC) $(BUILD_CFLAGS) -Isrc $(BUILD_LDFLAGS) -o $@ tests/unit/wlogdump.c $(UNITOBJS)
