################################################################################
#
# exmap-mini
#
################################################################################

# The source is the checkout this tree is part of (its toolchain/buildroot/),
# without the checkout's own build/; the version is the program's.
EXMAP_MINI_SITE = $(realpath $(BR2_EXTERNAL_EXMAP_MINI_PATH)/../..)
EXMAP_MINI_SITE_METHOD = local
EXMAP_MINI_OVERRIDE_SRCDIR_RSYNC_EXCLUSIONS = --exclude /build
EXMAP_MINI_VERSION = $(shell sed -n 's/^\#define EXMAP_VERSION "\(.*\)"$$/\1/p' \
	$(EXMAP_MINI_SITE)/src/exmap.h)
EXMAP_MINI_LICENSE = GPL-2.0
EXMAP_MINI_LICENSE_FILES = LICENSE

# Buildroot's compiler and flags, whatever its C library: CC, CFLAGS,
# LDFLAGS as it passes them, not the project's musl toolchain files (ARCH
# empty). Linked as the system is (STATIC). Warnings stay warnings with a
# compiler newer than the project's tests use.
EXMAP_MINI_MAKE_OPTS = \
	$(TARGET_CONFIGURE_OPTS) \
	ARCH= \
	STATIC=$(if $(BR2_STATIC_LIBS),1,0) \
	WERROR=0 \
	BROWSE=$(if $(BR2_PACKAGE_EXMAP_MINI_BROWSE),1,0) \
	LOAD=$(if $(BR2_PACKAGE_EXMAP_MINI_HOST_VIEWS),1,0) \
	PICTURES=$(if $(BR2_PACKAGE_EXMAP_MINI_HOST_VIEWS),1,0)

define EXMAP_MINI_BUILD_CMDS
	$(TARGET_MAKE_ENV) $(MAKE) -C $(@D) $(EXMAP_MINI_MAKE_OPTS) all
endef

# /usr/sbin: it needs root to see every process.
define EXMAP_MINI_INSTALL_TARGET_CMDS
	$(INSTALL) -D -m 0755 $(@D)/build/exmap-mini $(TARGET_DIR)/usr/sbin/exmap-mini
endef

# The module, through the kernel-module infrastructure: built against
# Buildroot's kernel, with its compiler.
ifeq ($(BR2_PACKAGE_EXMAP_MINI_MODULE),y)
EXMAP_MINI_MODULE_SUBDIRS = kmod
$(eval $(kernel-module))
endif
$(eval $(generic-package))
