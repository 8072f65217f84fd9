/* fmt_test's cases: src/'s formats that begin with a space, punctuation or XM. */
#include "fmt_test.h"

void src_rows(void)
{
	T("  %-12s %8llx %016llx %8llx %8llx %s %llx\n", "", 0ull, 0ull, 0ull, 0ull, "", 0ull);
	T("  %-12s %8llx %016llx %8llx %8llx %s %llx\n", LONG, U64MAX, U64MAX, U64MAX, U64MAX,
	  LONG, U64MAX);
	T("  %-12s %8llx %016llx %8llx %8llx %s %llx\n", "a", 4294967295ull, 4294967296ull,
	  10000000000000000000ull, 0x123456789abcdef0ull, LONG, 0ull);
	T("  %016llx %8llu %-7s %-6s %-12.12s %s\n", 0ull, 0ull, "", "", "", "");
	T("  %016llx %8llu %-7s %-6s %-12.12s %s\n", U64MAX, U64MAX, LONG, LONG, LONG, LONG);
	T("  %016llx %8llu %-7s %-6s %-12.12s %s\n", 1ull, 4294967295ull, "x y", "[heap]", "",
	  LONG);
	T("  %s%s", "", "");
	T("  %s%s", LONG, LONG);
	T("  %s%s", "a", "/usr/lib/libc.so.6");
	T("  [%2u] %-18.18s %-12.12s %016llx %8llx %8llx %s\n", 0u, "", "", 0ull, 0ull, 0ull, "");
	T("  [%2u] %-18.18s %-12.12s %016llx %8llx %8llx %s\n", UINT_MAX, LONG, LONG, U64MAX,
	  U64MAX, U64MAX, LONG);
	T("  [%2u] %-18.18s %-12.12s %016llx %8llx %8llx %s\n", 1u, "/usr/lib/libc.so.6", "x y",
	  10000000000000000000ull, 0x123456789abcdef0ull, 4096ull, "a");
	T(" %*s", 0, "");
	T(" %*s", 40, LONG);
	T(" %*s", -9, "/usr/lib/libc.so.6");
	T(" %3u>%-2u", 0u, 0u);
	T(" %3u>%-2u", UINT_MAX, UINT_MAX);
	T(" %3u>%-2u", 1u, 0x80000000u);
	T(" %5u ", 0u);
	T(" %5u ", UINT_MAX);
	T(" %5u ", 1u);
	T(" %c%x", 'a', 0u);
	T(" %c%x", '~', UINT_MAX);
	T(" %c%x", '/', 0x80000000u);
	T(" %c%x:%x", 'a', 0u, 0u);
	T(" %c%x:%x", '~', UINT_MAX, UINT_MAX);
	T(" %c%x:%x", '/', 0x80000000u, 123456789u);
	T(" %s\n", "");
	T(" %s\n", LONG);
	T(" %s\n", "a");
	T(" %x", 0u);
	T(" %x", UINT_MAX);
	T(" %x", 1u);
	T(" %x*%x", 0u, 0u);
	T(" %x*%x", UINT_MAX, UINT_MAX);
	T(" %x*%x", 1u, 0x80000000u);
	T(" but %u debug-only file%s (objcopy --only-keep-debug)", 0u, "");
	T(" but %u debug-only file%s (objcopy --only-keep-debug)", UINT_MAX, LONG);
	T(" but %u debug-only file%s (objcopy --only-keep-debug)", 1u, "/usr/lib/libc.so.6");
	T("%-*.*s", 0, 0, "");
	T("%-*.*s", 40, 100, LONG);
	T("%-*.*s", -9, 5, "x y");
	T("%-*s", 0, "");
	T("%-*s", 40, LONG);
	T("%-*s", -9, "/usr/lib/libc.so.6");
	T("%-*s PERM OFFSET ", 0, "");
	T("%-*s PERM OFFSET ", 40, LONG);
	T("%-*s PERM OFFSET ", -9, "/usr/lib/libc.so.6");
	T("%.*s/%s", 0, "", "");
	T("%.*s/%s", 100, LONG, LONG);
	T("%.*s/%s", -1, "/usr/lib/libc.so.6", "x y");
	T("%.*s/%s: longer than PATH_MAX (%d)", 0, "", "", 0);
	T("%.*s/%s: longer than PATH_MAX (%d)", 100, LONG, LONG, INT_MIN);
	T("%.*s/%s: longer than PATH_MAX (%d)", -1, "/usr/lib/libc.so.6", "x y", 42);
	T("%.40s %.40s %.60s", "", "", "");
	T("%.40s %.40s %.60s", LONG, LONG, LONG);
	T("%.40s %.40s %.60s", "a", "/usr/lib/libc.so.6", "x y");
	T("%0*llx %s %-7llx", 0, 0ull, "", 0ull);
	T("%0*llx %s %-7llx", 40, U64MAX, LONG, U64MAX);
	T("%0*llx %s %-7llx", -9, 4294967295ull, "x y", 10000000000000000000ull);
	T("%02x", 0u);
	T("%02x", UINT_MAX);
	T("%02x", 1u);
	T("%7d ", 0);
	T("%7d ", INT_MIN);
	T("%7d ", -1);
	T("%7s %-16s", "", "");
	T("%7s %-16s", LONG, LONG);
	T("%7s %-16s", "a", "/usr/lib/libc.so.6");
	T("%d", 0);
	T("%d", INT_MIN);
	T("%d", -1);
	T("%d,0x%llx,0x%llx,%s,%llu,%x:%x,%llu,", 0, 0ull, 0ull, "", 0ull, 0u, 0u, 0ull);
	T("%d,0x%llx,0x%llx,%s,%llu,%x:%x,%llu,", INT_MIN, U64MAX, U64MAX, LONG, U64MAX, UINT_MAX,
	  UINT_MAX, U64MAX);
	T("%d,0x%llx,0x%llx,%s,%llu,%x:%x,%llu,", -1, 4294967295ull, 4294967296ull, "[heap]",
	  0x123456789abcdef0ull, UINT_MAX, 1u, U64MAX);
	T("%llu", 0ull);
	T("%llu", U64MAX);
	T("%llu", 1ull);
	T("%s", "");
	T("%s", LONG);
	T("%s", "a");
	T("%s at offset %llu (%zu bytes) is past the end of the file (%llu bytes)", "", 0ull,
	  (size_t)0, 0ull);
	T("%s at offset %llu (%zu bytes) is past the end of the file (%llu bytes)", LONG, U64MAX,
	  SIZE_MAX, U64MAX);
	T("%s at offset %llu (%zu bytes) is past the end of the file (%llu bytes)", "a",
	  4294967295ull, (size_t)1000000, 10000000000000000000ull);
	T("%s does not show a page this process just wrote: is it running under an emulator such as qemu-user?",
	  "");
	T("%s does not show a page this process just wrote: is it running under an emulator such as qemu-user?",
	  LONG);
	T("%s does not show a page this process just wrote: is it running under an emulator such as qemu-user?",
	  "a");
	T("%s has build-id %s but only debug data (objcopy --only-keep-debug): not used; no other file under %s has it",
	  "", "", "");
	T("%s has build-id %s but only debug data (objcopy --only-keep-debug): not used; no other file under %s has it",
	  LONG, LONG, LONG);
	T("%s has build-id %s but only debug data (objcopy --only-keep-debug): not used; no other file under %s has it",
	  "a", "/usr/lib/libc.so.6", "x y");
	T("%s has build-id %s, the capture has %s: not used; no other file under %s has it", "",
	  "", "", "");
	T("%s has build-id %s, the capture has %s: not used; no other file under %s has it", LONG,
	  LONG, LONG, LONG);
	T("%s has build-id %s, the capture has %s: not used; no other file under %s has it", "a",
	  "/usr/lib/libc.so.6", "x y", "[heap]");
	T("%s has no build-id, the capture has %s: not used; no other file under %s has it", "",
	  "", "");
	T("%s has no build-id, the capture has %s: not used; no other file under %s has it", LONG,
	  LONG, LONG);
	T("%s has no build-id, the capture has %s: not used; no other file under %s has it", "a",
	  "/usr/lib/libc.so.6", "x y");
	T("%s has no symbol table (stripped)", "");
	T("%s has no symbol table (stripped)", LONG);
	T("%s has no symbol table (stripped)", "a");
	T("%s is not a regular file", "");
	T("%s is not a regular file", LONG);
	T("%s is not a regular file", "a");
	T("%s is not a regular file; no other file under %s has build-id %s", "", "", "");
	T("%s is not a regular file; no other file under %s has build-id %s", LONG, LONG, LONG);
	T("%s is not a regular file; no other file under %s has build-id %s", "a",
	  "/usr/lib/libc.so.6", "x y");
	T("%s matches more than one mapped file:\n  %s%s\n  %s%s", "", "", "", "", "");
	T("%s matches more than one mapped file:\n  %s%s\n  %s%s", LONG, LONG, LONG, LONG, LONG);
	T("%s matches more than one mapped file:\n  %s%s\n  %s%s", "a", "/usr/lib/libc.so.6",
	  "x y", "[heap]", "");
	T("%s of %zu bytes is larger than the %zu-byte read window", "", (size_t)0, (size_t)0);
	T("%s of %zu bytes is larger than the %zu-byte read window", LONG, SIZE_MAX, SIZE_MAX);
	T("%s of %zu bytes is larger than the %zu-byte read window", "a", (size_t)4096,
	  (size_t)1000000);
	T("%s%s", "", "");
	T("%s%s", LONG, LONG);
	T("%s%s", "a", "/usr/lib/libc.so.6");
	T("%s%s%s", "", "", "");
	T("%s%s%s", LONG, LONG, LONG);
	T("%s%s%s", "a", "/usr/lib/libc.so.6", "x y");
	T("%s,%llu,", "", 0ull);
	T("%s,%llu,", LONG, U64MAX);
	T("%s,%llu,", "a", 4294967295ull);
	T("%s: ", "");
	T("%s: ", LONG);
	T("%s: ", "a");
	T("%s: %llu capture lines after its end line are ignored (another capture whose begin line is damaged?)",
	  "", 0ull);
	T("%s: %llu capture lines after its end line are ignored (another capture whose begin line is damaged?)",
	  LONG, U64MAX);
	T("%s: %llu capture lines after its end line are ignored (another capture whose begin line is damaged?)",
	  "a", 4294967295ull);
	T("%s: %llu entries of %llu bytes at offset %llu do not fit in the file (%llu bytes)", "",
	  0ull, 0ull, 0ull, 0ull);
	T("%s: %llu entries of %llu bytes at offset %llu do not fit in the file (%llu bytes)",
	  LONG, U64MAX, U64MAX, U64MAX, U64MAX);
	T("%s: %llu entries of %llu bytes at offset %llu do not fit in the file (%llu bytes)", "a",
	  4294967295ull, 4294967296ull, 10000000000000000000ull, 0x123456789abcdef0ull);
	T("%s: %s", "", "");
	T("%s: %s", LONG, LONG);
	T("%s: %s", "a", "/usr/lib/libc.so.6");
	T("%s: %s; no other file under %s has build-id %s", "", "", "", "");
	T("%s: %s; no other file under %s has build-id %s", LONG, LONG, LONG, LONG);
	T("%s: %s; no other file under %s has build-id %s", "a", "/usr/lib/libc.so.6", "x y",
	  "[heap]");
	T("%s: %u of %u chunks lost; %u of %u processes loaded", "", 0u, 0u, 0u, 0u);
	T("%s: %u of %u chunks lost; %u of %u processes loaded", LONG, UINT_MAX, UINT_MAX,
	  UINT_MAX, UINT_MAX);
	T("%s: %u of %u chunks lost; %u of %u processes loaded", "a", 0x80000000u, 123456789u, 9u,
	  0u);
	T("%s: %u process%s left out: figures are partial", "", 0u, "");
	T("%s: %u process%s left out: figures are partial", LONG, UINT_MAX, LONG);
	T("%s: %u process%s left out: figures are partial", "a", 0x80000000u, "x y");
	T("%s: %zu of %zu processes read; reading pid %d (%.20s)", "", (size_t)0, (size_t)0, 0, "");
	T("%s: %zu of %zu processes read; reading pid %d (%.20s)", LONG, SIZE_MAX, SIZE_MAX,
	  INT_MIN, LONG);
	T("%s: %zu of %zu processes read; reading pid %d (%.20s)", "a", (size_t)4096,
	  (size_t)1000000, 42, "");
	T("%s: ELF%d %s-endian %s, type %u, %llu bytes\n", "", 0, "", "", 0u, 0ull);
	T("%s: ELF%d %s-endian %s, type %u, %llu bytes\n", LONG, INT_MIN, LONG, LONG, UINT_MAX,
	  U64MAX);
	T("%s: ELF%d %s-endian %s, type %u, %llu bytes\n", "a", 1, "x y", "[heap]", 0u, 4096ull);
	T("%s: a capture in format v%d: this exmap-mini reads v%d", "", 0, 0);
	T("%s: a capture in format v%d: this exmap-mini reads v%d", LONG, INT_MIN, INT_MIN);
	T("%s: a capture in format v%d: this exmap-mini reads v%d", "a", 1, INT_MAX);
	T("%s: ambiguous: give the whole path (add \" (deleted)\" for a deleted one)", "");
	T("%s: ambiguous: give the whole path (add \" (deleted)\" for a deleted one)", LONG);
	T("%s: ambiguous: give the whole path (add \" (deleted)\" for a deleted one)", "a");
	T("%s: as pid %d maps it: %s: left out", "", 0, "");
	T("%s: as pid %d maps it: %s: left out", LONG, INT_MIN, LONG);
	T("%s: as pid %d maps it: %s: left out", "a", 1, "x y");
	T("%s: cannot read it again", "");
	T("%s: cannot read it again", LONG);
	T("%s: cannot read it again", "a");
	T("%s: cannot read our own pages", "");
	T("%s: cannot read our own pages", LONG);
	T("%s: cannot read our own pages", "a");
	T("%s: chunk %u appears twice: the first copy is kept", "", 0u);
	T("%s: chunk %u appears twice: the first copy is kept", LONG, UINT_MAX);
	T("%s: chunk %u appears twice: the first copy is kept", "a", 0x80000000u);
	T("%s: chunk %u of %u (%s), log lines %llu-%llu: %s%s: %s", "", 0u, 0u, "", 0ull, 0ull, "",
	  "", "");
	T("%s: chunk %u of %u (%s), log lines %llu-%llu: %s%s: %s", LONG, UINT_MAX, UINT_MAX, LONG,
	  U64MAX, U64MAX, LONG, LONG, LONG);
	T("%s: chunk %u of %u (%s), log lines %llu-%llu: %s%s: %s", "a", 0x80000000u, 123456789u,
	  "[heap]", 0x123456789abcdef0ull, 4096ull, "a", "/usr/lib/libc.so.6", "x y");
	T("%s: chunk %u of %u (%s): missing from the log: %s", "", 0u, 0u, "", "");
	T("%s: chunk %u of %u (%s): missing from the log: %s", LONG, UINT_MAX, UINT_MAX, LONG,
	  LONG);
	T("%s: chunk %u of %u (%s): missing from the log: %s", "a", 0x80000000u, 123456789u,
	  "[heap]", "");
	T("%s: chunks %u-%u of %u (processes): missing from the log: those processes are left out of every view",
	  "", 0u, 0u, 0u);
	T("%s: chunks %u-%u of %u (processes): missing from the log: those processes are left out of every view",
	  LONG, UINT_MAX, UINT_MAX, UINT_MAX);
	T("%s: chunks %u-%u of %u (processes): missing from the log: those processes are left out of every view",
	  "a", 0x80000000u, 123456789u, 9u);
	T("%s: chunks %u-%u of %u (share counts): missing from the log: %s", "", 0u, 0u, 0u, "");
	T("%s: chunks %u-%u of %u (share counts): missing from the log: %s", LONG, UINT_MAX,
	  UINT_MAX, UINT_MAX, LONG);
	T("%s: chunks %u-%u of %u (share counts): missing from the log: %s", "a", 0x80000000u,
	  123456789u, 9u, "");
	T("%s: from %s, whose build-id matches", "", "");
	T("%s: from %s, whose build-id matches", LONG, LONG);
	T("%s: from %s, whose build-id matches", "a", "/usr/lib/libc.so.6");
	T("%s: holds %u captures: the last (line %llu) is loaded", "", 0u, 0ull);
	T("%s: holds %u captures: the last (line %llu) is loaded", LONG, UINT_MAX, U64MAX);
	T("%s: holds %u captures: the last (line %llu) is loaded", "a", 0x80000000u, 4294967296ull);
	T("%s: inconsistent capture: page %u has a share count of %u, but the processes map it %u times",
	  "", 0u, 0u, 0u);
	T("%s: inconsistent capture: page %u has a share count of %u, but the processes map it %u times",
	  LONG, UINT_MAX, UINT_MAX, UINT_MAX);
	T("%s: inconsistent capture: page %u has a share count of %u, but the processes map it %u times",
	  "a", 0x80000000u, 123456789u, 9u);
	T("%s: line %llu: a damaged capture line: ignored (its chunk will miss it)", "", 0ull);
	T("%s: line %llu: a damaged capture line: ignored (its chunk will miss it)", LONG, U64MAX);
	T("%s: line %llu: a damaged capture line: ignored (its chunk will miss it)", "a",
	  4294967295ull);
	T("%s: log lines %llu-%llu name chunk %u, which loaded whole: ignored (%s)", "", 0ull,
	  0ull, 0u, "");
	T("%s: log lines %llu-%llu name chunk %u, which loaded whole: ignored (%s)", LONG, U64MAX,
	  U64MAX, UINT_MAX, LONG);
	T("%s: log lines %llu-%llu name chunk %u, which loaded whole: ignored (%s)", "a",
	  4294967295ull, 4294967296ull, 9u, "");
	T("%s: no capture in it (no \"XM begin\" line): take one with exmap-mini dump", "");
	T("%s: no capture in it (no \"XM begin\" line): take one with exmap-mini dump", LONG);
	T("%s: no capture in it (no \"XM begin\" line): take one with exmap-mini dump", "a");
	T("%s: no scanned process could be read", "");
	T("%s: no scanned process could be read", LONG);
	T("%s: no scanned process could be read", "a");
	T("%s: no scanned process maps such a file", "");
	T("%s: no scanned process maps such a file", LONG);
	T("%s: no scanned process maps such a file", "a");
	T("%s: not a regular file", "");
	T("%s: not a regular file", LONG);
	T("%s: not a regular file", "a");
	T("%s: not a regular file (a capture is read twice)", "");
	T("%s: not a regular file (a capture is read twice)", LONG);
	T("%s: not a regular file (a capture is read twice)", "a");
	T("%s: page frame numbers are for root only: run exmap-mini as root (reading them needs CAP_SYS_ADMIN)",
	  "");
	T("%s: page frame numbers are for root only: run exmap-mini as root (reading them needs CAP_SYS_ADMIN)",
	  LONG);
	T("%s: page frame numbers are for root only: run exmap-mini as root (reading them needs CAP_SYS_ADMIN)",
	  "a");
	T("%s: pid %d exited before its mappings could be read: left out", "", 0);
	T("%s: pid %d exited before its mappings could be read: left out", LONG, INT_MIN);
	T("%s: pid %d exited before its mappings could be read: left out", "a", 1);
	T("%s: pid %d maps it unlike its program headers or build-id say (changed since it was mapped?): left out",
	  "", 0);
	T("%s: pid %d maps it unlike its program headers or build-id say (changed since it was mapped?): left out",
	  LONG, INT_MIN);
	T("%s: pid %d maps it unlike its program headers or build-id say (changed since it was mapped?): left out",
	  "a", 1);
	T("%s: pid %d uses pages whose share counts are lost: left out", "", 0);
	T("%s: pid %d uses pages whose share counts are lost: left out", LONG, INT_MIN);
	T("%s: pid %d uses pages whose share counts are lost: left out", "a", 1);
	T("%s: read error", "");
	T("%s: read error", LONG);
	T("%s: read error", "a");
	T("%s: the capture declares %u chunks, more than %llu bytes can hold", "", 0u, 0ull);
	T("%s: the capture declares %u chunks, more than %llu bytes can hold", LONG, UINT_MAX,
	  U64MAX);
	T("%s: the capture declares %u chunks, more than %llu bytes can hold", "a", 0x80000000u,
	  4294967296ull);
	T("%s: the capture has no build-id for it: %s is used on its path alone", "", "");
	T("%s: the capture has no build-id for it: %s is used on its path alone", LONG, LONG);
	T("%s: the capture has no build-id for it: %s is used on its path alone", "a",
	  "/usr/lib/libc.so.6");
	T("%s: the capture's begin and end lines are both damaged or missing: its parameters are lost",
	  "");
	T("%s: the capture's begin and end lines are both damaged or missing: its parameters are lost",
	  LONG);
	T("%s: the capture's begin and end lines are both damaged or missing: its parameters are lost",
	  "a");
	T("%s: the capture's begin and end lines disagree (two captures mixed?)", "");
	T("%s: the capture's begin and end lines disagree (two captures mixed?)", LONG);
	T("%s: the capture's begin and end lines disagree (two captures mixed?)", "a");
	T("%s: the capture's begin line is damaged: its end line stands in", "");
	T("%s: the capture's begin line is damaged: its end line stands in", LONG);
	T("%s: the capture's begin line is damaged: its end line stands in", "a");
	T("%s: the capture's build-ids were lost (see above): the file cannot be checked, so it is not used",
	  "");
	T("%s: the capture's build-ids were lost (see above): the file cannot be checked, so it is not used",
	  LONG);
	T("%s: the capture's build-ids were lost (see above): the file cannot be checked, so it is not used",
	  "a");
	T("%s: the log ends before the capture's end line: cut short?", "");
	T("%s: the log ends before the capture's end line: cut short?", LONG);
	T("%s: the log ends before the capture's end line: cut short?", "a");
	T("%s: the path is longer than the %zu bytes it is given", "", (size_t)0);
	T("%s: the path is longer than the %zu bytes it is given", LONG, SIZE_MAX);
	T("%s: the path is longer than the %zu bytes it is given", "a", (size_t)4096);
	T("%u process%s", 0u, "");
	T("%u process%s", UINT_MAX, LONG);
	T("%u process%s", 1u, "/usr/lib/libc.so.6");
	T("%u process%s could not be read: figures are partial", 0u, "");
	T("%u process%s could not be read: figures are partial", UINT_MAX, LONG);
	T("%u process%s could not be read: figures are partial", 1u, "/usr/lib/libc.so.6");
	T("%u process%s could not be read: the capture leaves %s out", 0u, "", "");
	T("%u process%s could not be read: the capture leaves %s out", UINT_MAX, LONG, LONG);
	T("%u process%s could not be read: the capture leaves %s out", 1u, "/usr/lib/libc.so.6",
	  "x y");
	T("%u%c", 0u, 'a');
	T("%u%c", UINT_MAX, '~');
	T("%u%c", 1u, 'Z');
	T("%u.%u%c", 0u, 0u, 'a');
	T("%u.%u%c", UINT_MAX, UINT_MAX, '~');
	T("%u.%u%c", 1u, 0x80000000u, 'a');
	T("%uB", 0u);
	T("%uB", UINT_MAX);
	T("%uB", 1u);
	T(",%d,%d\n", 0, 0);
	T(",%d,%d\n", INT_MIN, INT_MIN);
	T(",%d,%d\n", -1, 1);
	T(",%d\n", 0);
	T(",%d\n", INT_MIN);
	T(",%d\n", -1);
	T(",%lld", 0ll);
	T(",%lld", I64MIN);
	T(",%lld", -1ll);
	T(",%s", "");
	T(",%s", LONG);
	T(",%s", "a");
	T(",%s,0x%llx,%s,%llu,%s,%s,%s,%s,", "", 0ull, "", 0ull, "", "", "", "");
	T(",%s,0x%llx,%s,%llu,%s,%s,%s,%s,", LONG, U64MAX, LONG, U64MAX, LONG, LONG, LONG, LONG);
	T(",%s,0x%llx,%s,%llu,%s,%s,%s,%s,", "a", 4294967295ull, "x y", 10000000000000000000ull,
	  "", LONG, "a", "/usr/lib/libc.so.6");
	T(",%s\n", "");
	T(",%s\n", LONG);
	T(",%s\n", "a");
	T(",%u", 0u);
	T(",%u", UINT_MAX);
	T(",%u", 1u);
	T(",%u,%u", 0u, 0u);
	T(",%u,%u", UINT_MAX, UINT_MAX);
	T(",%u,%u", 1u, 0x80000000u);
	T(",0x%llx,%llu", 0ull, 0ull);
	T(",0x%llx,%llu", U64MAX, U64MAX);
	T(",0x%llx,%llu", 1ull, 4294967295ull);
	T("--budget: checked on a scan or a capture, not with the %s view", "");
	T("--budget: checked on a scan or a capture, not with the %s view", LONG);
	T("--budget: checked on a scan or a capture, not with the %s view", "a");
	T("--budget: more than %d budgets", 0);
	T("--budget: more than %d budgets", INT_MIN);
	T("--budget: more than %d budgets", -1);
	T("--budget: not NAME=SIZE (SIZE in bytes, or with K, M, G): %s", "");
	T("--budget: not NAME=SIZE (SIZE in bytes, or with K, M, G): %s", LONG);
	T("--budget: not NAME=SIZE (SIZE in bytes, or with K, M, G): %s", "a");
	T("-S: a sysroot is for a capture's files: give -l too");
	T("-b kmod: /proc/exmap-mini does not exist: load the module (insmod exmap_mini.ko; see kmod/README.md)");
	T("-b, -p and -t shape a scan; a capture was shaped when it was taken");
	T("-b: not auto, kmod or pagemap: %s", "");
	T("-b: not auto, kmod or pagemap: %s", LONG);
	T("-b: not auto, kmod or pagemap: %s", "a");
	T("-l: not with the %s view", "");
	T("-l: not with the %s view", LONG);
	T("-l: not with the %s view", "a");
	T("-m: not a size of at least 1M: %s", "");
	T("-m: not a size of at least 1M: %s", LONG);
	T("-m: not a size of at least 1M: %s", "a");
	T("-n: not a row count from 1: %s", "");
	T("-n: not a row count from 1: %s", LONG);
	T("-n: not a row count from 1: %s", "a");
	T("-p: bad pid list: %s", "");
	T("-p: bad pid list: %s", LONG);
	T("-p: bad pid list: %s", "a");
	T("-p: bad pid: %s", "");
	T("-p: bad pid: %s", LONG);
	T("-p: bad pid: %s", "a");
	T("-p: more than %d pids: scan every process (no -p) instead", 0);
	T("-p: more than %d pids: scan every process (no -p) instead", INT_MIN);
	T("-p: more than %d pids: scan every process (no -p) instead", -1);
	T("-s: %s is not a field of this view", "");
	T("-s: %s is not a field of this view", LONG);
	T("-s: %s is not a field of this view", "a");
	T("-t: not a page count from 1 to %u: %s", 0u, "");
	T("-t: not a page count from 1 to %u: %s", UINT_MAX, LONG);
	T("-t: not a page count from 1 to %u: %s", 1u, "/usr/lib/libc.so.6");
	T("/proc/%d", 0);
	T("/proc/%d", INT_MIN);
	T("/proc/%d", -1);
	T("/proc/self/fd/%d", 0);
	T("/proc/self/fd/%d", INT_MIN);
	T("/proc/self/fd/%d", -1);
	T("0");
	T("0x%x", 0u);
	T("0x%x", UINT_MAX);
	T("0x%x", 1u);
	T(": %s", "");
	T(": %s", LONG);
	T(": %s", "a");
	T(": %u of its %u arrived", 0u, 0u);
	T(": %u of its %u arrived", UINT_MAX, UINT_MAX);
	T(": %u of its %u arrived", 1u, 0x80000000u);
	T("; %u director%s more than SYSROOT_DEPTH_MAX (%d) levels under %s not searched", 0u, "",
	  0, "");
	T("; %u director%s more than SYSROOT_DEPTH_MAX (%d) levels under %s not searched",
	  UINT_MAX, LONG, INT_MIN, LONG);
	T("; %u director%s more than SYSROOT_DEPTH_MAX (%d) levels under %s not searched", 1u,
	  "/usr/lib/libc.so.6", INT_MAX, "[heap]");
	T("; %u director%s under %s could not be read", 0u, "", "");
	T("; %u director%s under %s could not be read", UINT_MAX, LONG, LONG);
	T("; %u director%s under %s could not be read", 1u, "/usr/lib/libc.so.6", "x y");
	T("; %u file%s under %s could not be opened", 0u, "", "");
	T("; %u file%s under %s could not be opened", UINT_MAX, LONG, LONG);
	T("; %u file%s under %s could not be opened", 1u, "/usr/lib/libc.so.6", "x y");
	T("; %u mount point%s under %s not searched (other filesystems)", 0u, "", "");
	T("; %u mount point%s under %s not searched (other filesystems)", UINT_MAX, LONG, LONG);
	T("; %u mount point%s under %s not searched (other filesystems)", 1u, "/usr/lib/libc.so.6",
	  "x y");
	T("; %u path%s longer than PATH_MAX (%d) under %s not searched", 0u, "", 0, "");
	T("; %u path%s longer than PATH_MAX (%d) under %s not searched", UINT_MAX, LONG, INT_MIN,
	  LONG);
	T("; %u path%s longer than PATH_MAX (%d) under %s not searched", 1u, "/usr/lib/libc.so.6",
	  INT_MAX, "[heap]");
	T("; line %llu does not parse", 0ull);
	T("; line %llu does not parse", U64MAX);
	T("; line %llu does not parse", 1ull);
	T("; the capture has no build-id to look further with");
	T("XM %u ", 0u);
	T("XM %u ", UINT_MAX);
	T("XM %u ", 1u);
	T("XM %u . %u %08x %s\n", 0u, 0u, 0u, "");
	T("XM %u . %u %08x %s\n", UINT_MAX, UINT_MAX, UINT_MAX, LONG);
	T("XM %u . %u %08x %s\n", 1u, 0x80000000u, 123456789u, "[heap]");
	T("XM begin %s crc=%08x\n", "", 0u);
	T("XM begin %s crc=%08x\n", LONG, UINT_MAX);
	T("XM begin %s crc=%08x\n", "a", 0x80000000u);
	T("XM end %s crc=%08x\n", "", 0u);
	T("XM end %s crc=%08x\n", LONG, UINT_MAX);
	T("XM end %s crc=%08x\n", "a", 0x80000000u);
	T("[%u]", 0u);
	T("[%u]", UINT_MAX);
	T("[%u]", 1u);
	T("\r%s\033[K", "");
	T("\r%s\033[K", LONG);
	T("\r%s\033[K", "a");
}
