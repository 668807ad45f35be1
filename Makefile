# Build the kernel, the user programs and the initramfs; boot and test them.
#
#   make            kernel (build/kernel), user programs, build/initramfs.cpio
#   make run        boot the GRUB ISO in QEMU to a busybox shell on the serial
#                   console (this terminal)
#   make test       host unit tests, then boot QEMU for every test in tests/cases
#                   (tests/README.md)
#   make unit       only the host unit tests of mm/ and fs/
#   make bench      print speed and memory figures
#   make oracle     check the expected outputs against Debian's Linux kernel
#   make gdb        boot paused, with QEMU's gdbstub on :1234, and attach gdb
#   make fuzz       the host fuzzers of the kernel's parsers, FUZZ_RUNS
#                   iterations each (tests/host/fuzz/)
#   make lab LAB=NN DEST=dir    write lab NN's starter tree (labs/)
#   make grade [LAB=NN]         grade one lab, or all: "Score: X/Y",
#                   build/grade.xml (JUnit)
#   make handin LAB=NN          build/handin-labNN.tar.gz: the diff
#                   since the starter, the answers, the grade made now
#   make check-labs every starter builds and fails only its lab's tests
#                   (make test runs it first; CHECK_LABS=no skips it)
#
# make test SHARD=k/n runs every n-th QEMU case from the k-th (a CI matrix
# of n machines); the results also go to build/test.xml (JUnit).
# CROSS=x86_64-elf- selects a cross toolchain; the default is the host's.
# MODULES=y builds the formats Linux lets be modules (binfmt_script,
# binfmt_misc) as loadable modules instead of into the kernel; that build
# lives in build/modules-y/ (make run MODULES=y boots it).
# SANITIZE=ubsan builds a kernel that checks itself for undefined behaviour
# (kernel/ubsan.c reports it); make test SANITIZE=ubsan runs the tests on it.
# SANITIZE=kasan (or "ubsan kasan") adds KASAN-lite (mm/kasan.c).
# SANITIZE=lockdep adds the lock validator (kernel/locking/lockdep.c); the
# three combine ("ubsan kasan lockdep").
# SMP=N boots QEMU with N CPUs (make run, make test; default 2).

CROSS ?=
CC := $(CROSS)gcc
LD := $(CROSS)ld
NM := $(CROSS)nm
OBJCOPY := $(CROSS)objcopy
USER_CC ?= musl-gcc
QEMU ?= qemu-system-x86_64
ACCEL ?= tcg
OVERLAY ?=
APPEND ?= console=ttyS0

# uname -r; modules are installed in /lib/modules/$(KERNELRELEASE).
KERNELRELEASE := 6.1.0-execve

# Linux's tristate options: y builds the file into the kernel, m makes it
# a module (NAME.ko), loaded at run time. MODULES=y makes them all m.
MODULES ?= n
ifeq ($(MODULES),y)
B := build/modules-y
TRISTATE := m
else
B := build
TRISTATE := y
endif
CONFIG_BINFMT_SCRIPT := $(TRISTATE)
CONFIG_BINFMT_MISC := $(TRISTATE)

# What does not depend on the kernel's configuration (user programs,
# Debian's packages, host tools) is built once, in build/.
U := build

