#!/usr/bin/env bash
# bench.sh - print speed and memory figures (make bench). Figures only: no
# pass or fail, and TCG timings vary by tens of percent between boots.
#
# Boots the kernel once with "hello ; microbench N ; bench N true ;
# forkbench 8 M" (each of them in /usr/lib/exec-tests, as every program
# below) and prints
#  - the host's wall time from QEMU's start to the first line a user
#    program prints (init's first command),
#  - what microbench measures: one getppid, one anonymous page fault,
#    fork + _exit + wait4 of a small process, and the free memory a
#    sleeping forked child costs, and a sleeping thread,
#  - what bench measures inside the guest: the guest's clock at its start,
#    memory, and the time of one fork (or vfork) + execve + wait4 cycle,
#  - what forkbench measures: fork + exit + wait4 of a process with 8 MiB
#    of touched memory, with a child that writes nothing and with one that
#    writes every page (what copy-on-write saves, and what it defers),
#  - bench -f bench.plan: the rows of
#    userland/rootfs/usr/lib/exec-tests/bench.plan, fork+exec+wait4 of a
#    program with 8 MiB of read-only data untouched and read page by page
#    (fault-around), of true with 1000 arguments of 100 bytes (copy_strings), of glibc's dynamic and static-pie programs and of
#    musl's dynamic one (userland/elf/kinds/quiet.c),
#  - when the initramfs has busybox, bench M /bin/true again: Debian's
#    2 MB static (glibc) busybox as the program,
#  - when it has Debian's qemu-aarch64-static, the rows of
#    userland/rootfs/usr/lib/exec-tests/bench-qemu.plan: the aarch64 hello run by the
#    emulator directly, and by its own name through binfmt_misc (Debian's
#    entry, registered by bm_setup from the package's binfmt.d file).
# With Linux, a last table puts the minimum of each row side by side: our
# figure, Linux's, and their ratio.
#
# Then, without ICOUNT, a second boot with BENCH_SMP CPUs (default 2) and
# multi-threaded TCG runs scalebench (userland/bench/scalebench.c): two
# CPU-bound processes at once against one after the other, and fork +
# execve + wait4 throughput with one worker pinned to each CPU against one
# worker.
# Its "scaling" rows are ratios, side by side with Linux's. (Under ICOUNT
# the guest clock counts the instructions of every CPU together, so
# parallelism cannot show: the boot is skipped.)
#
# Under QEMU's TCG, a program whose code lands at new addresses is
# translated anew: with address space randomization, every run of a
# dynamically linked program translates ld.so and libc again, and that
# costs both kernels the same milliseconds of user time. The rows marked
# ADDR_NO_RANDOMIZE run the same programs at fixed addresses, where the
# translations are reused and what is left is mostly the kernel's work.
# If build/oracle/vmlinux exists (make oracle), Linux is booted the same way
# in the same run, for comparison.
#
# ICOUNT=1 counts instructions instead (docs/measuring.md): QEMU runs with
# -icount shift=0,sleep=off,align=off, where the guest's clock advances one
# nanosecond per executed instruction, so every "us" a program prints is
# thousands of instructions, the same from run to run within a few percent
# and free of the host's load and of TCG's translation time. The table then
# says "instructions per operation". Without ICOUNT the figures are wall
# time, what a student feels in make run.
#
# Environment: ACCEL=tcg|kvm (default tcg), ICOUNT, BENCH_SMP, CYCLES (default 200),
# FORK_CYCLES (forkbench's, default 50), BUSYBOX_CYCLES (default 50),
# KERNEL (default build/kernel), INITRD (default build/initramfs.cpio).
set -euo pipefail

cd "$(dirname "$0")/.."
ACCEL=${ACCEL:-tcg}
CYCLES=${CYCLES:-200}
FORK_CYCLES=${FORK_CYCLES:-50}
BUSYBOX_CYCLES=${BUSYBOX_CYCLES:-50}
MICRO_CYCLES=${MICRO_CYCLES:-100}
ICOUNT=${ICOUNT:-}
KERNEL=${KERNEL:-build/kernel}
INITRD=${INITRD:-build/initramfs.cpio}
LINUX=build/oracle/vmlinux

