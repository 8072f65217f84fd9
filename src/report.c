/* The procs, files and maps views, and the notes a report ends with. */
/*
 * The views procs, files and maps, as 80-column text or as CSV, rows sorted
 * and cut to -n (table.c); and the notes every report ends with.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "capture.h"
#include "outside.h"
#include "dmabuf.h"

/* maps PID of a process the scan does not hold: why, as the scan saw it. */
static _Noreturn void not_scanned(const struct scan *s, pid_t pid)
{
	uint32_t i;

	for (i = 0; i < s->nabsent; i++) {
		const struct absent *a = &s->absent[i];

		if (a->pid != pid)
			continue;
		if (a->why == P_UNREADABLE)
			die("cannot read pid %d: %s", (int)pid, strerror(a->err));
		if (a->why == P_EMPTY)
			die("pid %d has no user memory (a kernel thread, or a zombie)", (int)pid);
		die("pid %d exited while it was being scanned", (int)pid);
	}
	if (s->absent_lost)
		die("pid %d was not scanned (more than %d processes were left out: why is not "
		    "known)", (int)pid, ABSENT_MAX);
	die("no such process: pid %d", (int)pid);
}

/* The figures shown in the text maps view, to leave room for the path. */
static const int maps_text_figs[] = {
	F_VM, F_RESIDENT, F_EFF_RESIDENT, F_SOLE, F_WRITABLE, F_SWAP,
};

/* OUTSD: a process's pages in RAM others outside the view map too. */
static void put_outside(const struct opts *o, uint64_t bytes)
{
	char buf[32];

	if (o->csv) {
		out_dec(',', bytes);
		return;
	}
	fmt_size(o, buf, sizeof(buf), bytes);
	outf(" %*s", fig_width(o) - 1, buf);
}

void view_procs(struct scan *s, const struct totals *t, const struct opts *o)
{
	void **rows = rows_alloc(s->arena, s->nproc);
	size_t i, n = 0;
	/* the dma-buf column's width (text), or 0 */
	int w, dw = dmabuf_shown(s, o), outside = ov_hid(s) != NULL, name = 16;
	uint64_t out_total = 0;

	for (i = 0; i < s->nproc; i++)
		if (s->procs[i]->shown) {
			rows[n++] = s->procs[i];
			out_total += s->procs[i]->outside;
		}
	sort_items(rows, n, V_PROCS, o->sort < 0 ? F_EFF_RESIDENT : o->sort);
	n = rows_shown(o, n);
	for (i = 0; i < n; i++)
		figs_fit(o, &((const struct proc *)rows[i])->rfig);
	if (!o->noheader)
		figs_fit(o, &t->shown);
	/* EFDMA takes its width from the name, OUTSD what 80 columns lack */
	if (!o->csv)
		name -= dw;
	if (outside && 8 + name + dw + (NFIGS + 1) * fig_width(o) > TEXT_COLS)
		name -= 8 + name + dw + (NFIGS + 1) * fig_width(o) - TEXT_COLS;
	w = (int)name_room(o, (size_t)name, 4);	/* it gives way to wider figures */
	if (!o->noheader) {
		if (o->csv)
			outs("pid,name");
		else
			outf("    PID %-*s", w, "NAME");
		put_heads(o, NULL, 0);
		if (dw && !o->csv)
			outf(" %*s", dw - 1, "EFDMA");
		dmabuf_csv_head(o);
		if (outside)
			outf(o->csv ? ",outside" : " %*s", fig_width(o) - 1, "OUTSD");
		outs("\n");
	}
	for (i = 0; i < n; i++) {
		const struct proc *p = rows[i];

		if (o->csv) {
			out_dec(0, (uint64_t)p->pid);
			outs(",");
			csv_field(p->name, strlen(p->name));
		} else {
			outf("%7d ", (int)p->pid);
			put_text(p->name, (size_t)w, 1);
		}
		put_figs(o, &p->rfig, NULL, 0);
		dmabuf_put(s, o, p, dw);
		if (outside)
			put_outside(o, p->outside);
		outs("\n");
	}
	if (!o->csv && !o->noheader) {
		char label[24];

		if (fmt_snprintf(label, sizeof(label), "%u process%s", t->nshown,
				 t->nshown == 1 ? "" : "es") > w)
			fmt_snprintf(label, sizeof(label), "%u", t->nshown);
		outf("%7s %-*s", "", w, label);
		put_figs(o, &t->shown, NULL, 0);
		dmabuf_put(s, o, NULL, dw);
		if (outside)
			put_outside(o, out_total);
		outs("\n");
	}
}

