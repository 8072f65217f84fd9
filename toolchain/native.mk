# The build machine itself: Debian's musl-gcc wrapper (musl-tools).
CC := musl-gcc
BUILD := build
QEMU :=
KARCH := x86
DEBARCH := amd64
