# SPDX-License-Identifier: GPL-2.0
#
# idlemem: idle memory tracking for Linux.  `make help` lists the targets.

SHELL := /bin/bash
.DEFAULT_GOAL := help

# Variables a user may set:
#   KERNEL          the base: 6.1 (the default, Debian 12's linux-source)
#                   or 6.12 (linux-source-6.12, Debian 13's kernel):
#                   kernel-series/ or kernel-series-6.12/
#   SERIES_EXCLUDE  patches of the base's series to leave out (a kernel
#                   variant of its own, e.g. to show what a fix fixes)
#   VM_OPTS         extra vm/run options for test and run (e.g. --mem 2G)
#   TESTS           only guest tests whose names contain these words
#                   (a word "!word" leaves out those that contain it)
#   DEBUG=1         the debug kernel variant (vm/debug.config: DEBUG_VM,
#                   PROVE_LOCKING, KASAN, ...); `make test-debug` sets it
#   DEBUG_SMOKE=0   `make test` without its debug smoke (the kernel-facing
#                   guest tests again on the debug kernel); TESTS= or
#                   DEBUG=1 leave it out too
#   PREFIX, DESTDIR install locations
KERNEL ?= 6.1
SERIES_EXCLUDE ?=
VM_OPTS ?=
TESTS ?=
DEBUG_SMOKE ?= 1
PREFIX ?= /usr/local
DESTDIR ?=

B := build
ifeq ($(filter 6.1 6.12,$(KERNEL)),)
$(error KERNEL=$(KERNEL): the bases are 6.1 (the default) and 6.12)
endif
SERIES := $(if $(filter 6.12,$(KERNEL)),kernel-series-6.12,kernel-series)
# A 6.12 variant's name starts with "6.12-"; 6.1's keep their names.
KBASE := $(if $(filter 6.12,$(KERNEL)),6.12-)
# A variant is named by the numbers of the patches it leaves out
# (without-0006+0015+0017): whole names of nine patches pass the 255
# bytes a directory name may have.
KVAR := $(if $(strip $(SERIES_EXCLUDE)),without-$(subst $(eval) ,+,$(foreach p,$(SERIES_EXCLUDE),$(firstword $(subst -, ,$(p))))),default)
KNAME := $(KBASE)$(KVAR)
SMOKE := $(and $(filter 1,$(DEBUG_SMOKE)),$(if $(filter 1,$(DEBUG)),,1),$(if $(strip $(TESTS)),,1))
SMOKE_OPTS := --debug-kernel $(B)/kernel/$(KBASE)debug-$(KVAR)/obj/arch/x86/boot/bzImage \
	      --debug-initrd $(B)/initramfs-$(KBASE)debug-$(KVAR).cpio.gz
