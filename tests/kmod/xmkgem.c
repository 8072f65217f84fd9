// SPDX-License-Identifier: GPL-2.0
/*
 * A test DRM driver whose clients' fdinfo carries the DRM core's own memory
 * keys, for exmap-mini's GPU figures (tests/lib/gpu_phase.sh; loaded only
 * in qemu guests). No driver a qemu machine can run prints them in Debian's
 * kernels (6.12 to 7.3: only i915, xe, amdgpu, v3d, panfrost, panthor, msm,
 * etnaviv, intel_vpu and amdxdna do), so this one stands in: a render-less
 * GEM device "xmkgem" of shmem-backed buffers, dumb buffers and PRIME
 * through the DRM core's defaults, whose show_fdinfo is the core's
 * drm_show_memory_stats() as those drivers' is. What the keys say is the
 * core's reckoning, not this module's: drm-total-memory every buffer a
 * handle of the client names, drm-shared-memory those with another handle
 * or exported as a dma-buf, drm-resident-memory those with pages (this
 * module's one call: a buffer has pages once mapped, vmapped or pinned).
 */
#include <linux/dma-mapping.h>
#include <linux/module.h>
#include <linux/platform_device.h>
#include <linux/slab.h>
#include <drm/drm_drv.h>
#include <drm/drm_file.h>
#include <drm/drm_gem.h>
#include <drm/drm_gem_shmem_helper.h>
#include <drm/drm_ioctl.h>
#include <drm/drm_print.h>

static struct platform_device *xg_pdev;
static struct drm_device *xg_drm;

/* Resident once the buffer has its pages (read as the core reads handle
 * counts for these keys: without the object's lock, a snapshot). */
static enum drm_gem_object_status xg_status(struct drm_gem_object *obj)
{
	return READ_ONCE(to_drm_gem_shmem_obj(obj)->pages) ? DRM_GEM_OBJECT_RESIDENT : 0;
}

static const struct drm_gem_object_funcs xg_funcs = {
	.free = drm_gem_shmem_object_free,
	.print_info = drm_gem_shmem_object_print_info,
	.pin = drm_gem_shmem_object_pin,
	.unpin = drm_gem_shmem_object_unpin,
	.get_sg_table = drm_gem_shmem_object_get_sg_table,
	.vmap = drm_gem_shmem_object_vmap,
	.vunmap = drm_gem_shmem_object_vunmap,
	.mmap = drm_gem_shmem_object_mmap,
	.status = xg_status,
	.vm_ops = &drm_gem_shmem_vm_ops,
};

static struct drm_gem_object *xg_create_object(struct drm_device *dev, size_t size)
{
	struct drm_gem_shmem_object *shmem = kzalloc(sizeof(*shmem), GFP_KERNEL);

	if (!shmem)
		return ERR_PTR(-ENOMEM);
	shmem->base.funcs = &xg_funcs;
	return &shmem->base;
}

static void xg_show_fdinfo(struct drm_printer *p, struct drm_file *file)
{
	drm_show_memory_stats(p, file);
}

static const struct file_operations xg_fops = {
	.owner = THIS_MODULE,
	DRM_GEM_FOPS,
	.show_fdinfo = drm_show_fdinfo,
};

static const struct drm_driver xg_driver = {
	.driver_features = DRIVER_GEM,
	.fops = &xg_fops,
	.gem_create_object = xg_create_object,
	DRM_GEM_SHMEM_DRIVER_OPS,
	.show_fdinfo = xg_show_fdinfo,
	.name = "xmkgem",
	.desc = "exmap-mini test GEM device",
	.major = 1,
	.minor = 0,
};

static int __init xg_init(void)
{
	int ret;

	xg_pdev = platform_device_register_simple("xmkgem", -1, NULL, 0);
	if (IS_ERR(xg_pdev))
		return PTR_ERR(xg_pdev);
	xg_drm = drm_dev_alloc(&xg_driver, &xg_pdev->dev);
	if (IS_ERR(xg_drm)) {
		ret = PTR_ERR(xg_drm);
		goto out_pdev;
	}
	ret = dma_coerce_mask_and_coherent(xg_drm->dev, DMA_BIT_MASK(64));
	if (!ret)
		ret = drm_dev_register(xg_drm, 0);
	if (ret)
		goto out_put;
	return 0;
out_put:
	drm_dev_put(xg_drm);
out_pdev:
	platform_device_unregister(xg_pdev);
	return ret;
}

static void __exit xg_exit(void)
{
	drm_dev_unregister(xg_drm);
	drm_dev_put(xg_drm);
	platform_device_unregister(xg_pdev);
}

module_init(xg_init);
module_exit(xg_exit);
MODULE_DESCRIPTION("exmap-mini test GEM device: the DRM core's fdinfo memory keys");
MODULE_LICENSE("GPL");
