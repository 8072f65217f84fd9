// SPDX-License-Identifier: GPL-2.0
/*
 * A test module of known kernel memory, for the ram view's owners
 * (tests/lib/kmem_phase.sh, loaded only in qemu guests): at load it holds
 * kmalloc_n blocks of 4 KiB (kmalloc-4k objects, exact), pages_n blocks of
 * 2^pages_order pages (alloc_pages) and vmalloc_kib KiB (vmalloc), each
 * from a call site of its own; /proc/xmkmem says what it holds ("kmalloc
 * BYTES", "pages BYTES", "vmalloc BYTES", "leak BYTES KIND RATE MS": what
 * the leak took, bytes a second and ms since it began, while it runs), and
 * a write to it acts:
 *   free            everything given back (the leak too, which stops)
 *   leak vmalloc N  from now, N KiB a second, 16 KiB per vmalloc
 *   leak kmalloc N  from now, N KiB a second, 4 KiB per kmalloc
 *   stop            the leak stops (what it took is kept)
 * The leak runs every 100 ms and takes what the rate owes since it began,
 * by CLOCK_BOOTTIME (watch times its samples so; jiffies lag it where
 * ticks are lost, as under qemu's TCG), so that a late worker catches up. Its blocks are linked through their own
 * first bytes: nothing else is allocated, so allocinfo's figures for the
 * module are these blocks alone.
 */
#include <linux/gfp.h>
#include <linux/jiffies.h>
#include <linux/ktime.h>
#include <linux/math64.h>
#include <linux/module.h>
#include <linux/mutex.h>
#include <linux/proc_fs.h>
#include <linux/seq_file.h>
#include <linux/slab.h>
#include <linux/uaccess.h>
#include <linux/vmalloc.h>
#include <linux/workqueue.h>

#define XM_MAX_BLOCKS	64
#define XM_KBLOCK	4096
#define XM_VBLOCK	(16 << 10)

static unsigned int kmalloc_n = 16, pages_n = 4, pages_order = 2, vmalloc_kib = 256;
module_param(kmalloc_n, uint, 0444);
module_param(pages_n, uint, 0444);
module_param(pages_order, uint, 0444);
module_param(vmalloc_kib, uint, 0444);

static DEFINE_MUTEX(xm_lock);
static void *kblocks[XM_MAX_BLOCKS];
static struct page *pblocks[XM_MAX_BLOCKS];
static void *vblock;
static unsigned int nk, np;

/* the leak: its blocks, linked through their first bytes */
static void *leak_k, *leak_v;
static unsigned long leak_bytes, leak_rate;
static u64 leak_start;	/* CLOCK_BOOTTIME's ns, as watch's samples are timed */
static int leak_vmalloc, leaking;
static struct delayed_work leak_work;

/*
 * Each allocation a call site of its own: allocinfo names them apart. Not
 * a tail call: vmallocinfo names the function vmalloc returns to, which
 * would be the caller's (xm_init's, whose code is freed after loading,
 * which leaves a bare address).
 */
#define NOTAIL(x)	({ typeof(x) _x = (x); barrier(); _x; })

static noinline void *xm_kmalloc_fixed(void)
{
	return NOTAIL(kmalloc(XM_KBLOCK, GFP_KERNEL));
}

static noinline struct page *xm_pages_fixed(void)
{
	return NOTAIL(alloc_pages(GFP_KERNEL, pages_order));
}

static noinline void *xm_vmalloc_fixed(void)
{
	return NOTAIL(vmalloc((unsigned long)vmalloc_kib << 10));
}

static noinline void *xm_leak_kmalloc(void)
{
	return NOTAIL(kmalloc(XM_KBLOCK, GFP_KERNEL));
}

static noinline void *xm_leak_vmalloc(void)
{
	return NOTAIL(vmalloc(XM_VBLOCK));
}

static void xm_leak_tick(struct work_struct *w)
{
	unsigned long want;

	mutex_lock(&xm_lock);
	if (!leaking)
		goto out;
	want = div_u64((u64)leak_rate * div_u64(ktime_get_boottime_ns() - leak_start, 1000000), 1000);
	while (leak_bytes < want) {
		void **b = leak_vmalloc ? xm_leak_vmalloc() : xm_leak_kmalloc();

		if (!b)
			break;
		if (leak_vmalloc) {
			*b = leak_v;
			leak_v = b;
			leak_bytes += XM_VBLOCK;
		} else {
			*b = leak_k;
			leak_k = b;
			leak_bytes += XM_KBLOCK;
		}
	}
	schedule_delayed_work(&leak_work, msecs_to_jiffies(100));
out:
	mutex_unlock(&xm_lock);
}

