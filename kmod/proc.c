// SPDX-License-Identifier: GPL-2.0
/*
 * exmap_mini: page information for exmap-mini, for kernels built without
 * /proc/PID/pagemap, with what pagemap cannot give: the PTE's write, dirty
 * and young bits. The protocol is described in exmap_mini_abi.h: records in
 * pagemap's layout, and a run of empty pages in one record.
 *
 * This file is /proc/exmap-mini: what is written chooses the mode, once per
 * open file (a pid: its page records, walk.c; the word "frames" or "counts":
 * a record per RAM frame, frames.c), and a read asks that mode's reader.
 */
#include <linux/capability.h>
#include <linux/module.h>
#include <linux/mutex.h>
#include <linux/proc_fs.h>
#include <linux/sched.h>
#include <linux/sched/mm.h>
#include <linux/sched/task.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/uaccess.h>

#include "compat.h"
#include "exmap_mini.h"

static ssize_t xm_read(struct file *file, char __user *ubuf, size_t len, loff_t *ppos)
{
	struct xm_file *xf = file->private_data;
	ssize_t ret;

	if (*ppos < 0)
		return -EINVAL;
	mutex_lock(&xf->lock);
	if (xf->frames)
		ret = len > EXMAP_MINI_HDR ? xm_read_frames(xf, ubuf, len, ppos) : -EINVAL;
	else if (xf->counts)
		ret = len > EXMAP_MINI_HDR ? xm_read_counts(xf, ubuf, len, ppos) : -EINVAL;
	else
		ret = xm_read_pages(xf, ubuf, len, ppos);
	mutex_unlock(&xf->lock);
	return ret;
}

/* Frame mode or counts, once per open file and not after a pid. */
static ssize_t xm_frames_mode(struct xm_file *xf, size_t len, bool counts)
{
	ssize_t ret = len;

	mutex_lock(&xf->lock);
	if (xf->mm || xf->frames || xf->counts)
		ret = -EBUSY;
	else if (counts)
		xf->counts = true;
	else
		xf->frames = true;
	mutex_unlock(&xf->lock);
	return ret;
}

/*
 * Choose the process: once per open file; its mm is pinned, not looked up
 * again. The pid may be followed by the word "spans". Or the word "frames":
 * the census of RAM frames; or "counts": frames' map counts.
 */
static ssize_t xm_write(struct file *file, const char __user *ubuf, size_t len, loff_t *ppos)
{
	struct xm_file *xf = file->private_data;
	struct task_struct *task;
	struct mm_struct *mm;
	struct pid *pid;
	bool spans = false;
	char buf[24], *s, *word;
	int nr, err;

	if (len == 0 || len >= sizeof(buf))
		return -EINVAL;
	if (copy_from_user(buf, ubuf, len))
		return -EFAULT;
	buf[len] = '\0';
	s = strim(buf);
	if (!strcmp(s, EXMAP_MINI_FRAMES_WORD))
		return xm_frames_mode(xf, len, false);
	if (!strcmp(s, EXMAP_MINI_COUNTS_WORD))
		return xm_frames_mode(xf, len, true);
	word = strchr(s, ' ');
	if (word) {
		*word++ = '\0';
		if (strcmp(skip_spaces(word), EXMAP_MINI_SPANS_WORD))
			return -EINVAL;
		spans = true;
	}
	if (kstrtoint(s, 10, &nr) || nr <= 0)
		return -EINVAL;
	pid = find_get_pid(nr);
	if (!pid)
		return -ESRCH;
	task = get_pid_task(pid, PIDTYPE_PID);
	put_pid(pid);
	if (!task)
		return -ESRCH;
	mm = get_task_mm(task);
	/* no mm: a kernel thread, or a process that has exited */
	err = mm ? 0 : (task->flags & PF_KTHREAD) ? -EINVAL : -ESRCH;
	put_task_struct(task);
	if (err)
		return err;
	mutex_lock(&xf->lock);
	if (xf->mm || xf->frames || xf->counts) {
		mutex_unlock(&xf->lock);
		mmput(mm);
		return -EBUSY;
	}
	mmgrab(mm);
	xf->mm = mm;
	xf->spans = spans;
	mutex_unlock(&xf->lock);
	mmput(mm);
	return len;
}

static int xm_open(struct inode *inode, struct file *file)
{
	struct xm_file *xf;

	/* pfns help Rowhammer attacks: as pagemap, only CAP_SYS_ADMIN sees them */
	if (!capable(CAP_SYS_ADMIN))
		return -EPERM;
	xf = kzalloc(sizeof(*xf), GFP_KERNEL);
	if (!xf)
		return -ENOMEM;
	xf->buf = kvmalloc_array(XM_BUF_RECS, sizeof(*xf->buf), GFP_KERNEL);
	if (!xf->buf) {
		kfree(xf);
		return -ENOMEM;
	}
	mutex_init(&xf->lock);
	file->private_data = xf;
	return 0;
}

static int xm_release(struct inode *inode, struct file *file)
{
	struct xm_file *xf = file->private_data;

	if (xf->mm)
		mmdrop(xf->mm);
	kvfree(xf->buf);
	kfree(xf);
	return 0;
}

static const XM_PROC_OPS xm_ops = {
	XM_OP(open) = xm_open,
	XM_OP(read) = xm_read,
	XM_OP(write) = xm_write,
	XM_OP(release) = xm_release,
	XM_OP(lseek) = default_llseek,
};

static int __init xm_init(void)
{
	if (!proc_create(EXMAP_MINI_ENTRY, 0600, NULL, &xm_ops))
		return -ENOMEM;
	return 0;
}

static void __exit xm_exit(void)
{
	remove_proc_entry(EXMAP_MINI_ENTRY, NULL);
}

module_init(xm_init);
module_exit(xm_exit);
MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("Page information for exmap-mini");
