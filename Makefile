# Build the kernel, the user programs and the initramfs; boot and test them.
#
#   make            kernel (build/kernel), user programs, build/initramfs.cpio
#   make run        boot the GRUB ISO in QEMU to a busybox shell on the serial
#                   console (this terminal)
#   make test       host unit tests, then boot QEMU for every test in tests/cases
#   make unit       only the host unit tests of mm/ and fs/
#   make bench      print speed and memory figures
#   make oracle     check the expected outputs against Debian's Linux kernel
#   make gdb        boot paused, with QEMU's gdbstub on :1234, and attach gdb
#
# CROSS=x86_64-elf- selects a cross toolchain; the default is the host's.

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

B := build

# uname -r; modules are installed in /lib/modules/$(KERNELRELEASE).
KERNELRELEASE := 6.1.0-execve

KCFLAGS := -std=gnu11 -O2 -g -Wall -Wextra -Werror \
	-ffreestanding -fno-pic -fno-pie -mcmodel=kernel -mno-red-zone \
	-mno-sse -mno-sse2 -mno-mmx -mno-80387 -mgeneral-regs-only \
	-fno-stack-protector -fno-omit-frame-pointer -fno-strict-aliasing \
	-fno-asynchronous-unwind-tables -fno-unwind-tables \
	-nostdinc -isystem $(shell $(CC) -print-file-name=include) -Iinclude \
	-MMD -MP -DUTS_RELEASE='"$(KERNELRELEASE)"'
KLDFLAGS := -nostdlib -static -z max-page-size=0x1000 -z noexecstack --no-warn-rwx-segments -T linker.ld

