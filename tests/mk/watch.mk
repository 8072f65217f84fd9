# The watch suite's reader of watch logs (tests/unit/wlogdump.c), on
# exmap-mini's objects: what src/wlog.c gives, as CSV.
$(BUILD)/wlogdump: tests/unit/wlogdump.c $(UNITOBJS) $(TOOLCHAIN_DEPS) | $(BUILD)/obj
	$(CC) $(BUILD_CFLAGS) -Isrc $(BUILD_LDFLAGS) -o $@ tests/unit/wlogdump.c $(UNITOBJS)

# make bench's measure of what a watch sample costs beyond its scan
# (tests/bench/watchcost.c), on the same objects.
$(BUILD)/watchcost: tests/bench/watchcost.c $(UNITOBJS) $(TOOLCHAIN_DEPS) | $(BUILD)/obj
	$(CC) $(BUILD_CFLAGS) -Isrc $(BUILD_LDFLAGS) -o $@ tests/bench/watchcost.c $(UNITOBJS)

# make bench's measure of exmap-mini's own work on an allocinfo of many
# lines (tests/bench/kowncost.c), on the same objects.
$(BUILD)/kowncost: tests/bench/kowncost.c $(UNITOBJS) $(TOOLCHAIN_DEPS) | $(BUILD)/obj
	$(CC) $(BUILD_CFLAGS) -Isrc $(BUILD_LDFLAGS) -o $@ tests/bench/kowncost.c $(UNITOBJS)
