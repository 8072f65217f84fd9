# 64-bit ARM (Debian arm64): the cross gcc with musl-dev:arm64's specs.
CROSS_COMPILE ?= aarch64-linux-gnu-
MUSL_SPECS ?= /usr/lib/aarch64-linux-musl/musl-gcc.specs
CC := $(CROSS_COMPILE)gcc $(if $(MUSL_SPECS),-specs $(MUSL_SPECS))
BUILD := build/arm64
QEMU := qemu-aarch64-static
KARCH := arm64
DEBARCH := arm64
# ld aligns aarch64 segments for 64 KiB pages by default, which pads the
# file by some 45 KiB. Boards with 4 KiB pages (Debian's arm64 kernels, most
# boards) need no more; for a 16 or 64 KiB page kernel set MAXPAGE=65536.
MAXPAGE ?= 4096
TARGET_LDFLAGS := -Wl,-z,max-page-size=$(MAXPAGE)