void view_files(struct scan *s, const struct opts *o)
{
	uint32_t nfile, i;
	struct file *files = files_build(s, &nfile);
	void **rows = rows_alloc(s->arena, nfile);
	size_t n = 0;

	for (i = 0; i < nfile; i++)
		if (files[i].rnproc)
			rows[n++] = &files[i];
	sort_items(rows, n, V_FILES, o->sort < 0 ? F_EFF_RESIDENT : o->sort);
	n = rows_shown(o, n);
	for (i = 0; i < n; i++)
		figs_fit(o, &((const struct file *)rows[i])->rfig);
	if (!o->noheader) {
		if (o->csv)
			outs("path,nproc");
		put_heads(o, NULL, 0);
		outs(o->csv ? ",deleted\n" : " NPROC PATH\n");
	}
	for (i = 0; i < n; i++) {
		const struct file *f = rows[i];
		int del = (f->flags & MF_DELETED) != 0;

		if (o->csv) {
			csv_field(f->path, strlen(f->path));
			outf(",%u", f->rnproc);
			put_figs(o, &f->rfig, NULL, 0);
			outf(",%d\n", del);
			continue;
		}
		put_figs(o, &f->rfig, NULL, 0);
		outf(" %5u ", f->rnproc);
		put_text(f->path, path_room(figs_width(o, NULL, 0) + 7 + (del ? 10 : 0)), 0);
		outs(del ? " (deleted)\n" : "\n");
	}
	/* no row: why, rather than a header alone */
	if (!n && !o->csv && !o->noheader && s->cap && !s->nproc)
		outf(s->cap->lost == 1 ? "(no files: the capture's one process did not load)\n" :
		     "(no files: none of the capture's %u processes loaded)\n", s->cap->lost);
	else if (!n && !o->csv && !o->noheader)
		outs(s->nproc ? "(no files: the processes shown map none)\n" :
		     "(no files: no process was scanned)\n");
}

void view_maps(struct scan *s, const struct opts *o)
{
	const int nf = sizeof(maps_text_figs) / sizeof(maps_text_figs[0]);
	struct proc *p = NULL;
	struct mapping *m;
	void **rows;
	size_t i, n, nm, aw = 8;
	uint32_t k;

	for (k = 0; k < s->nproc && !p; k++)
		if (s->procs[k]->pid == o->view_pid)
			p = s->procs[k];
	if (!p && s->cap)
		die("maps: pid %d is not in the capture (or its chunk was lost)",
		    (int)o->view_pid);
	if (!p)
		not_scanned(s, o->view_pid);
	if (!p->shown && !o->rfile)
		die("maps: pid %d is not among -P's", (int)o->view_pid);
	rows = rows_alloc(s->arena, p->nmap);
	/* Width from user addresses; one above 2^48 ([vsyscall]) takes more. */
	for (nm = 0, m = p->map; m; m = m->next) {
		if (!(m->flags & MF_SHOWN))
			continue;	/* -F shows that file's mappings alone */
		rows[nm++] = m;
		while (aw < 16 && m->start >> (4 * aw))
			aw++;
	}
	sort_items(rows, nm, V_MAPS, o->sort < 0 ? F_ADDRESS : o->sort);
	n = rows_shown(o, nm);
	for (i = 0; i < n; i++)
		figs_fit(o, &((const struct mapping *)rows[i])->fig);
	if (!o->noheader) {
		if (o->csv) {
			outs("pid,address,end,perms,offset,dev,inode,path");
			put_heads(o, NULL, 0);
			outs(",deleted,device\n");
		} else {
			outf("%-*s PERM OFFSET ", (int)aw, "ADDRESS");
			put_heads(o, maps_text_figs, nf);
			outs(" PATH\n");
		}
	}
	for (i = 0; i < n; i++) {
		char perms[5], lead[64];
		const char *path;
		size_t used;

		m = rows[i];
		perms[0] = m->flags & MF_READ ? 'r' : '-';
		perms[1] = m->flags & MF_WRITE ? 'w' : '-';
		perms[2] = m->flags & MF_EXEC ? 'x' : '-';
		perms[3] = m->flags & MF_SHARED ? 's' : 'p';
		perms[4] = '\0';
		path = m->path[0] ? m->path : "[anon]";
		if (o->csv) {
			outf("%d,0x%llx,0x%llx,%s,%llu,%x:%x,%llu,", (int)p->pid,
			     (unsigned long long)m->start, (unsigned long long)m->end,
			     perms, (unsigned long long)m->offset, m->dev >> 20,
			     m->dev & 0xfffff, (unsigned long long)m->inode);
			csv_field(path, strlen(path));
			put_figs(o, &m->fig, NULL, 0);
			outf(",%d,%d\n", !!(m->flags & MF_DELETED), !!(m->flags & MF_DEVICE));
			continue;
		}
		used = fmt_snprintf(lead, sizeof(lead), "%0*llx %s %-7llx", (int)aw,
				    (unsigned long long)m->start, perms,
				    (unsigned long long)m->offset);
		outs(lead);
		put_figs(o, &m->fig, maps_text_figs, nf);
		outs(" ");
		put_text(path, path_room(used + figs_width(o, maps_text_figs, nf) + 1), 0);
		outs("\n");
	}
}

