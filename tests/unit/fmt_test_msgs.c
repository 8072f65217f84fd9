/* fmt_test's cases: src/'s formats that begin with a word (messages, mostly). */
#include "fmt_test.h"

void src_msgs(void)
{
	T("a PT_LOAD segment has impossible sizes");
	T("a process");
	T("arena full: %zu MiB in use, %zu more bytes needed; raise it with -m SIZE", (size_t)0,
	  (size_t)0);
	T("arena full: %zu MiB in use, %zu more bytes needed; raise it with -m SIZE", SIZE_MAX,
	  SIZE_MAX);
	T("arena full: %zu MiB in use, %zu more bytes needed; raise it with -m SIZE", (size_t)1,
	  (size_t)4096);
	T("b %x %llx %x ", 0u, 0ull, 0u);
	T("b %x %llx %x ", UINT_MAX, U64MAX, UINT_MAX);
	T("b %x %llx %x ", 1u, 4294967295ull, 123456789u);
	T("bad ELF class %u", 0u);
	T("bad ELF class %u", UINT_MAX);
	T("bad ELF class %u", 1u);
	T("bad ELF data encoding %u", 0u);
	T("bad ELF data encoding %u", UINT_MAX);
	T("bad ELF data encoding %u", 1u);
	T("bad ELF version %u", 0u);
	T("bad ELF version %u", UINT_MAX);
	T("bad ELF version %u", 1u);
	T("bad program header size %u", 0u);
	T("bad program header size %u", UINT_MAX);
	T("bad program header size %u", 1u);
	T("bad section header size %u", 0u);
	T("bad section header size %u", UINT_MAX);
	T("bad section header size %u", 1u);
	T("budget %s exceeded: eff_resident is %llu bytes, the budget %llu", "", 0ull, 0ull);
	T("budget %s exceeded: eff_resident is %llu bytes, the budget %llu", LONG, U64MAX, U64MAX);
	T("budget %s exceeded: eff_resident is %llu bytes, the budget %llu", "a", 4294967295ull,
	  4294967296ull);
	T("budget %s: eff_resident %s of %s: %s\n", "", "", "", "");
	T("budget %s: eff_resident %s of %s: %s\n", LONG, LONG, LONG, LONG);
	T("budget %s: eff_resident %s of %s: %s\n", "a", "/usr/lib/libc.so.6", "x y", "[heap]");
	T("budget %s: no %s of that name was scanned: not checked", "", "");
	T("budget %s: no %s of that name was scanned: not checked", LONG, LONG);
	T("budget %s: no %s of that name was scanned: not checked", "a", "/usr/lib/libc.so.6");
	T("budget %s: no %s of that name: not checked\n", "", "");
	T("budget %s: no %s of that name: not checked\n", LONG, LONG);
	T("budget %s: no %s of that name: not checked\n", "a", "/usr/lib/libc.so.6");
	T("build-id of %llu bytes", 0ull);
	T("build-id of %llu bytes", U64MAX);
	T("build-id of %llu bytes", 1ull);
	T("build-id: %s\n", "");
	T("build-id: %s\n", LONG);
	T("build-id: %s\n", "a");
	T("build-ids");
	T("c %x %x", 0u, 0u);
	T("c %x %x", UINT_MAX, UINT_MAX);
	T("c %x %x", 1u, 0x80000000u);
	T("cannot commit %zu MiB more of the arena", (size_t)0);
	T("cannot commit %zu MiB more of the arena", SIZE_MAX);
	T("cannot commit %zu MiB more of the arena", (size_t)1);
	T("cannot list /proc");
	T("cannot read /proc/meminfo");
	T("cannot reserve an arena of %llu MiB: cap it with -m SIZE", 0ull);
	T("cannot reserve an arena of %llu MiB: cap it with -m SIZE", U64MAX);
	T("cannot reserve an arena of %llu MiB: cap it with -m SIZE", 1ull);
	T("check: eff_mapped total = %llu distinct pages x %llu B: %s\n", 0ull, 0ull, "");
	T("check: eff_mapped total = %llu distinct pages x %llu B: %s\n", U64MAX, U64MAX, LONG);
	T("check: eff_mapped total = %llu distinct pages x %llu B: %s\n", 1ull, 4294967295ull,
	  "x y");
	T("check: not made: %u process%s of the capture did not load\n", 0u, "");
	T("check: not made: %u process%s of the capture did not load\n", UINT_MAX, LONG);
	T("check: not made: %u process%s of the capture did not load\n", 1u, "/usr/lib/libc.so.6");
	T("extended section index table %u is too short or past the end of the file", 0u);
	T("extended section index table %u is too short or past the end of the file", UINT_MAX);
	T("extended section index table %u is too short or past the end of the file", 1u);
	T("ids=%x-%x", 0u, 0u);
	T("ids=%x-%x", UINT_MAX, UINT_MAX);
	T("ids=%x-%x", 1u, 0x80000000u);
	T("internal: capture field too long");
	T("internal: capture field too long to escape");
	T("internal: capture line too long");
	T("internal: formatted line longer than %zu bytes", (size_t)0);
	T("internal: formatted line longer than %zu bytes", SIZE_MAX);
	T("internal: formatted line longer than %zu bytes", (size_t)1);
	T("kmod: /proc/exmap-mini speaks another version of the protocol: load the exmap_mini.ko built with this exmap-mini");
	T("m %llx %llx %s %llx %x %llx %x ", 0ull, 0ull, "", 0ull, 0u, 0ull, 0u);
	T("m %llx %llx %s %llx %x %llx %x ", U64MAX, U64MAX, LONG, U64MAX, UINT_MAX, U64MAX,
	  UINT_MAX);
	T("m %llx %llx %s %llx %x %llx %x ", 1ull, 4294967295ull, "x y", 10000000000000000000ull,
	  0u, 4096ull, 1u);
	T("map_files/%llx-%llx", 0ull, 0ull);
	T("map_files/%llx-%llx", U64MAX, U64MAX);
	T("map_files/%llx-%llx", 1ull, 4294967295ull);
	T("maps: not a pid: %s", "");
	T("maps: not a pid: %s", LONG);
	T("maps: not a pid: %s", "a");
	T("maps: pid %d is not in the capture (or its chunk was lost)", 0);
	T("maps: pid %d is not in the capture (or its chunk was lost)", INT_MIN);
	T("maps: pid %d is not in the capture (or its chunk was lost)", -1);
	T("maps: pid %d was not scanned (it exited, or -p left it out)", 0);
	T("maps: pid %d was not scanned (it exited, or -p left it out)", INT_MIN);
	T("maps: pid %d was not scanned (it exited, or -p left it out)", -1);
	T("no file under %s has build-id %s", "", "");
	T("no file under %s has build-id %s", LONG, LONG);
	T("no file under %s has build-id %s", "a", "/usr/lib/libc.so.6");
	T("no page source: this kernel has no /proc/PID/pagemap (CONFIG_PROC_PAGE_MONITOR is off) and the exmap-mini module is not loaded: build it (make kmod KDIR=...) and insmod exmap_mini.ko");
	T("no user memory: %u process%s (kernel threads, zombies)\n", 0u, "");
	T("no user memory: %u process%s (kernel threads, zombies)\n", UINT_MAX, LONG);
	T("no user memory: %u process%s (kernel threads, zombies)\n", 1u, "/usr/lib/libc.so.6");
	T("not an ELF file");
	T("not an ELF file (bad magic)");
	T("note area at offset %llu lies past the end of the file", 0ull);
	T("note area at offset %llu lies past the end of the file", U64MAX);
	T("note area at offset %llu lies past the end of the file", 1ull);
	T("note at offset %llu runs past its area", 0ull);
	T("note at offset %llu runs past its area", U64MAX);
	T("note at offset %llu runs past its area", 1ull);
	T("output formatting failed");
	T("p %d %x ", 0, 0u);
	T("p %d %x ", INT_MIN, UINT_MAX);
	T("p %d %x ", -1, 0x80000000u);
	T("page table full at %u blocks of %u pages (the shared pages are spread wide); raise it with -t PAGES",
	  0u, 0u);
	T("page table full at %u blocks of %u pages (the shared pages are spread wide); raise it with -t PAGES",
	  UINT_MAX, UINT_MAX);
	T("page table full at %u blocks of %u pages (the shared pages are spread wide); raise it with -t PAGES",
	  1u, 0x80000000u);
	T("page table full at %u distinct shared pages; raise it with -t PAGES", 0u);
	T("page table full at %u distinct shared pages; raise it with -t PAGES", UINT_MAX);
	T("page table full at %u distinct shared pages; raise it with -t PAGES", 1u);
	T("page table of %u blocks of pages is too large for this build; lower -t", 0u);
	T("page table of %u blocks of pages is too large for this build; lower -t", UINT_MAX);
	T("page table of %u blocks of pages is too large for this build; lower -t", 1u);
	T("pagemap reads page frame number 0: pfns are hidden from this user; run exmap-mini as root");
	T("pid %d", 0);
	T("pid %d", INT_MIN);
	T("pid %d", -1);
	T("pid %d: %s", 0, "");
	T("pid %d: %s", INT_MIN, LONG);
	T("pid %d: %s", -1, "/usr/lib/libc.so.6");
	T("pid %d: maps line %u is longer than %d bytes: its path is shown cut", 0, 0u, 0);
	T("pid %d: maps line %u is longer than %d bytes: its path is shown cut", INT_MIN, UINT_MAX,
	  INT_MIN);
	T("pid %d: maps line %u is longer than %d bytes: its path is shown cut", -1, 0x80000000u,
	  INT_MAX);
	T("pid %d: maps line %u is malformed: %.80s", 0, 0u, "");
	T("pid %d: maps line %u is malformed: %.80s", INT_MIN, UINT_MAX, LONG);
	T("pid %d: maps line %u is malformed: %.80s", -1, 0x80000000u, "x y");
	T("pid=%d", 0);
	T("pid=%d", INT_MIN);
	T("pid=%d", -1);
	T("program header index %u is out of range (%u headers)", 0u, 0u);
	T("program header index %u is out of range (%u headers)", UINT_MAX, UINT_MAX);
	T("program header index %u is out of range (%u headers)", 1u, 0x80000000u);
	T("reading %s: %s", "", "");
	T("reading %s: %s", LONG, LONG);
	T("reading %s: %s", "a", "/usr/lib/libc.so.6");
	T("reading %s: the file is shorter than when it was opened", "");
	T("reading %s: the file is shorter than when it was opened", LONG);
	T("reading %s: the file is shorter than when it was opened", "a");
	T("root%s", "");
	T("root%s", LONG);
	T("root%s", "a");
	T("section %s: address and size overflow", "");
	T("section %s: address and size overflow", LONG);
	T("section %s: address and size overflow", "a");
	T("section count %llu in section header 0 is too large", 0ull);
	T("section count %llu in section header 0 is too large", U64MAX);
	T("section count %llu in section header 0 is too large", 1ull);
	T("section index %u is out of range (%u sections)", 0u, 0u);
	T("section index %u is out of range (%u sections)", UINT_MAX, UINT_MAX);
	T("section index %u is out of range (%u sections)", 1u, 0x80000000u);
	T("section name table index %u is out of range (%u sections)", 0u, 0u);
	T("section name table index %u is out of range (%u sections)", UINT_MAX, UINT_MAX);
	T("section name table index %u is out of range (%u sections)", 1u, 0x80000000u);
	T("sections: %u\n  [Nr] %-18s %-12s %-16s %8s %8s FLAGS\n", 0u, "", "", "", "", "");
	T("sections: %u\n  [Nr] %-18s %-12s %-16s %8s %8s FLAGS\n", UINT_MAX, LONG, LONG, LONG,
	  LONG, LONG);
	T("sections: %u\n  [Nr] %-18s %-12s %-16s %8s %8s FLAGS\n", 1u, "/usr/lib/libc.so.6",
	  "x y", "[heap]", "", LONG);
	T("segments: %u\n  %-12s %8s %-16s %8s %8s FLG ALIGN\n", 0u, "", "", "", "", "");
	T("segments: %u\n  %-12s %8s %-16s %8s %8s FLG ALIGN\n", UINT_MAX, LONG, LONG, LONG, LONG,
	  LONG);
	T("segments: %u\n  %-12s %8s %-16s %8s %8s FLG ALIGN\n", 1u, "/usr/lib/libc.so.6", "x y",
	  "[heap]", "", LONG);
	T("self-check failed: eff_mapped total is off by %llu bytes", 0ull);
	T("self-check failed: eff_mapped total is off by %llu bytes", U64MAX);
	T("self-check failed: eff_mapped total is off by %llu bytes", 1ull);
	T("share counts of pages %u-%u", 0u, 0u);
	T("share counts of pages %u-%u", UINT_MAX, UINT_MAX);
	T("share counts of pages %u-%u", 1u, 0x80000000u);
	T("source: %s\n", "");
	T("source: %s\n", LONG);
	T("source: %s\n", "a");
	T("string at index %llu of section %u is not terminated", 0ull, 0u);
	T("string at index %llu of section %u is not terminated", U64MAX, UINT_MAX);
	T("string at index %llu of section %u is not terminated", 1ull, 0x80000000u);
	T("string index %llu is past its table's end (%llu bytes)", 0ull, 0ull);
	T("string index %llu is past its table's end (%llu bytes)", U64MAX, U64MAX);
	T("string index %llu is past its table's end (%llu bytes)", 1ull, 4294967295ull);
	T("string table section %u has type %u, not STRTAB", 0u, 0u);
	T("string table section %u has type %u, not STRTAB", UINT_MAX, UINT_MAX);
	T("string table section %u has type %u, not STRTAB", 1u, 0x80000000u);
	T("string table section %u lies past the end of the file", 0u);
	T("string table section %u lies past the end of the file", UINT_MAX);
	T("string table section %u lies past the end of the file", 1u);
	T("symbol %llu needs an extended section index, and there is no SYMTAB_SHNDX table", 0ull);
	T("symbol %llu needs an extended section index, and there is no SYMTAB_SHNDX table",
	  U64MAX);
	T("symbol %llu needs an extended section index, and there is no SYMTAB_SHNDX table", 1ull);
	T("symbol %llu: extended section index %u is out of range (%u sections)", 0ull, 0u, 0u);
	T("symbol %llu: extended section index %u is out of range (%u sections)", U64MAX, UINT_MAX,
	  UINT_MAX);
	T("symbol %llu: extended section index %u is out of range (%u sections)", 1ull,
	  0x80000000u, 123456789u);
	T("symbol %llu: section index %u is out of range", 0ull, 0u);
	T("symbol %llu: section index %u is out of range", U64MAX, UINT_MAX);
	T("symbol %llu: section index %u is out of range", 1ull, 0x80000000u);
	T("symbol %llu: value and size overflow", 0ull);
	T("symbol %llu: value and size overflow", U64MAX);
	T("symbol %llu: value and size overflow", 1ull);
	T("symbol index %llu is out of range", 0ull);
	T("symbol index %llu is out of range", U64MAX);
	T("symbol index %llu is out of range", 1ull);
	T("symbol table section %u lies past the end of the file", 0u);
	T("symbol table section %u lies past the end of the file", UINT_MAX);
	T("symbol table section %u lies past the end of the file", 1u);
	T("symbol table section %u links to section %u, not a string table", 0u, 0u);
	T("symbol table section %u links to section %u, not a string table", UINT_MAX, UINT_MAX);
	T("symbol table section %u links to section %u, not a string table", 1u, 0x80000000u);
	T("symbol table section %u: entry size %llu, not %u", 0u, 0ull, 0u);
	T("symbol table section %u: entry size %llu, not %u", UINT_MAX, U64MAX, UINT_MAX);
	T("symbol table section %u: entry size %llu, not %u", 1u, 4294967295ull, 123456789u);
	T("symbol table section %u: string table link %u is out of range", 0u, 0u);
	T("symbol table section %u: string table link %u is out of range", UINT_MAX, UINT_MAX);
	T("symbol table section %u: string table link %u is out of range", 1u, 0x80000000u);
	T("symbols (%s): %llu\n  %-16s %8s %-7s %-6s %-12s NAME\n", "", 0ull, "", "", "", "", "");
	T("symbols (%s): %llu\n  %-16s %8s %-7s %-6s %-12s NAME\n", LONG, U64MAX, LONG, LONG, LONG,
	  LONG, LONG);
	T("symbols (%s): %llu\n  %-16s %8s %-7s %-6s %-12s NAME\n", "a", 4294967295ull, "x y",
	  "[heap]", "", LONG, "a");
	T("the capture's build-id of %zu bytes is longer than ELF_BUILDID_MAX (%d)", (size_t)0, 0);
	T("the capture's build-id of %zu bytes is longer than ELF_BUILDID_MAX (%d)", SIZE_MAX,
	  INT_MIN);
	T("the capture's build-id of %zu bytes is longer than ELF_BUILDID_MAX (%d)", (size_t)1, 1);
	T("v%d ps=%llu chunks=%u ids=%u procs=%u vanished=%u empty=%u unreadable=%u id=%016llx src=%s uname=%s",
	  0, 0ull, 0u, 0u, 0u, 0u, 0u, 0u, 0ull, "", "");
	T("v%d ps=%llu chunks=%u ids=%u procs=%u vanished=%u empty=%u unreadable=%u id=%016llx src=%s uname=%s",
	  INT_MIN, U64MAX, UINT_MAX, UINT_MAX, UINT_MAX, UINT_MAX, UINT_MAX, UINT_MAX, U64MAX,
	  LONG, LONG);
	T("v%d ps=%llu chunks=%u ids=%u procs=%u vanished=%u empty=%u unreadable=%u id=%016llx src=%s uname=%s",
	  -1, 4294967295ull, 123456789u, 9u, 0u, UINT_MAX, 1u, 0x80000000u, 1ull, "[heap]", "");
	T("vanished: %u process%s exited before or while being read\n", 0u, "");
	T("vanished: %u process%s exited before or while being read\n", UINT_MAX, LONG);
	T("vanished: %u process%s exited before or while being read\n", 1u, "/usr/lib/libc.so.6");
	T("write error on standard output");
}
