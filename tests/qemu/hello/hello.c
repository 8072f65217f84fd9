// SPDX-License-Identifier: GPL-2.0
/* The smallest module that proves a kernel's headers build loadable code:
 * tests/qemu/smoke.sh builds it against each kernel and loads it in qemu. */
#include <linux/init.h>
#include <linux/module.h>
#include <linux/utsname.h>

static int __init hello_init(void)
{
	pr_info("exmap_hello: loaded into %s\n", init_utsname()->release);
	return 0;
}

static void __exit hello_exit(void)
{
	pr_info("exmap_hello: unloaded\n");
}

module_init(hello_init);
module_exit(hello_exit);
MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("exmap-mini qemu smoke test module");
