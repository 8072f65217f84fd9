# The trend's workloads (tests/suites/trend_test.sh, busy_test.sh): leakwork
# is built with the other workloads (WL_USERS), busywork on the same library;
# leakfam is linked dynamically with a library of its own, libxmleak.so,
# whose .bss its children dirty, found beside it ($ORIGIN).

TREND_DIR := build/trend
TREND_CFLAGS := -O2 -Wall -Wextra -Werror

$(TREND_DIR)/libxmleak.so: tests/work/xmleak.c tests/mk/trend.mk | $(TREND_DIR)
	$(HOSTCC) $(TREND_CFLAGS) -fPIC -shared -Wl,-soname,libxmleak.so -o $@ $<

$(TREND_DIR)/leakfam: tests/work/leakfam.c tests/work/wl.c tests/work/wl.h \
		$(TREND_DIR)/libxmleak.so tests/mk/trend.mk | $(TREND_DIR)
	$(HOSTCC) $(TREND_CFLAGS) -o $@ tests/work/leakfam.c tests/work/wl.c \
		-L$(TREND_DIR) -lxmleak -Wl,-rpath,'$$ORIGIN'

$(TREND_DIR):
	mkdir -p $@

build/host/busywork: tests/work/wl.c tests/work/wl.h

trend-deps: build/host/leakwork build/host/busywork $(TREND_DIR)/leakfam

.PHONY: trend-deps