# The kernel's source folders; a new subfolder is added here.
KDIRS := boot kernel kernel/module kernel/time mm fs fs/proc security
KSRC := $(foreach d,$(KDIRS),$(wildcard $(d)/*.S $(d)/*.c))
KOBJ := $(patsubst %,$(B)/obj/%.o,$(basename $(KSRC)))

USER_PROGS := $(patsubst userland/%.c,%,$(wildcard userland/*.c))
USER_BINS := $(addprefix $(B)/userland/,$(USER_PROGS))
USER_CFLAGS := -static -O2 -Wall -Wextra -Werror
# Programs linked with glibc (gcc -static) rather than musl, for the
# article's transcripts, which show glibc's strerror texts.
GLIBC_PROGS := do_execve
# Programs also built with glibc, as NAME-glibc: the same test through the
# other C library's threads (glibc's pthread_create uses clone3), or its
# own fexecve.
GLIBC_TOO := threads futex fexecve
USER_BINS += $(addprefix $(B)/userland/,$(addsuffix -glibc,$(GLIBC_TOO)))

# The serial line is this terminal, multiplexed with QEMU's monitor: keys
# such as ^C and ^Z go to the guest (signal=off), Ctrl-A X quits QEMU.
CONSOLE := -chardev stdio,id=con,mux=on,signal=off -serial chardev:con \
	-mon chardev=con,mode=readline
QEMU_MACHINE := -accel $(ACCEL) -m 256M -display none -no-reboot \
	-device isa-debug-exit,iobase=0xf4,iosize=0x04
ifeq ($(ACCEL),tcg)
QEMU_MACHINE += -cpu max,la57=off
else
QEMU_MACHINE += -cpu host
endif
QEMU_FLAGS := $(QEMU_MACHINE) $(CONSOLE)

.PHONY: all kernel userland initramfs iso run run-kernel test unit bench oracle gdb setup clean
all: kernel userland initramfs

kernel: $(B)/kernel

$(B)/obj/%.o: %.c
	@mkdir -p $(dir $@)
	@echo "  CC      $<"
	@$(CC) $(KCFLAGS) -c $< -o $@

$(B)/obj/%.o: %.S
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

userland: $(USER_BINS)

$(B)/userland/%: userland/%.c $(wildcard userland/*.h)
	@mkdir -p $(dir $@)
	@echo "  USERCC  $<"
	@$(if $(filter $*,$(GLIBC_PROGS)),gcc,$(USER_CC)) $(USER_CFLAGS) -o $@ $<

$(B)/userland/%-glibc: userland/%.c $(wildcard userland/*.h)
	@mkdir -p $(dir $@)
	@echo "  GLIBCC  $<"
	@gcc $(USER_CFLAGS) -pthread -o $@ $<

# The initramfs holds Debian's busybox-static as /bin/sh and its applets,
# fetched once into $(B)/busybox (scripts/fetch-busybox.sh; without network
# the archive is made without it). WITH_BUSYBOX=no leaves it out. Once
# the oracle's Linux has been fetched (make oracle), its binfmt_misc.ko
# goes in too, for the binfmt_misc tests to load on Linux.
WITH_BUSYBOX ?= yes
BUSYBOX_BIN := $(B)/busybox/root/bin/busybox

# Debian's qemu-user-static, fetched the same way (scripts/fetch-qemu-user.sh):
# only its qemu-aarch64-static goes in, to run /hello-aarch64, a tiny aarch64
# program that a host program writes byte by byte. WITH_QEMU_USER=no leaves
# the emulator out.
WITH_QEMU_USER ?= yes
QEMU_AARCH64_BIN := $(B)/qemu-user/root/usr/bin/qemu-aarch64-static

$(B)/host/mkhello-aarch64: scripts/host/mkhello-aarch64.c
	@mkdir -p $(dir $@)
	@echo "  HOSTCC  $<"
	@gcc -O2 -Wall -Wextra -Werror -o $@ $<

$(B)/userland/hello-aarch64: $(B)/host/mkhello-aarch64
	@echo "  GEN     $@"
	@$< $@ && chmod 0755 $@

initramfs: $(B)/initramfs.cpio
$(B)/initramfs.cpio: $(USER_BINS) $(B)/userland/hello-aarch64 scripts/mkinitramfs.sh \
		scripts/fetch-busybox.sh scripts/fetch-qemu-user.sh \
		$(shell find userland/rootfs 2>/dev/null) FORCE
ifeq ($(WITH_BUSYBOX),yes)
	@scripts/fetch-busybox.sh $(B)/busybox
endif
ifeq ($(WITH_QEMU_USER),yes)
	@scripts/fetch-qemu-user.sh $(B)/qemu-user
endif
	@echo "  CPIO    $@"
	@BUSYBOX=$(if $(filter yes,$(WITH_BUSYBOX)),$$(test -x $(BUSYBOX_BIN) && echo $(BUSYBOX_BIN))) \
		QEMU_AARCH64=$(if $(filter yes,$(WITH_QEMU_USER)),$$(test -x $(QEMU_AARCH64_BIN) && echo $(QEMU_AARCH64_BIN))) \
		ORACLE_MODULES=$(B)/oracle/root/lib/modules \
		scripts/mkinitramfs.sh $@ $(B)/userland $(OVERLAY)

iso: $(B)/os.iso
$(B)/os.iso: $(B)/kernel $(B)/initramfs.cpio scripts/mkiso.sh
	scripts/mkiso.sh $@ $(B)/kernel $(B)/initramfs.cpio "$(APPEND)"

setup:
	scripts/setup.sh

run: setup
	$(MAKE) all iso
	$(QEMU) $(QEMU_FLAGS) -cdrom $(B)/os.iso

# Boot without GRUB: QEMU loads the kernel itself (faster).
run-kernel: all
	$(QEMU) $(QEMU_FLAGS) -kernel $(B)/kernel -initrd $(B)/initramfs.cpio -append "$(APPEND)"

test: setup
	$(MAKE) all
	$(MAKE) unit
	tests/run.sh

# Host-side unit tests: mm/ and fs/ compiled as ordinary programs (fs/'s
# compares its system calls with the real Linux ones on this machine).
unit:
	mm/hosttest/run.sh
	fs/hosttest/run.sh

bench: all
	tests/bench.sh

oracle: all
	scripts/oracle.sh

# QEMU waits for gdb (-S) with its gdbstub on :1234; gdb has the terminal,
# so the serial console goes to $(B)/serial.log (tail -f it elsewhere).
gdb: all
	$(QEMU) $(QEMU_MACHINE) -serial file:$(B)/serial.log -kernel $(B)/kernel \
		-initrd $(B)/initramfs.cpio -append "$(APPEND)" -s -S & \
	gdb -q $(B)/kernel -ex 'target remote :1234'; kill %1 2>/dev/null || true

clean:
	rm -rf $(B)

FORCE:
-include $(KOBJ:.o=.d)
