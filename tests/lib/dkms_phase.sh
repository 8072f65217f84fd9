#!/bin/sh
# The module DKMS built (tests/suites/dkms_test.sh leaves it in DKMS_KO,
# default build/pkg/dkms/exmap_mini.ko) in a guest of the kernel it was
# built for, as a phase of that guest's boot (tests/qemu/phases: trixie-amd64,
# where tests/run runs it after the module matrix's own phase): the whole of
# the module's system test (tests/lib/kmod_phase.sh with KMOD_KO), with a
# 10 s churn.
# usage: tests/lib/dkms_phase.sh prefix|prepare|check ENV PHASE [DIR]
cd "$(dirname "$0")/../.." || exit 2
KMOD_KO=${DKMS_KO:-build/pkg/dkms/exmap_mini.ko} KMOD_STRESS=10 exec tests/lib/kmod_phase.sh "$@"
