# The kernel's reports of its own bugs, found in a guest's dmesg: sourced by
# tests/suites/kmod_test.sh and tests/suites/dmesg_test.sh (which checks it
# against recorded logs: clean runs of a lockdep and a PREEMPT_RT kernel, and
# RT's reports of broken builds of the module). Only reports count, in the
# kernel's own words and case: an oops, BUG and WARNING (lockdep's reports,
# KASAN's and KFENCE's, soft lockups and sleeping in atomic context start
# with one of these), UBSAN, a general protection fault, a hung task, an
# RCU stall, lockdep turning itself off, list or page corruption, and the
# module's own "walk stuck". PREEMPT_RT's are among them: a sleeping
# spinlock taken in atomic context ("sleeping function called from invalid
# context" at spinlock_rt.c, or "scheduling while atomic" when it was
# contended), RCU's WARNING of a voluntary context switch in a read-side
# section, lockdep's "Invalid wait context". Boot banners that name a
# checker ("RCU lockdep checking is enabled", "Lock dependency validator")
# or RT ("PREEMPT_RT", "RCU priority boosting") and ACPI's "Warning:"
# chatter are no reports.

dmesg_bad='Oops|BUG:|WARNING:|KASAN:|KFENCE:|UBSAN:|kernel BUG at|Unable to handle kernel'\
'|general protection fault|invalid opcode:|Kernel panic|possible circular locking'\
'|possible recursive locking|suspicious RCU usage|inconsistent lock state|bad unlock balance'\
'|held lock freed|DEBUG_LOCKS_WARN_ON|turning off the locking correctness validator|lockdep is turned off'\
'|blocked for more than|soft lockup|hard LOCKUP|self-detected stall|detected stalls on CPUs'\
'|list_add corruption|list_del corruption|Bad page state|Bad page map|Bad rss-counter'\
'|scheduling while atomic|sleeping function called from invalid context|Invalid wait context'\
'|exmap_mini: walk stuck'

# dmesg_reports FILE: print the report lines of a dmesg (or console log);
# status 0 when there is one (or FILE cannot be read: said so), 1 when none
dmesg_reports() {
	[ -r "$1" ] || { echo "$1: cannot read"; return 0; }
	grep -E "$dmesg_bad" "$1"
	[ $? -eq 0 ]
}

# dmesg_clean FILE: FILE holds a dmesg and no report in it (else says what
# is wrong: the first three reports, or that FILE is empty)
dmesg_clean() {
	[ -s "$1" ] || { echo "$1: empty or missing"; return 1; }
	_reports=$(dmesg_reports "$1") || return 0
	printf '%s\n' "$_reports" | head -n 3
	return 1
}
