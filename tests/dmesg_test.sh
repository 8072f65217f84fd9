#!/bin/sh
# The dmesg matcher (tests/dmesg_check.sh) against a recorded log:
# tests/data/nozeropage-lockdep.dmesg, the whole dmesg of a clean run of the
# nozeropage-amd64 guest (our 6.1 kernel with PROVE_LOCKING, PROVE_RCU,
# DEBUG_ATOMIC_SLEEP, DEBUG_VM, soft lockup and hung task detectors; the
# module loaded, scanned under churn, unloaded).
#   - as recorded: no report, though it holds lockdep's boot banners;
#   - benign lines of the Debian guests' logs: no report;
#   - with one report line added mid-log, one case a kind of report (the
#     kernel's own wording): a report, and that line is the one found.
# usage: tests/dmesg_test.sh   Last line: N passed, N failed.
set -u
here=$(cd "$(dirname "$0")" && pwd)
. "$here/lib.sh"
. "$here/dmesg_check.sh"
log=$here/data/nozeropage-lockdep.dmesg
tmp=$(mktemp -d /tmp/dmesg-test.XXXXXX) || exit 2
trap 'rm -rf "$tmp"' EXIT

if [ -s "$log" ]; then ok "recorded log: $(grep -c . "$log") lines"; else no "recorded log: $log missing"; fi
for banner in 'RCU lockdep checking is enabled' 'Lock dependency validator' 'MAX_LOCKDEP_KEYS'; do
	check_cmd "recorded log holds the banner '$banner'" grep -q "$banner" "$log"
done
check_cmd "recorded log: no report" not dmesg_reports "$log"

# Lines that are no report (from the Debian guests' logs), a line a case.
while IFS= read -r line; do
	printf '%s\n' "$line" >"$tmp/line"
	check_cmd "no report: $line" not dmesg_reports "$tmp/line"
done <<'EOF'
[    0.795318] PCI: Using host bridge windows from ACPI; if necessary, use "pci=nocrs" and report a bug
[    1.156717] AMD-Vi: AMD IOMMUv2 functionality not available on this system - This is not a bug.
[    0.412345] ACPI Warning: SystemIO range 0x0000000000000600-0x000000000000063F conflicts with OpRegion
[    0.000000] trace event string verifier disabled
[    3.051999] exmap_mini: loading out-of-tree module taints kernel.
[    0.164139] RCU Tasks Trace: Setting shift to 0 and lim to 1 rcu_task_cb_adjust=1 rcu_task_cpu_ids=1.
EOF

# KIND<tab>a report's line, as the kernel prints it.
n=0
while IFS='	' read -r kind line; do
	n=$((n + 1))
	{ sed -n '1,100p' "$log"; printf '%s\n' "$line"; sed '1,100d' "$log"; } >"$tmp/$n"
	got=$(dmesg_reports "$tmp/$n")
	check_eq "$kind: found" "$got" "$line" "matched '$got'"
done <<'EOF'
oops	Oops: 0002 [#1] PREEMPT SMP NOPTI
oops (arm)	Internal error: Oops: 0000000096000005 [#1] SMP
NULL pointer	BUG: kernel NULL pointer dereference, address: 0000000000000008
arm fault	Unable to handle kernel NULL pointer dereference at virtual address 0000000000000008
BUG()	kernel BUG at mm/memory.c:1545!
invalid opcode	invalid opcode: 0000 [#1] PREEMPT SMP NOPTI
WARN	WARNING: CPU: 0 PID: 88 at mm/huge_memory.c:2466 split_huge_page_to_list+0x6f/0x9a0
the module's WARN	exmap_mini: walk stuck at 7f2cc6000000
general protection	general protection fault, probably for non-canonical address 0xdead000000000122: 0000 [#1] SMP NOPTI
KASAN	BUG: KASAN: slab-out-of-bounds in exmap_mini_read+0x2f4/0x5a0 [exmap_mini]
KFENCE	BUG: KFENCE: use-after-free read in exmap_mini_read+0x1c/0x40 [exmap_mini]
UBSAN	UBSAN: shift-out-of-bounds in kmod/exmap_mini.c:211:19
circular locking	WARNING: possible circular locking dependency detected
recursive locking	WARNING: possible recursive locking detected
suspicious RCU usage	WARNING: suspicious RCU usage
inconsistent lock state	WARNING: inconsistent lock state
bad unlock balance	WARNING: bad unlock balance detected!
held lock freed	WARNING: held lock freed!
lockdep off	turning off the locking correctness validator.
lockdep warn	DEBUG_LOCKS_WARN_ON(1)
lockdep turned off	INFO: lockdep is turned off.
sleep in atomic	BUG: sleeping function called from invalid context at mm/memory.c:5600
scheduling while atomic	BUG: scheduling while atomic: churn/93/0x00000002
hung task	INFO: task churn:93 blocked for more than 120 seconds.
soft lockup	watchdog: BUG: soft lockup - CPU#0 stuck for 22s! [exmap-mini:400]
hard lockup	Watchdog detected hard LOCKUP on cpu 1
RCU stall	rcu: INFO: rcu_sched self-detected stall on CPU
RCU stall (another CPU)	rcu: INFO: rcu_sched detected stalls on CPUs/tasks:
bad page	BUG: Bad page state in process exmap-mini  pfn:1a2b3
bad page map	BUG: Bad page map in process churn  pte:8000000012345867 pmd:0badc067
bad rss-counter	BUG: Bad rss-counter state mm:000000003a5c8e4f type:MM_ANONPAGES val:-1
list corruption	list_del corruption. prev->next should be ffff888004d0e838, but was dead000000000100. (prev=ffff888004d0e838)
panic	Kernel panic - not syncing: Fatal exception
EOF
check_cmd "$n kinds of report tried" within 30 "$n" ""
finish