KOPTS := --kernel $(KERNEL) $(addprefix --exclude ,$(SERIES_EXCLUDE))
ifeq ($(DEBUG),1)
KNAME := $(KBASE)debug-$(KVAR)
KOPTS += --config vm/debug.config
# Boot options of every debug-kernel boot (vm/debug.cmdline; tests/run's
# debug smoke reads the same file).
VM_OPTS += $(addprefix --append ,$(shell sed '/^#/d' vm/debug.cmdline))
endif
# The guest's 00-kernel-identity checks the release against the base.
override VM_OPTS += --append idlemem.base=$(KERNEL)
KOBJ := $(B)/kernel/$(KNAME)/obj
BZIMAGE := $(KOBJ)/arch/x86/boot/bzImage
INITRAMFS := $(B)/initramfs-$(KNAME).cpio.gz
KERNEL_INPUTS := $(wildcard $(SERIES)/*) vm/build-kernel $(if $(filter 1,$(DEBUG)),vm/debug.config)
INITRAMFS_INPUTS := vm/init vm/mkinitramfs $(shell find tests/guest top -type f 2>/dev/null | grep -v '^top/idletop$$')
VMRUN := vm/run --kernel $(BZIMAGE) --initrd $(INITRAMFS) $(VM_OPTS)

.PHONY: help deps kernel initramfs test test-host test-guest test-debug test-stock run clean install deb test-deb

help:
	@echo "idlemem make targets:"
	@echo "  make run        boot the guest with demo workloads and open idletop (q quits)"
	@echo "  make test       host unit tests, every guest test on the patched kernel,"
	@echo "                 and the debug smoke (kernel tests on the debug kernel)"
	@echo "  make deps       install missing Debian packages (as root; else lists them)"
	@echo "  make kernel     extract linux-source-6.1, apply kernel-series, build bzImage"
	@echo "  make initramfs  busybox, tmux, idletop and the tests in one initramfs"
	@echo "  make test-host  host unit tests only"
	@echo "  make test-guest guest tests only (TESTS=word limits them)"
	@echo "  make test-debug the guest tests on a DEBUG_VM/PROVE_LOCKING/KASAN kernel"
	@echo "  make test-stock idletop on the base without the series and without idle"
	@echo "                 page tracking, as Debian ships it (not part of make test)"
	@echo "  make check-series  checkpatch, build after every patch, IDLE_PAGE_TRACKING=n and MEMCG=n builds"
	@echo "                 (both bases; KERNEL= picks one)"
	@echo "  make test-distro  the series on Debian's kernel config, 2 NUMA nodes, memory hotplug"
	@echo "                 (not part of make test; the kernel build takes long)"
	@echo "  make verify-fixes  each fix fails its test without its patch (ROWS=0015...)"
	@echo "  make bench      scan cost vs floor, seed method, page-types; TLB flush; peers: MGLRU, DAMON (BENCH_MEM=2G)"
	@echo "  make install    install idletop and its man page (PREFIX, DESTDIR)"
	@echo "  make deb        idletop's Debian package in build/deb/ (dpkg-buildpackage, lintian)"
	@echo "  make test-deb   build the package and check it (tests/host/70-deb.sh)"
	@echo "  make clean      remove build/ (keeps the ccache)"
	@echo "Variables: KERNEL=6.12  SERIES_EXCLUDE=patch.patch  DEBUG=1  VM_OPTS='--mem 2G'  TESTS=word"

# Only the packages a target needs (vm/deps GROUP...): `make run` installs
# no Prometheus.  `make deps` installs them all.
deps:
	@vm/deps
deps-%:
	@vm/deps $(subst +, ,$*)

kernel: deps-kernel+src-$(KERNEL) $(BZIMAGE)

$(BZIMAGE): $(KERNEL_INPUTS)
	@vm/build-kernel --name $(KNAME) $(KOPTS)
	@touch $@

initramfs: kernel $(INITRAMFS)

$(INITRAMFS): $(BZIMAGE) $(INITRAMFS_INPUTS)
	@vm/mkinitramfs --kernel-name $(KNAME) --output $@

test: deps $(BZIMAGE) $(INITRAMFS)
ifneq ($(SMOKE),)
	@$(MAKE) --no-print-directory initramfs DEBUG=1
endif
	@tests/run --kernel $(BZIMAGE) --initrd $(INITRAMFS) $(if $(SMOKE),$(SMOKE_OPTS)) $(VM_OPTS) -- $(TESTS)

test-host: deps-idletop+test
	@tests/run --host-only

test-guest: deps-kernel+src-$(KERNEL)+guest+idletop+test $(BZIMAGE) $(INITRAMFS)
	@tests/run --guest-only --kernel $(BZIMAGE) --initrd $(INITRAMFS) $(VM_OPTS) -- $(TESTS)

test-debug:
	@$(MAKE) --no-print-directory test-guest DEBUG=1

# The base as Debian ships it (vm/build-kernel --stock: no patch, no
# CONFIG_IDLE_PAGE_TRACKING), booted with the patched kernel's initramfs
# (its programs are static and need no module): idletop with no options
# must pick the mglru source and say the numbers are approximate.  A
# kernel build of its own (about 10 minutes cold here), so not part of
# make test.
STOCK_BZIMAGE := $(B)/kernel/$(KBASE)stock/obj/arch/x86/boot/bzImage
STOCK_TESTS := mglru/70-stock-auto
test-stock: deps-kernel+src-$(KERNEL)+guest+idletop+test $(INITRAMFS)
	@vm/build-kernel --kernel $(KERNEL) --name $(KBASE)stock --stock
	@tests/run --guest-only --kernel $(STOCK_BZIMAGE) --initrd $(INITRAMFS) \
		$(VM_OPTS) --append idlemem.kind=stock -- $(or $(strip $(TESTS)),$(STOCK_TESTS))

run: deps-kernel+src-$(KERNEL)+guest+idletop $(BZIMAGE) $(INITRAMFS)
	@$(VMRUN) --interactive --timeout 86400 --script vm/demo

install:
	$(MAKE) -C top
	install -D -m 0755 top/idletop $(DESTDIR)$(PREFIX)/bin/idletop
	install -D -m 0644 docs/idletop.1 $(DESTDIR)$(PREFIX)/share/man/man1/idletop.1

# idletop's .deb, built from a copy in build/deb/ (dist/build-deb).
deb: deps-idletop+deb
	@dist/build-deb --lintian

test-deb: deps-idletop+deb
	@bash tests/host/70-deb.sh

clean:
	rm -rf $(B)

.PHONY: check-series
# Both bases, one after the other, unless KERNEL= names one.
CHECK_BASES := $(if $(filter file default,$(origin KERNEL)),6.1 6.12,$(KERNEL))
check-series: deps-kernel$(subst $(eval) ,,$(foreach k,$(CHECK_BASES),+src-$(k)))
	@set -e; for k in $(CHECK_BASES); do vm/check-series --kernel $$k; done

# Each fix and mechanism fails its test without its patch (vm/verify-fixes:
# one kernel build and one guest run per row; about an hour for all rows
# here).  Not part of make test.
.PHONY: verify-fixes
verify-fixes: deps-kernel+src-$(KERNEL)+guest+idletop+test
	@vm/verify-fixes $(ROWS)

.PHONY: bench
bench: deps-kernel+src-$(KERNEL)+guest+idletop $(BZIMAGE) $(INITRAMFS)
	@bench/run --kernel $(BZIMAGE) --initrd $(INITRAMFS) --ksrc $(B)/kernel/$(KNAME)/src $(if $(BENCH_MEM),--mem $(BENCH_MEM))

# The admin guide's kernel (vm/guide-route --module-less: Debian's own
# configuration, modules off, make bindeb-pkg), booted from its .deb with
# 2 NUMA nodes and memory hotplug: the kernel-facing tests, idletop's
# accuracy and tests/guest/distro/.  VM_OPTS and TESTS apply.
.PHONY: test-distro
test-distro: deps
	@vm/test-distro --kernel $(KERNEL) $(VM_OPTS) $(if $(strip $(TESTS)),-- $(TESTS))