# Kbuild's lists: obj-y is linked into the kernel, obj-m are modules. The
# example module and the test modules of modules/ are always modules.
# obj-y is linked first, in this order (Linux's fs/Makefile's): initcalls
# of one level run in link order, so "#!" registers before ELF.
obj-$(CONFIG_BINFMT_MISC) += fs/binfmt_misc.o
obj-$(CONFIG_BINFMT_SCRIPT) += fs/binfmt_script.o
obj-y += fs/binfmt_elf.o
obj-m += $(patsubst %.c,%.o,$(wildcard modules/*.c modules/test/*.c))
# What could be a module but is built in (for modprobe: "is builtin").
MODULES_BUILTIN := $(sort $(patsubst %.o,kernel/%.ko,$(filter fs/binfmt_%,$(obj-y))))

KCFLAGS := -std=gnu11 -O2 -g -Wall -Wextra -Werror \
	-ffreestanding -fno-pic -fno-pie -mcmodel=kernel -mno-red-zone \
	-mno-sse -mno-sse2 -mno-mmx -mno-80387 -mgeneral-regs-only \
	-fstack-protector-strong -mstack-protector-guard=global -fno-omit-frame-pointer -fno-strict-aliasing \
	-fno-asynchronous-unwind-tables -fno-unwind-tables \
	-nostdinc -isystem $(shell $(CC) -print-file-name=include) -Iinclude \
	-MMD -MP -DUTS_RELEASE='"$(KERNELRELEASE)"' \
	$(foreach c,BINFMT_SCRIPT BINFMT_MISC,-DCONFIG_$(c)$(if $(filter m,$(CONFIG_$(c))),_MODULE))
# Sanitizers: the compiler instruments every kernel file but the runtime
# that reports what the instrumentation finds.
SANITIZE ?=
SAN_CFLAGS :=
ifneq ($(filter ubsan,$(SANITIZE)),)
# GCC's array-bounds warning misfires on the instrumented code (as Linux
# notes); the sanitizer checks the bounds at run time instead.
SAN_CFLAGS += -fsanitize=undefined -Wno-array-bounds
endif
ifneq ($(filter kasan,$(SANITIZE)),)
# KASAN-lite (mm/kasan.c): a call before every load and store, no stack or
# global red zones; kmalloc.c handles poisoned memory on purpose.
KCFLAGS += -DCONFIG_KASAN
SAN_CFLAGS += -fsanitize=kernel-address -fasan-shadow-offset=0xdffffc0000000000 \
	--param asan-instrumentation-with-call-threshold=0 --param asan-stack=0 \
	--param asan-globals=0
endif
ifneq ($(filter lockdep,$(SANITIZE)),)
# The lock validator (kernel/locking/lockdep.c): hooks in every spinlock
# and rwlock, no compiler instrumentation.
KCFLAGS += -DCONFIG_LOCKDEP
endif
SAN_RUNTIME := kernel/ubsan.c mm/kasan.c mm/kmalloc.c

KLDFLAGS := -nostdlib -static -z max-page-size=0x1000 -z noexecstack --no-warn-rwx-segments -T linker.ld

# The kernel's source folders; a new subfolder is added here.
KDIRS := boot arch/x86/kernel kernel kernel/cgroup kernel/locking kernel/module kernel/sched kernel/time mm fs fs/proc \
	ipc drivers/acpi drivers/tty drivers/misc security lib net net/core net/unix
KSRC := $(obj-y:.o=.c) $(filter-out $(obj-y:.o=.c) $(obj-m:.o=.c),$(foreach d,$(KDIRS),$(wildcard $(d)/*.S $(d)/*.c)))
KOBJ := $(patsubst %,$(B)/obj/%.o,$(basename $(KSRC)))

# Each module NAME.ko is built from one NAME.c, under $(B)/mod/.
MOD_OBJ := $(addprefix $(B)/mod/,$(obj-m))
MOD_KO := $(MOD_OBJ:.o=.ko)

# User programs are grouped by subject: userland/SUBJECT/NAME.c becomes
# /usr/lib/exec-tests/NAME in the initramfs (so two programs must not
# share a name; init alone is /init).
USER_SRCS := $(wildcard userland/*/*.c)
USER_PROGS := $(notdir $(basename $(USER_SRCS)))
ifneq ($(words $(USER_PROGS)),$(words $(sort $(USER_PROGS))))
$(error two programs in userland/ have the same name)
endif
vpath %.c $(sort $(dir $(USER_SRCS)))
USER_HDRS := $(wildcard userland/*/*.h)
USER_BINS := $(addprefix $(U)/userland/,$(USER_PROGS))
USER_CFLAGS := -static -O2 -Wall -Wextra -Werror -Iuserland/include
# Programs linked with glibc (gcc -static) rather than musl, for the
# article's transcripts, which show glibc's strerror texts.
GLIBC_PROGS := do_execve
# Programs also built with glibc, as NAME-glibc: the same test through the
# other C library's threads (glibc's pthread_create uses clone3), its
# own fexecve, its own ways of counting CPUs (sysconf reads /proc/stat)
# and of asking which one it runs on (sched_getcpu reads rseq's cpu_id).
GLIBC_TOO := threads futex fexecve posix_timers cpus_count cpus_affinity
USER_BINS += $(addprefix $(U)/userland/,$(addsuffix -glibc,$(GLIBC_TOO)))

# The serial line is this terminal, multiplexed with QEMU's monitor: keys
# such as ^C and ^Z go to the guest (signal=off), Ctrl-A X quits QEMU.
CONSOLE := -chardev stdio,id=con,mux=on,signal=off -serial chardev:con \
	-mon chardev=con,mode=readline
# MEM=16M: the kernel and the busybox shell run in 16 MiB (test boot_16m).
MEM ?= 256M
# SMP=N: the guest gets N CPUs (-smp N), which TCG runs each in a host
# thread of its own (thread=multi); SMP=1 is one CPU, one TCG thread.
# Exported: make test, kselftest, grade and oracle boot that many too
# (tests/run.sh reads SMP; a case's "smp" key overrides it).
SMP ?= 2
export SMP
QEMU_ACCEL := $(ACCEL)
ifneq ($(SMP),1)
ifeq ($(ACCEL),tcg)
QEMU_ACCEL := tcg,thread=multi
endif
endif
QEMU_MACHINE := -accel $(QEMU_ACCEL) -m $(MEM) -display none -no-reboot \
	-device isa-debug-exit,iobase=0xf4,iosize=0x04
ifneq ($(SMP),1)
QEMU_MACHINE += -smp $(SMP)
endif
ifeq ($(ACCEL),tcg)
QEMU_MACHINE += -cpu max,la57=off
else
QEMU_MACHINE += -cpu host
endif
QEMU_FLAGS := $(QEMU_MACHINE) $(CONSOLE)

.PHONY: all kernel modules userland initramfs iso run run-kernel test unit bench oracle gdb setup clean fuzz \
	lab grade handin check-labs
all: kernel modules userland initramfs

kernel: $(B)/kernel

# A kernel built with other flags must be rebuilt whole: the objects
# depend on this file, which changes when the flags do.
FLAGS_STAMP := $(B)/obj/.cflags
$(FLAGS_STAMP): FORCE
	@mkdir -p $(dir $@)
	@echo '$(KCFLAGS) $(SAN_CFLAGS)' | cmp -s - $@ || echo '$(KCFLAGS) $(SAN_CFLAGS)' > $@

$(B)/obj/%.o: %.c $(FLAGS_STAMP)
	@mkdir -p $(dir $@)
	@echo "  CC      $<"
	@$(CC) $(KCFLAGS) $(if $(filter $<,$(SAN_RUNTIME)),,$(SAN_CFLAGS)) -c $< -o $@

$(B)/obj/%.o: %.S $(FLAGS_STAMP)
	@mkdir -p $(dir $@)
	@echo "  AS      $<"
	@$(CC) $(KCFLAGS) -D__ASSEMBLY__ -c $< -o $@

# The kernel is linked twice: the first link gives the addresses of the
# functions, which become the symbol table (.ksyms) that backtraces print.
# .ksyms sits after .text and .data, so the second link moves no function.
$(B)/kernel: $(KOBJ) linker.ld scripts/gen-ksyms.sh
	@echo "  LD      $@"
	@$(LD) $(KLDFLAGS) -o $(B)/kernel.pass1 $(KOBJ)
	@scripts/gen-ksyms.sh $(NM) $(B)/kernel.pass1 > $(B)/ksyms.S
	@$(CC) $(KCFLAGS) -D__ASSEMBLY__ -c $(B)/ksyms.S -o $(B)/ksyms.o
	@$(LD) $(KLDFLAGS) -o $@ $(KOBJ) $(B)/ksyms.o

# ---- modules (docs/modules.md) ----
# Compiled as the kernel is (-mcmodel=kernel: they run in the kernel's top
# 2 GiB), with MODULE defined; modpost.sh then checks their symbols and
# writes each one's NAME.mod.c (its struct module and .modinfo), and
# "ld -r" makes NAME.o + NAME.mod.o one relocatable object: NAME.ko.
modules: $(MOD_KO)

$(B)/mod/%.o: %.c
	@mkdir -p $(dir $@)
	@echo "  CC [M]  $<"
	@$(CC) $(KCFLAGS) -DMODULE -DKBUILD_MODNAME='"$(notdir $*)"' -c $< -o $@

$(B)/mod/.modpost: $(MOD_OBJ) $(B)/kernel scripts/modpost.sh
	@echo "  MODPOST"
	@scripts/modpost.sh $(NM) $(B)/kernel $(B)/mod $(MOD_OBJ)
	@touch $@

$(B)/mod/%.mod.o: $(B)/mod/.modpost
	@$(CC) $(KCFLAGS) -DMODULE -DKBUILD_MODNAME='"$(notdir $*)"' -c $(B)/mod/$*.mod.c -o $@

.SECONDARY: $(MOD_OBJ:.o=.mod.o)
$(B)/mod/%.ko: $(B)/mod/%.o $(B)/mod/%.mod.o scripts/module.lds
	@echo "  LD [M]  $@"
	@$(LD) -r -T scripts/module.lds -o $@ $(B)/mod/$*.o $(B)/mod/$*.mod.o

# The vDSO: user code (kernel/vdso/), linked as a shared object with no
# relocations, then carried in the kernel as data (kernel/vdso_image.S,
# which includes build/vdso/vdso.so: it is the same for every $(B)).
VDSO_CFLAGS := -std=gnu11 -O2 -g -Wall -Wextra -Werror -fPIC -ffreestanding \
	-fno-stack-protector -fno-builtin -fno-common -nostdinc \
	-isystem $(shell $(CC) -print-file-name=include) -Iinclude -MMD -MP
$(U)/vdso/vdso.so: kernel/vdso/vdso.c kernel/vdso/vdso.lds include/vdso.h
	@mkdir -p $(dir $@)
	@echo "  VDSO    $@"
	@$(CC) $(VDSO_CFLAGS) -c -o $(U)/vdso/vdso.o kernel/vdso/vdso.c
	@$(LD) -shared -soname=linux-vdso.so.1 --hash-style=both --build-id=sha1 -Bsymbolic \
		-z max-page-size=4096 -z noexecstack --no-undefined --eh-frame-hdr -T kernel/vdso/vdso.lds \
		-o $@.dbg $(U)/vdso/vdso.o
	@if readelf -rW $@.dbg | grep -q '^ *[0-9a-f]\{8,\} '; then \
		echo "vdso: the image has relocations" >&2; readelf -rW $@.dbg >&2; exit 1; fi
	@$(OBJCOPY) -S $@.dbg $@
$(B)/obj/kernel/vdso_image.o: $(U)/vdso/vdso.so

userland: $(USER_BINS)

$(U)/userland/%: %.c $(USER_HDRS)
	@mkdir -p $(dir $@)
	@echo "  USERCC  $<"
	@$(if $(filter $*,$(GLIBC_PROGS)),gcc,$(USER_CC)) $(USER_CFLAGS) -o $@ $<

$(U)/userland/%-glibc: %.c $(USER_HDRS)
	@mkdir -p $(dir $@)
	@echo "  GLIBCC  $<"
	@gcc $(USER_CFLAGS) -pthread -o $@ $<

# Programs built as every kind of ELF file (issue 8): userland/elf/kinds/NAME.c
# gives NAME-static and NAME-spie (musl: static, static-pie), NAME-dyn
# (musl, dynamically linked PIE), NAME-gstatic and NAME-gspie (glibc:
# static, static-pie), NAME-gdyn (glibc, dynamic PIE) and NAME-gnopie
# (glibc, dynamic, not PIE). Debian's musl-gcc ignores -static-pie: that
# kind is linked by hand with musl's rcrt1.o.
KIND_SRCS := $(wildcard userland/elf/kinds/*.c)
KINDS := static spie dyn gstatic gspie gdyn gnopie
KIND_BINS := $(foreach s,$(KIND_SRCS),$(foreach k,$(KINDS),$(U)/userland/$(basename $(notdir $(s)))-$(k)))
KIND_CFLAGS := -O2 -Wall -Wextra -Werror
MUSL_LIB := /usr/lib/x86_64-linux-musl

userland: $(KIND_BINS)

$(U)/userland/%-static: userland/elf/kinds/%.c
	@mkdir -p $(dir $@)
	@echo "  USERCC  $@"
	@$(USER_CC) $(KIND_CFLAGS) -static -o $@ $<
$(U)/userland/%-spie: userland/elf/kinds/%.c
	@mkdir -p $(U)/kinds
	@echo "  USERCC  $@"
	@$(USER_CC) $(KIND_CFLAGS) -fPIE -c -o $(U)/kinds/$*-spie.o $<
	@gcc -static-pie -nostdlib -o $@ $(MUSL_LIB)/rcrt1.o $(MUSL_LIB)/crti.o \
		$(U)/kinds/$*-spie.o -L$(MUSL_LIB) -lc $$(gcc -print-libgcc-file-name) $(MUSL_LIB)/crtn.o
$(U)/userland/%-dyn: userland/elf/kinds/%.c
	@echo "  USERCC  $@"
	@$(USER_CC) $(KIND_CFLAGS) -o $@ $<
$(U)/userland/%-gstatic: userland/elf/kinds/%.c
	@echo "  CC      $@"
	@gcc $(KIND_CFLAGS) -static -o $@ $<
$(U)/userland/%-gspie: userland/elf/kinds/%.c
	@echo "  CC      $@"
	@gcc $(KIND_CFLAGS) -static-pie -o $@ $<
$(U)/userland/%-gdyn: userland/elf/kinds/%.c
	@echo "  CC      $@"
	@gcc $(KIND_CFLAGS) -pie -o $@ $<
$(U)/userland/%-gnopie: userland/elf/kinds/%.c
	@echo "  CC      $@"
	@gcc $(KIND_CFLAGS) -no-pie -o $@ $<

# A shared library and a program that links it and loads it with dlopen
# (userland/elf/shlib/), for musl and for glibc: /lib/libtwice.so (plain code,
# no C library of its own, so one build serves both) and /shlib-dyn,
# /shlib-gdyn. mkinitramfs.sh puts the library in /lib (SHLIBS).
SHLIB_BINS := $(U)/userland/shlib-dyn $(U)/userland/shlib-gdyn
userland: $(SHLIB_BINS)
$(U)/shlib/libtwice.so: userland/elf/shlib/twice.c
	@mkdir -p $(dir $@)
	@echo "  CC      $@"
	@gcc $(KIND_CFLAGS) -fPIC -shared -nostdlib -o $@ $<
$(U)/userland/shlib-dyn: userland/elf/shlib/shlib.c $(U)/shlib/libtwice.so
	@echo "  USERCC  $@"
	@$(USER_CC) $(KIND_CFLAGS) -o $@ $< -L$(U)/shlib -ltwice
$(U)/userland/shlib-gdyn: userland/elf/shlib/shlib.c $(U)/shlib/libtwice.so
	@echo "  CC      $@"
	@gcc $(KIND_CFLAGS) -o $@ $< -L$(U)/shlib -ltwice

# A PIE and a static-pie whose segments ask for 2 MiB alignment (p_align),
# as -z max-page-size=0x200000 makes them: /align-gdyn, /align-spie (with
# -z noseparate-code and norelro, so that the file is not padded to 2 MiB).
ALIGN_BINS := $(U)/userland/align-gdyn $(U)/userland/align-spie
userland: $(ALIGN_BINS)
$(U)/userland/align-gdyn: userland/elf/align/align.c
	@echo "  CC      $@"
	@gcc $(KIND_CFLAGS) -pie -Wl,-z,max-page-size=0x200000 -Wl,-z,noseparate-code -Wl,-z,norelro -o $@ $<
$(U)/userland/align-spie: userland/elf/align/align.c
	@mkdir -p $(U)/kinds
	@echo "  USERCC  $@"
	@$(USER_CC) $(KIND_CFLAGS) -fPIE -c -o $(U)/kinds/align-spie.o $<
	@gcc -static-pie -nostdlib -Wl,-z,max-page-size=0x200000 -Wl,-z,noseparate-code -Wl,-z,norelro -o $@ $(MUSL_LIB)/rcrt1.o \
		$(MUSL_LIB)/crti.o $(U)/kinds/align-spie.o -L$(MUSL_LIB) -lc \
		$$(gcc -print-libgcc-file-name) $(MUSL_LIB)/crtn.o

# Dynamically linked programs need their loader in the initramfs: musl's is
# the host's (musl-tools); glibc's comes from Debian's libc6, fetched once
# into $(U)/glibc (scripts/fetch-debian.sh; without network the glibc
# programs are left without it and their tests are skipped).
MUSL_LDSO := $(MUSL_LIB)/libc.so
GLIBC_ROOT := $(U)/glibc/root

# The initramfs holds Debian's busybox-static as /bin/sh and its applets,
# fetched once into $(U)/busybox (scripts/fetch-busybox.sh; without network
# the archive is made without it). WITH_BUSYBOX=no leaves it out. The
# modules go to /lib/modules (scripts/modules-install.sh), and once the
# oracle's Linux has been fetched (make oracle), a few of its own modules
# too, binfmt_misc.ko among them, for the tests to load on Linux.
WITH_BUSYBOX ?= yes
BUSYBOX_BIN := $(U)/busybox/root/bin/busybox

# Debian's qemu-user-static, fetched the same way (scripts/fetch-qemu-user.sh):
# only its qemu-aarch64-static goes in, with the package's binfmt_misc
# registration, to run /hello-aarch64 and /args-aarch64, tiny aarch64
# programs that a host program writes byte by byte. WITH_QEMU_USER=no
# leaves the emulator out.
WITH_QEMU_USER ?= yes
QEMU_USER_ROOT := $(U)/qemu-user/root

$(U)/host/mkhello-aarch64: scripts/host/mkhello-aarch64.c
	@mkdir -p $(dir $@)
	@echo "  HOSTCC  $<"
	@gcc -O2 -Wall -Wextra -Werror -o $@ $<

$(U)/userland/hello-aarch64: $(U)/host/mkhello-aarch64
	@echo "  GEN     $@"
	@$< $@ && chmod 0755 $@
$(U)/userland/args-aarch64: $(U)/host/mkhello-aarch64
	@echo "  GEN     $@"
	@$< --argv $@ && chmod 0755 $@

# What every initramfs is made of: the programs, the modules, and the
# fetched packages (each fetch is cached and does nothing the second
# time). The archives themselves are remade only when one of their inputs
# changed (scripts/mkinitramfs.sh, OUT.inputs), userland/rootfs/ included.
INITRAMFS_INPUTS := $(USER_BINS) $(KIND_BINS) $(SHLIB_BINS) $(ALIGN_BINS) $(U)/userland/hello-aarch64 \
	$(U)/userland/args-aarch64 $(MOD_KO) scripts/mkinitramfs.sh scripts/fetch-busybox.sh \
	$(B)/modules-root.stamp scripts/fetch-qemu-user.sh scripts/fetch-debian.sh
.PHONY: initramfs-inputs
initramfs-inputs: $(INITRAMFS_INPUTS)
ifeq ($(WITH_BUSYBOX),yes)
	@scripts/fetch-busybox.sh $(U)/busybox
endif
ifeq ($(WITH_QEMU_USER),yes)
	@scripts/fetch-qemu-user.sh $(U)/qemu-user
endif
	@scripts/fetch-debian.sh $(U)/glibc libc6

# The modules as modules_install lays them out, with Linux's own few once
# make oracle fetched them; remade when a module or the list of built-in
# ones (this Makefile's MODULES_BUILTIN) changed.
# (build/oracle/version is written when make oracle fetches Linux: the
# files it unpacks keep the package's old time stamps.)
ORACLE_MODULES := $(wildcard build/oracle/version)
$(B)/modules-root.stamp: $(MOD_KO) scripts/modules-install.sh scripts/depmod.sh Makefile $(ORACLE_MODULES)
	@echo "  INSTALL $(B)/modules-root/lib/modules/$(KERNELRELEASE)"
	@scripts/modules-install.sh $(OBJCOPY) $(NM) $(B)/modules-root $(KERNELRELEASE) $(B)/mod \
		$(MODULES_BUILTIN)
	@touch $@

# The kernel's symbols in address order, as Linux's System.map lists them
# (no absolute, debugging, undefined or weak-undefined ones, no local
# labels): the profiler's readprofile reads it (docs/measuring.md).
$(B)/System.map: $(B)/kernel
	@echo "  SYSMAP  $@"
	@$(NM) -n $< | grep -v ' [aNUw] \| \.L' > $@

# util-linux's readprofile, from Debian's package, for the profiler.
READPROFILE_BIN := $(U)/util-linux/root/usr/sbin/readprofile

initramfs: $(B)/initramfs.cpio
$(B)/initramfs.cpio: initramfs-inputs $(B)/System.map
	@scripts/fetch-debian.sh $(U)/util-linux util-linux
	@SYSTEM_MAP=$(B)/System.map READPROFILE=$$(test -x $(READPROFILE_BIN) && echo $(READPROFILE_BIN)) \
		BUSYBOX=$(if $(filter yes,$(WITH_BUSYBOX)),$$(test -x $(BUSYBOX_BIN) && echo $(BUSYBOX_BIN))) \
		QEMU_USER_ROOT=$(if $(filter yes,$(WITH_QEMU_USER)),$$(test -f $(QEMU_USER_ROOT)/usr/lib/binfmt.d/qemu-aarch64.conf && echo $(QEMU_USER_ROOT))) \
		MUSL_LDSO=$(MUSL_LDSO) SHLIBS=$(U)/shlib/libtwice.so \
		GLIBC_ROOT=$$(test -f $(GLIBC_ROOT)/lib/x86_64-linux-gnu/libc.so.6 && echo $(GLIBC_ROOT)) \
		MODULES_TREE=$(B)/modules-root scripts/mkinitramfs.sh $@ $(U)/userland $(OVERLAY)

# ROOTFS=debian: Debian's own bash, coreutils and python3 (with its
# standard library, and the libraries they need), unmodified, fetched once into
# $(U)/debian (scripts/fetch-debian.sh, as busybox is) and laid over the
# usual initramfs: $(B)/initramfs-debian.cpio. `make run ROOTFS=debian`
# boots it, and init starts Debian's bash (SHELL=/bin/bash on the command
# line); the tests whose NAME.conf says "rootfs debian" run on it. Without
# network it is made without them, and those tests are skipped.
ROOTFS ?=
# Python's standard library beyond -minimal's (import queue, sqlite3, ...):
# libpython3.11-stdlib and the libraries its extension modules load.
PYTHON_STDLIB_PKGS := libpython3.11-stdlib media-types libbz2-1.0 libcrypt1 libdb5.3 libffi8 \
	liblzma5 libncursesw6 libnsl2 libreadline8 readline-common libsqlite3-0 \
	libtirpc3 libtirpc-common libgssapi-krb5-2 libkrb5-3 libk5crypto3 libcom-err2 \
	libkrb5support0 libkeyutils1 libuuid1
DEBIAN_PKGS := libc6 libtinfo6 bash ncurses-base coreutils libacl1 libattr1 libgmp10 \
	libselinux1 libpcre2-8-0 python3-minimal python3.11-minimal libpython3.11-minimal \
	libexpat1 zlib1g libssl3 $(PYTHON_STDLIB_PKGS)
# Of our programs, the Debian image has init and the article's; its root
# is then a Debian root, not a test bench.
DEBIAN_PROGRAMS := init hello do_execve show_info
RUN_INITRD := $(B)/initramfs$(if $(ROOTFS),-$(ROOTFS)).cpio
# The terminal make runs in gives the console its size (init sets it):
# "LINES=R COLUMNS=C", nothing when make has no terminal.
TERM_SIZE := $(shell stty size 2> /dev/null | awk '{ print "LINES=" $$1, "COLUMNS=" $$2 }')
RUN_APPEND := $(strip $(TERM_SIZE) $(APPEND)$(if $(filter debian kselftest,$(ROOTFS)), SHELL=/bin/bash))

ifneq ($(MODULES),y)
all: $(B)/initramfs-debian.cpio
endif
$(B)/initramfs-debian.cpio: initramfs-inputs
	@scripts/fetch-debian.sh $(U)/debian $(DEBIAN_PKGS)
	@PROGRAMS="$(DEBIAN_PROGRAMS)" BUSYBOX=$$(test -x $(BUSYBOX_BIN) && echo $(BUSYBOX_BIN)) \
		MODULES_TREE=$(B)/modules-root \
		scripts/mkinitramfs.sh $@ $(U)/userland $$(test -d $(U)/debian/root && echo $(U)/debian/root) $(OVERLAY)

# Linux's own selftests (tools/testing/selftests of Debian's
# linux-source-6.1, the oracle's source), built by their Makefiles
# (scripts/fetch-kselftests.sh, cached in $(U)/kselftest) and laid over the
# Debian image (python3 for exec's binfmt_script.py, glibc for the tests
# linked dynamically), with the runner /usr/lib/kselftests/run
# (scripts/kselftest-run.sh). Not part of `make all`: make test and make
# kselftest build it. The cases are tests/cases/kselftest/kselftest-DIR.
KSELFTEST := $(U)/kselftest
$(B)/initramfs-kselftest.cpio: initramfs-inputs scripts/kselftest-run.sh scripts/fetch-kselftests.sh
	@scripts/fetch-debian.sh $(U)/debian $(DEBIAN_PKGS)
	@scripts/fetch-kselftests.sh $(KSELFTEST)
	@install -D -m 755 scripts/kselftest-run.sh $(KSELFTEST)/runner/usr/lib/kselftests/run
	@PROGRAMS="$(DEBIAN_PROGRAMS)" BUSYBOX=$$(test -x $(BUSYBOX_BIN) && echo $(BUSYBOX_BIN)) \
		MODULES_TREE=$(B)/modules-root scripts/mkinitramfs.sh $@ $(U)/userland \
		$$(test -d $(U)/debian/root && echo $(U)/debian/root) \
		$$(test -d $(KSELFTEST)/root && echo $(KSELFTEST)/root) $(KSELFTEST)/runner

# What the shell of make run needs and no more (init, busybox and its
# applets, the tests' hello and t/, /etc, the directories and device nodes), for a
# machine with 16 MiB of memory (test boot_16m).
initramfs: $(B)/initramfs-small.cpio
$(B)/initramfs-small.cpio: $(B)/initramfs.cpio
	@echo "  CPIO    $@"
	@(cd $(B)/initramfs-root && { find . -mindepth 1 \( -type d -o -type c -o -type l \); \
		[ ! -e bin/busybox ] || find . -samefile bin/busybox; \
		find ./init ./usr/lib/exec-tests/hello ./etc ./usr/lib/exec-tests/t -type f; } | LC_ALL=C sort -u | \
		cpio -o -H newc -R 0:0 --quiet) > $@

# The ISO is remade when the kernel, the archive or the command line
# changed: $(ISO_ARGS) changes when the image or APPEND does.
ISO_ARGS := $(B)/iso.args
$(ISO_ARGS): export ARGS = $(RUN_INITRD) $(RUN_APPEND)
$(ISO_ARGS): FORCE
	@mkdir -p $(dir $@)
	@printf '%s\n' "$$ARGS" | cmp -s - $@ || printf '%s\n' "$$ARGS" > $@

iso: $(B)/os.iso
$(B)/os.iso: $(B)/kernel $(RUN_INITRD) $(ISO_ARGS) scripts/mkiso.sh
	scripts/mkiso.sh $@ $(B)/kernel $(RUN_INITRD) "$(RUN_APPEND)"

setup:
	scripts/setup.sh

# make run builds what the image it boots needs, and no more.
run: setup
	$(MAKE) iso
	$(QEMU) $(QEMU_FLAGS) -cdrom $(B)/os.iso

# Boot without GRUB: QEMU loads the kernel itself (faster).
run-kernel: kernel $(RUN_INITRD)
	$(QEMU) $(QEMU_FLAGS) -kernel $(B)/kernel -initrd $(RUN_INITRD) -append "$(RUN_APPEND)"

# The tests whose NAME.conf says "build MODULES=y" boot the MODULES=y build.
# The labs' starter trees are checked first (on the first shard only; not
# in a student's tree, made by make lab, which has a .lab-starter);
# check-labs.sh unsets SHARD: it boots every graded test whatever the shard.
SHARD ?=
CHECK_LABS ?= $(if $(wildcard .lab-starter)$(filter-out 1/%,$(SHARD)),no,yes)
test: setup
	$(MAKE) all $(B)/initramfs-kselftest.cpio
	$(MAKE) all MODULES=y
	$(MAKE) unit
	scripts/gen-syscalls-doc.sh --check
ifeq ($(CHECK_LABS),yes)
	$(if $(SANITIZE),,scripts/check-labs.sh)
	scripts/gdb/selftest.sh
endif
	SANITIZE="$(SANITIZE)" SHARD="$(SHARD)" tests/run.sh

# make kselftest: the cases of Linux's selftests alone, one boot a
# directory: those that pass (tests/cases/kselftest/, in make test), then
# those that do not yet (tests/pending/kselftest/); make kselftest DIR=exec:
# one directory.
KSELFTESTS = $$(tests/run.sh $(1) --list | sed -n 's,^kselftest/,,p' | \
	grep -x '$(if $(DIR),kselftest-$(DIR),.*)' || true)
.PHONY: kselftest
kselftest: kernel $(B)/initramfs-kselftest.cpio
	@cases=$(call KSELFTESTS,); [ -z "$$cases" ] || tests/run.sh $$cases
	@cases=$(call KSELFTESTS,--pending); [ -z "$$cases" ] || tests/run.sh --pending $$cases || true

# ---- the labs (labs/README.md) ----
LAB ?=
DEST ?=
lab:
	@test -n "$(LAB)" -a -n "$(DEST)" || { echo "usage: make lab LAB=NN DEST=dir" >&2; exit 2; }
	scripts/mklab.sh $(LAB) $(DEST)

grade: all
	scripts/grade.sh $(LAB)

handin: all
	@test -n "$(LAB)" || { echo "usage: make handin LAB=NN" >&2; exit 2; }
	scripts/handin.sh $(LAB)

check-labs: all
	scripts/check-labs.sh $(LAB)

# Host-side unit tests: mm/ and fs/ compiled as ordinary programs (fs/'s
# compares its system calls with the real Linux ones on this machine);
# tests/host/run.sh runs them and the fuzzers (tests/README.md).
unit:
	tests/host/run.sh unit

bench: all
	ICOUNT="$(ICOUNT)" tests/bench.sh

# libFuzzer + ASan + UBSan builds of the parsers (Debian's clang).
FUZZ_RUNS ?= 100000
fuzz:
	scripts/setup.sh fuzz
	tests/host/run.sh fuzz $(FUZZ_RUNS)

oracle: all
	scripts/oracle.sh

# QEMU waits for gdb (-S) with its gdbstub on :1234; gdb has the terminal.
# QEMU runs in a session of its own (setsid), so that Ctrl-C in gdb stops
# the guest instead of killing QEMU. The serial console is a TCP port,
# GDB_CONSOLE (4444): `socat -,rawer tcp:localhost:4444` (or telnet) in
# another terminal types into the guest's shell; everything it prints also
# goes to $(B)/serial.log. gdb loads scripts/gdb/execve.py: lx-ps,
# lx-pagetables, lx-pte, lx-bprm. GDB_ARGS adds gdb options, e.g.
# GDB_ARGS="-ex 'break load_script'".
GDB_ARGS ?=
GDB_CONSOLE ?= 4444
gdb: kernel $(B)/initramfs.cpio
	@echo "make gdb: the guest's console is tcp port $(GDB_CONSOLE):" \
		"socat -,rawer tcp:localhost:$(GDB_CONSOLE)  (or: telnet localhost $(GDB_CONSOLE));" \
		"its output is also in $(B)/serial.log"
	setsid $(QEMU) $(QEMU_MACHINE) -kernel $(B)/kernel -initrd $(B)/initramfs.cpio \
		-chardev socket,id=con,host=127.0.0.1,port=$(GDB_CONSOLE),server=on,wait=off,logfile=$(B)/serial.log \
		-serial chardev:con -append "$(APPEND)" -s -S & \
	qemu=$$!; \
	gdb -q $(B)/kernel -x scripts/gdb/execve.py -ex 'target remote :1234' $(GDB_ARGS); \
		kill $$qemu 2>/dev/null || true

clean:
	rm -rf $(B)

FORCE:
-include $(KOBJ:.o=.d) $(MOD_OBJ:.o=.d)
