# The sections and symbols fixture: a shared library with page-aligned arrays
# touched in known ways, and the driver that loads it. Built with the host's
# gcc against glibc, dynamically: what is tested is how exmap-mini places a
# real ld.so-loaded library's sections and symbols on its pages.
# make fixture: build it; make fixture-test: build it and exmap-mini, run it.

FIX_DIR := build/fixture
FIX_CFLAGS := -O2 -Wall -Wextra -Werror
FIX_LIB := $(FIX_DIR)/libfixture.so
FIX_MAIN := $(FIX_DIR)/fixture_main

# Not stripped: the test reads the arrays from the library's .symtab.
$(FIX_LIB): tests/work/fixture_lib.c tests/mk/fixture.mk | $(FIX_DIR)
	$(HOSTCC) $(FIX_CFLAGS) -fPIC -shared -Wl,-soname,libfixture.so -o $@ $<

# $ORIGIN: the driver finds the library beside it, wherever build/ is.
$(FIX_MAIN): tests/work/fixture_main.c $(FIX_LIB) tests/mk/fixture.mk | $(FIX_DIR)
	$(HOSTCC) $(FIX_CFLAGS) -o $@ $< -L$(FIX_DIR) -lfixture -Wl,-rpath,'$$ORIGIN'

$(FIX_DIR):
	mkdir -p $@

fixture: $(FIX_LIB) $(FIX_MAIN)

fixture-test: all fixture
	EXMAP=$(BUILD)/exmap-mini tests/suites/fixture_test.sh

.PHONY: fixture fixture-test