# Microseconds since the epoch, from bash's own clock (no fork per line).
now_us() { local t=$EPOCHREALTIME; echo $((10#${t/[.,]/})); }
seconds() { printf '%d.%03d s' $(($1 / 1000000)) $(($1 / 1000 % 1000)); }

# boot LABEL KERNEL: boot once, print the figures.
boot() {
	local label=$1 kernel=$2 start first='' line cpu=(-cpu "max,la57=off") icount=()
	[ "$ACCEL" = tcg ] || cpu=(-cpu host)
	[ -z "$ICOUNT" ] || icount=(-icount shift=0,sleep=off,align=off)

	echo "== $label ($kernel, $ACCEL)"
	start=$(now_us)
	while IFS= read -r line; do
		line=${line%$'\r'}
		[[ $line =~ ^\[\ *[0-9]+\.[0-9]+\]\  ]] && continue
		if [ -z "$first" ]; then
			first=$(now_us)
			echo "QEMU start to the first user line: $(seconds $((first - start))) (host wall time)"
		fi
		[ "$line" = "Hello, world!" ] || [ "$line" = "hello from aarch64" ] || echo "$line"
	done < <(timeout 900 qemu-system-x86_64 -accel "$ACCEL" "${cpu[@]}" "${icount[@]}" -m 256M \
		-kernel "$kernel" -initrd "$INITRD" \
		-append "console=ttyS0 quiet -- /usr/lib/exec-tests/hello ; /usr/lib/exec-tests/microbench $MICRO_CYCLES ; /usr/lib/exec-tests/bench $CYCLES /usr/lib/exec-tests/true ; /usr/lib/exec-tests/bench -f /usr/lib/exec-tests/bench.plan ; /usr/lib/exec-tests/forkbench 8 $FORK_CYCLES$busybox$qemu" \
		-serial stdio -display none -no-reboot \
		-device isa-debug-exit,iobase=0xf4,iosize=0x04 < /dev/null 2>&1 || echo "QEMU exit status $?")
	echo "QEMU start to power-off: $(seconds $(($(now_us) - start))) (host wall time)"
}

# boot_smp LABEL KERNEL: boot with BENCH_SMP CPUs, print scalebench's figures.
boot_smp() {
	local cpu=(-cpu "max,la57=off") accel=$ACCEL
	[ "$ACCEL" = tcg ] && accel=tcg,thread=multi || cpu=(-cpu host)
	echo "== $1 ($2, -smp $BENCH_SMP, $accel)"
	timeout 900 qemu-system-x86_64 -accel "$accel" -smp "$BENCH_SMP" "${cpu[@]}" -m 256M \
		-kernel "$2" -initrd "$INITRD" \
		-append "console=ttyS0 quiet -- /usr/lib/exec-tests/scalebench $SCALE_SPINS $SCALE_CYCLES" \
		-serial stdio -display none -no-reboot -device isa-debug-exit,iobase=0xf4,iosize=0x04 \
		< /dev/null 2>&1 | tr -d '\r' | grep -v '^\[ *[0-9]*\.[0-9]*\] ' || true
}
BENCH_SMP=${BENCH_SMP:-2}
SCALE_SPINS=${SCALE_SPINS:-100000000}
SCALE_CYCLES=${SCALE_CYCLES:-100}

[ -f "$KERNEL" ] || { echo "bench.sh: $KERNEL is missing: run make first" >&2; exit 2; }
busybox=
if cpio -it --quiet < "$INITRD" | grep -x '\(\./\)\?bin/busybox' > /dev/null; then
	busybox=" ; /usr/lib/exec-tests/bench $BUSYBOX_CYCLES /bin/true"
fi
qemu=
if cpio -it --quiet < "$INITRD" | grep -x '\(\./\)\?usr/bin/qemu-aarch64-static' > /dev/null; then
	qemu=" ; /usr/lib/exec-tests/bm_setup /usr/lib/binfmt.d/qemu-aarch64.conf ; /usr/lib/exec-tests/bench -f /usr/lib/exec-tests/bench-qemu.plan"
fi
# The minimum of each "... of X, N cycles: min T us" row: "label<TAB>T";
# "memory per ...: K KiB" rows: "label<TAB>K".
mins() { sed -n 's/^\(.*\), [0-9]* cycles: min \([0-9.]*\) us.*/\1\t\2/p'; }
memory() { sed -n 's/^\(memory per [^:]*\): \(-\?[0-9]*\) KiB.*/\1\t\2/p'; }
# side_by_side HEADING UNIT SCALE: the rows of both kernels joined on their
# label (stdin: "label<TAB>ours<TAB>Linux"), each figure times SCALE.
side_by_side() {
	echo
	echo "== $1 (ratio = ours / Linux)"
	awk -F '\t' -v unit="$2" -v scale="$3" '
		function fig(x) { return sprintf(x < 100 && x != int(x) ? "%10.3f" : "%10.0f", x) }
		{ printf "%-84s %s %s %s %s  %.2fx\n", $1, fig($2 * scale), unit,
			fig($3 * scale), unit, $3 ? $2 / $3 : 0 }'
}
scaling() { sed -n 's/^scaling \([^:]*\): \([0-9.]*\)$/\1\t\2/p'; }
join_rows() { LC_ALL=C join -t $'\t' <($1 <<< "$ours" | LC_ALL=C sort) <($1 <<< "$linux" | LC_ALL=C sort); }

ours=$(boot "our kernel" "$KERNEL" | tee /dev/stderr)
if [ -f "$LINUX" ]; then
	echo >&2
	linux=$(boot "Linux $(cat build/oracle/version 2>/dev/null)" "$LINUX" | tee /dev/stderr)
	if [ -n "$ICOUNT" ]; then
		join_rows mins | side_by_side "instructions per operation, minimum of each row" instr 1000
	else
		join_rows mins | side_by_side "wall time, minimum of each row" us 1
	fi
	join_rows memory | side_by_side "free memory a sleeper costs" KiB 1
fi

[ -z "$ICOUNT" ] || exit 0
echo
ours=$(boot_smp "our kernel" "$KERNEL" | tee /dev/stderr)
if [ -f "$LINUX" ]; then
	linux=$(boot_smp "Linux $(cat build/oracle/version 2>/dev/null)" "$LINUX" | tee /dev/stderr)
	join_rows scaling | side_by_side "scaling with $BENCH_SMP CPUs (wall time)" "" 1
fi
