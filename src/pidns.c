/* Whether the scan's /proc is a PID namespace's other than init's. */
/*
 * In a nested PID namespace /proc lists its processes alone, and pages they
 * share with processes outside would be shared among those seen. Every
 * build asks (a stat or two): outside.c then counts such pages by the
 * kernel's count; an OUTSIDE=0 build says it cannot.
 */
#include <sys/stat.h>

#include "outside.h"

#define PID_NS_INIT_INO	0xeffffffcu	/* the init PID namespace's inode (proc_ns.h) */

/*
 * /proc's namespace is its pid 1's. Where pid 1 cannot be read (hidepid,
 * not root), ours stands in: /proc is ours unless an ancestor's namespace
 * mounted it, and then, not root, pfns are hidden anyway. Then with -p,
 * which shares pages among the processes named alone, no count is read.
 */
void outside_begin(struct scan *s, int only)
{
	struct stat st;

	if (only)
		s->view |= OV_ONLY;
	else if ((stat("/proc/1/ns/pid", &st) == 0 || stat("/proc/self/ns/pid", &st) == 0) &&
		 st.st_ino != PID_NS_INIT_INO)
		s->view |= OV_PIDNS;
}