/* What the scan could not see, and what it did: a line each. */
static void view_notes(const struct scan *s, const struct totals *t, const struct opts *o)
{
	char share[32];

	if (ov_flags(s) & OV_ONLY)
		outs("shares: among the processes -p names alone\n");
	if (ov_flags(s) & OV_NOPFN)
		outs("pfns hidden (no CAP_SYS_ADMIN in the init user namespace): smaps_rollup's\n"
		     "  figures; lost: sharing among processes, files by page, writable\n");
	if (ov_flags(s) & OV_NOCOUNT)
		outs("outside the view: not counted (no map count): shares are among those seen\n");
	/* a PID namespace's scan no count followed: an OUTSIDE=0 build's */
	if ((ov_flags(s) & (OV_PIDNS | OV_NOPFN | OV_NOCOUNT | OV_COUNTED)) == OV_PIDNS)
		outs("shares: among this PID namespace's processes alone (OUTSIDE=0: no map counts)\n");
	if (!ov_hid(s))
		return;
	if (s->cap && s->cap->counts_lost) {	/* of the pages no loaded process maps too */
		outf("outside: the capture's chunk %u, of counts, was lost: unseen mappers not known\n",
		     s->cap->counts_lost);
		return;
	}
	fmt_size(o, share, sizeof(share), eff_bytes(&t->outside));
	outf("outside the view: %llu pages here are mapped by unseen processes too\n"
	     "  (%s): their share, %s%s, is in no EFRES;\n"
	     "  OUTSD: each process's pages they map\n",
	     (unsigned long long)t->outside_pages,
	     ov_flags(s) & OV_PIDNS ? "another PID namespace" : "unreadable ones", share,
	     o->kib ? " KiB" : "");
}

void report_notes(const struct scan *s, const struct totals *t, const struct opts *o)
{
	struct eff diff;
	uint32_t lost = s->cap ? s->cap->lost : 0;
	/* without some processes' PTEs, the shares cannot add up */
	int bad = lost || (ov_flags(s) & OV_NOPFN) ? 0 : self_check(s, t, &diff);

	if (!o->csv && !o->noheader && o->view == V_PROCS) {
		if (lost)
			outf("check: not made: %u process%s of the capture did not load\n",
			     lost, lost == 1 ? "" : "es");
		else if (ov_flags(s) & OV_NOPFN)
			outs("check: not made: no pages were read\n");
		else
			outf("check: eff_mapped total%s = %llu distinct pages x %llu B: %s\n",
			     ov_hid(s) ? " + outside's share" : "",
			     (unsigned long long)t->distinct, (unsigned long long)s->page_size,
			     bad ? "FAILED" : "ok");
		outf("source: %s\n", s->source);
		outs("left out: exmap-mini itself\n");	/* live, or where the capture was taken */
		view_notes(s, t, o);
		if (s->empty)
			outf("no user memory: %u process%s (kernel threads, zombies)\n",
			     s->empty, s->empty == 1 ? "" : "es");
		if (s->vanished)
			outf("vanished: %u process%s exited before or while being read\n",
			     s->vanished, s->vanished == 1 ? "" : "es");
	}
	if (o->view == V_PROCS)
		dmabuf_notes(s, o);
	if (bad) {
		warnx("self-check failed: eff_mapped total is off by %llu bytes",
		      (unsigned long long)diff.whole);
		exit_at_least(EX_PARTIAL);
	}
	if (s->unreadable)
		warnx("%u process%s could not be read: figures are partial",
		      s->unreadable, s->unreadable == 1 ? "" : "es");
}
