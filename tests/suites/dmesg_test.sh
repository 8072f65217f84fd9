#!/bin/sh
# The dmesg matcher (tests/lib/dmesg_check.sh) against recorded logs:
#   - whole dmesgs of clean runs, which hold no report: tests/data/
#     nozeropage-lockdep.dmesg, the nozeropage-amd64 guest (our 6.1 kernel
#     with PROVE_LOCKING, PROVE_RCU, DEBUG_ATOMIC_SLEEP, DEBUG_VM, soft lockup
#     and hung task detectors), and rt-amd64.dmesg, the trixie-rt-amd64 guest
#     (Debian's PREEMPT_RT 6.12); in each, the module loaded, scanned under
#     churn, unloaded; each holds its checkers' or RT's boot banners;
#   - the reports of deliberately broken builds of the module, recorded in
#     PREEMPT_RT guests (from the module's load to the end of the first
#     report): the first report found is the one the kernel printed;
#   - benign lines of the Debian guests' logs: no report;
#   - with one report line added mid-log, one case a kind of report (the
#     kernel's own wording): a report, and that line is the one found.
# usage: tests/suites/dmesg_test.sh   Last line: N passed, N failed.
set -u
tests=$(cd "$(dirname "$0")/.." && pwd)
. "$tests/lib/lib.sh"
. "$tests/lib/dmesg_check.sh"
data=$tests/data
log=$data/nozeropage-lockdep.dmesg
tmp=$(mktemp -d /tmp/dmesg-test.XXXXXX) || exit 2
trap 'rm -rf "$tmp"' EXIT

for f in nozeropage-lockdep.dmesg rt-amd64.dmesg; do
	if [ -s "$data/$f" ]; then ok "$f: $(grep -c . "$data/$f") lines"; else no "$f: missing"; fi
	check_cmd "$f: no report" not dmesg_reports "$data/$f"
done
# LOG<tab>a banner the clean log holds, a line a banner.
while IFS='	' read -r f banner; do
	check_cmd "$f holds the banner '$banner'" grep -qF -- "$banner" "$data/$f"
done <<'EOF'
nozeropage-lockdep.dmesg	RCU lockdep checking is enabled
nozeropage-lockdep.dmesg	Lock dependency validator
nozeropage-lockdep.dmesg	MAX_LOCKDEP_KEYS
rt-amd64.dmesg	SMP PREEMPT_RT Debian
rt-amd64.dmesg	Dynamic Preempt: lazy
rt-amd64.dmesg	RCU priority boosting: priority 1 delay 500 ms.
rt-amd64.dmesg	RCU_SOFTIRQ processing moved to rcuc kthreads.
EOF

# The broken builds' reports: LOG<tab>what was broken<tab>its first report.
while IFS='	' read -r f what line; do
	got=$(dmesg_reports "$data/$f" | head -n 1)
	check_eq "$f ($what): found" "$got" "$line" "matched '$got'"
done <<'EOF'
rt-sleep-under-ptl-amd64.dmesg	msleep under the PTE lock, which holds RCU on RT	WARNING: CPU: 0 PID: 251 at kernel/rcu/tree_plugin.h:331 rcu_note_context_switch+0x5ad/0x630
rt-sleep-under-ptl-arm64.dmesg	the same on arm64	WARNING: CPU: 0 PID: 249 at kernel/rcu/tree_plugin.h:331 rcu_note_context_switch+0x508/0x570
rt-ptl-in-atomic-amd64.dmesg	the PTE lock under preempt_disable, contended	BUG: scheduling while atomic: exmap-mini/993/0x00000002
rtdebug-ptl-in-atomic-amd64.dmesg	the same, with DEBUG_ATOMIC_SLEEP	BUG: sleeping function called from invalid context at kernel/locking/spinlock_rt.c:48
EOF

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
[    0.000000] Linux version 6.12.117+deb13-rt-amd64 #1 SMP PREEMPT_RT Debian 6.12.117-1 (2026-11-12)
[   12.345678] sched: RT throttling activated
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
UBSAN	UBSAN: shift-out-of-bounds in kmod/frames.c:66:44
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
sleep in atomic (RT: a sleeping spinlock)	BUG: sleeping function called from invalid context at kernel/locking/spinlock_rt.c:48
scheduling while atomic	BUG: scheduling while atomic: churn/93/0x00000002
invalid wait context (lockdep, RT's lock nesting)	[ BUG: Invalid wait context ]
RCU: a voluntary switch in a read-side section	WARNING: CPU: 0 PID: 251 at kernel/rcu/tree_plugin.h:331 rcu_note_context_switch+0x5ad/0x630
oops (RT)	Oops: 0002 [#1] PREEMPT_RT SMP NOPTI
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
