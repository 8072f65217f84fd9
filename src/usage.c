/* exmap-mini -h: the usage text, written once. */
#include "exmap.h"

/* What this build does: a board's (LOAD=0, BROWSE=0, PICTURES=0) leaves out
 * the lines of what it leaves out (tests/suites/man_test.sh holds the whole
 * text, a host build's, to the manual and README). */
static const char usage_text[] =
"usage: exmap-mini [-ckq] [-b source] [-p pid[,pid...]] [-P pid[,pid...]]\n"
"                  [-F file] [-s field] [-n count] [-m size] [-t pages]\n"
"                  [-o file] [--pids] [--budget name=size]... [view]\n"
#ifndef EXMAP_NO_LOAD
"       exmap-mini -l capture [-ckq] [-S sysroot] [-P pid[,pid...]] [-F file]\n"
"                  [-s field] [-n count] [-m size] [-o file]\n"
"                  [--budget name=size]... [view]\n"
"       exmap-mini -l log [-cq] [-n count] captures\n"
"       exmap-mini -l log [-ckq] [-w duration] [-P name|pid] [-n count] [-m size]\n"
"                  [-o file] [--budget name=size[/h]]... trend|html\n"
"       exmap-mini [-ackq] [-s field] [-n count] [-m size] diff capture capture\n"
"                  [html]\n"
#endif
"       exmap-mini [-b source] [-p pid[,pid...]] [-m size] [-t pages]\n"
"                  [-o file [--max size]] watch interval [count] [metrics]\n"
"       exmap-mini -h | -V\n"
"views:\n"
"  procs                  one row per process, with totals (the default)\n"
"  files                  one row per mapped file, summed over processes\n"
"  maps pid               one row per mapping of process pid\n"
"  sections file          one row per allocated section of a mapped ELF file\n"
"  symbols file [section] one row per symbol of a mapped ELF file\n"
#ifndef EXMAP_NO_LOAD
"  elf file               its sections, segments, symbols, build-id; no scan\n"
#endif
"  dump                   the scan as a capture, to load with -l or diff later\n"
#ifndef EXMAP_NO_LOAD
"  diff a b [html]        how each figure changed from capture a to capture b,\n"
"                         per process (by name and command line) and per file\n"
#endif
#ifndef EXMAP_NO_BROWSE
"  browse                 processes or files, then their files or processes,\n"
"                         sections and symbols, full screen (a terminal)\n"
#endif
"  ram                    all of RAM: reserved at boot, and MemTotal in parts\n"
"                         (free, processes, caches, kernel, unexplained)\n"
#ifndef EXMAP_NO_PICTURES
"  folded                 process;file;section;symbol eff_resident, a line a\n"
"                         leaf, for flame-graph tools\n"
"  html                   one self-contained HTML page: a zoomable map, both\n"
"                         perspectives, tables, the ram view\n"
"  captures               with -l: the captures a console log holds, one row\n"
"                         each (its place N, for log@N)\n"
"  trend                  with -l: a watch log's processes (by name and command\n"
"                         line) and files, how fast each one's floor rose\n"
"                         (bytes an hour, largest first); with -P, its parts\n"
#endif
"  metrics                Prometheus's text format: processes by name, the -n\n"
"                         (20) largest files, the ram view's parts\n"
"  watch interval [count] a sample every interval seconds (count of them, else\n"
"                         until SIGINT or SIGTERM): what changed, as a log\n"
"                         between two captures (-l log, diff log@1 log@2);\n"
"                         with metrics, -o's file rewritten each sample\n"
"options:\n"
"  -b source  where page information comes from: auto (the default: the\n"
"             module if loaded, else pagemap), kmod or pagemap\n"
"  -a         every row: diff's unchanged ones, symbols with nothing resident\n"
"  -c         CSV, sizes in bytes\n"
"  -k         text sizes in KiB instead of human units\n"
"  -q         rows only: no header, totals or notes (warnings stay on stderr)\n"
"  -p pids    scan only these processes: pages are shared among them alone\n"
"  -P pids    report only these processes' part; pages are shared among all;\n"
#ifndef EXMAP_NO_LOAD
"             with trend, one process by name or pid: its parts' growth\n"
#endif
"  -F file    report only this file's part (a path, a basename or a soname)\n"
"  -s field   sort by: vm mapped resident eff_mapped eff_resident sole\n"
"             writable swap, or pid name (procs), path nproc (files),\n"
"             address path (maps), address name (sections, symbols)\n"
"  -n count   print only the first count rows\n"
"  -m size    cap the working memory (the arena) at size bytes; K, M, G\n"
"  -t pages   room in the page table for this many distinct shared pages\n"
#ifndef EXMAP_NO_LOAD
"  -l capture read a capture (a file, or a console log holding one) instead\n"
"             of scanning; log@N the Nth capture of a log (@-1 the last, the\n"
"             default), here and in diff\n"
"  -w duration\n"
"             with trend: leave out the log's first duration (s, m, h, d)\n"
"  -S sysroot with -l: find the capture's ELF files under sysroot, by build-id,\n"
"             else by path (without -S: this machine's files, checked alike)\n"
#endif
"  -o file    the output goes to file: written whole beside it, then renamed\n"
"             over it; watch's log is appended to it\n"
"  --max size with -o: file is renamed file.1 when it reaches size (K, M, G)\n"
"             and a new file begun; -l file reads file.1 and file together\n"
"  --pids     metrics: a series for each process (a pid label), not each name\n"
"  --budget name=size\n"
"             exit 3 if eff_resident of name is over size (K, M, G): a mapped\n"
"             file (a path, or a name as -F takes it), else the processes of\n"
"             that name, summed; proc:name for those when a file is so named;\n"
"             ram:name a line of the ram view (ram:slab, ram:unexplained);\n"
#ifndef EXMAP_NO_LOAD
"             name=size/h, with trend: exit 3 if its slope is over size an hour\n"
#endif
"  -h         print this help\n"
"  -V         print the version\n"
"columns (text head, CSV name):\n"
"  VM    vm            the address range, mapped or not\n"
"  MAPPD mapped        pages in RAM or swapped out\n"
"  RESID resident      pages in RAM (the kernel's Rss)\n"
"  EFMAP eff_mapped    each mapped page's size shared among those mapping it\n"
"  EFRES eff_resident  the same over pages in RAM (the kernel's Pss)\n"
"  SOLE  sole          pages nothing else maps\n"
"  WRITE writable      pages in RAM the process has written\n"
"  SWAP  swap          pages swapped out\n"
"exit status: 0 ok, 1 partial (some processes unreadable), 2 usage or fatal,\n"
"             3 a budget exceeded, 4 a damaged capture or watch log (what it\n"
"             lost is named); when several apply, the highest\n";

void usage(void)
{
	out(usage_text, sizeof(usage_text) - 1);
}