static void xm_free_all(void)
{
	unsigned int i;

	for (i = 0; i < nk; i++)
		kfree(kblocks[i]);
	for (i = 0; i < np; i++)
		__free_pages(pblocks[i], pages_order);
	vfree(vblock);
	nk = np = 0;
	vblock = NULL;
	while (leak_k) {
		void *next = *(void **)leak_k;

		kfree(leak_k);
		leak_k = next;
	}
	while (leak_v) {
		void *next = *(void **)leak_v;

		vfree(leak_v);
		leak_v = next;
	}
	leak_bytes = 0;
	leaking = 0;
}

static int xm_show(struct seq_file *m, void *v)
{
	mutex_lock(&xm_lock);
	seq_printf(m, "kmalloc %lu\npages %lu\nvmalloc %lu\nleak %lu %s %lu %u\n",
		   (unsigned long)nk * XM_KBLOCK, (unsigned long)np * (PAGE_SIZE << pages_order),
		   vblock ? (unsigned long)vmalloc_kib << 10 : 0, leak_bytes,
		   leak_vmalloc ? "vmalloc" : "kmalloc", leaking ? leak_rate : 0,
		   leaking ? (unsigned int)div_u64(ktime_get_boottime_ns() - leak_start, 1000000) : 0);
	mutex_unlock(&xm_lock);
	return 0;
}

static int xm_open(struct inode *inode, struct file *f)
{
	return single_open(f, xm_show, NULL);
}

static ssize_t xm_write(struct file *f, const char __user *ubuf, size_t len, loff_t *off)
{
	char buf[32], kind[16];
	unsigned long kib;
	int ret = len;

	if (len >= sizeof(buf))
		return -EINVAL;
	if (copy_from_user(buf, ubuf, len))
		return -EFAULT;
	buf[len] = '\0';
	mutex_lock(&xm_lock);
	if (sysfs_streq(buf, "free")) {
		xm_free_all();
	} else if (sysfs_streq(buf, "stop")) {
		leaking = 0;
	} else if (sscanf(buf, "leak %15s %lu", kind, &kib) == 2 && kib > 0 &&
		   (!strcmp(kind, "vmalloc") || !strcmp(kind, "kmalloc")) && !leaking) {
		leak_vmalloc = !strcmp(kind, "vmalloc");
		leak_rate = kib << 10;
		leak_start = ktime_get_boottime_ns();
		leak_bytes = 0;
		leaking = 1;
		schedule_delayed_work(&leak_work, 0);
	} else {
		ret = -EINVAL;
	}
	mutex_unlock(&xm_lock);
	return ret;
}

static const struct proc_ops xm_ops = {
	.proc_open = xm_open,
	.proc_read = seq_read,
	.proc_lseek = seq_lseek,
	.proc_release = single_release,
	.proc_write = xm_write,
};

static int __init xm_init(void)
{
	unsigned int i;

	if (kmalloc_n > XM_MAX_BLOCKS || pages_n > XM_MAX_BLOCKS || pages_order > 10)
		return -EINVAL;
	INIT_DELAYED_WORK(&leak_work, xm_leak_tick);
	for (i = 0; i < kmalloc_n; i++, nk++)
		if (!(kblocks[i] = xm_kmalloc_fixed()))
			goto nomem;
	for (i = 0; i < pages_n; i++, np++)
		if (!(pblocks[i] = xm_pages_fixed()))
			goto nomem;
	if (vmalloc_kib && !(vblock = xm_vmalloc_fixed()))
		goto nomem;
	if (!proc_create("xmkmem", 0600, NULL, &xm_ops))
		goto nomem;
	return 0;
nomem:
	xm_free_all();
	return -ENOMEM;
}

static void __exit xm_exit(void)
{
	remove_proc_entry("xmkmem", NULL);
	mutex_lock(&xm_lock);
	leaking = 0;
	mutex_unlock(&xm_lock);
	cancel_delayed_work_sync(&leak_work);
	xm_free_all();
}

module_init(xm_init);
module_exit(xm_exit);
MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("exmap-mini test: kernel memory of known size, freed or leaked on demand");
