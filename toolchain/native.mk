# The build machine itself: Debian's musl-gcc wrapper (musl-tools).
CC := musl-gcc
BUILD := build
QEMU :=
# The kernel's ARCH and Debian's name for this machine, from uname -m.
KARCH := $(patsubst i%86,x86,$(patsubst x86_64,x86,$(patsubst aarch64,arm64,$(patsubst \
	armv%,arm,$(patsubst mips%,mips,$(patsubst riscv64,riscv,$(HOSTARCH)))))))
DEBARCH := $(or $(patsubst x86_64,amd64,$(filter x86_64,$(HOSTARCH))),$(patsubst \
	aarch64,arm64,$(filter aarch64,$(HOSTARCH))),$(patsubst armv7l,armhf,$(filter \
	armv7l,$(HOSTARCH))),$(HOSTARCH))
