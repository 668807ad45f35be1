#!/usr/bin/env bash
# tests/host/run.sh SUITE [ARGS] - the host tests: kernel sources compiled
# as ordinary programs on this machine (tests/README.md).
#
#   tests/host/run.sh unit                     make unit: mm, then fs
#   tests/host/run.sh mm                       "ALL OK" or the first failed check
#   tests/host/run.sh fs [ARCHIVE.cpio]        as root: it tests setuid too
#   tests/host/run.sh fuzz [RUNS [NAME...]]    make fuzz (FUZZ_RUNS)
#
# Each suite's sources are in its folder: mm/, fs/, fuzz/. They include
# kernel files by relative path (e.g. fs/ktest.c: "../../../fs/vfs.h"), so
# they stay three folders below the top of the tree.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/../.." && pwd)

# A directory of our own for a suite's objects (several trees may run the
# host tests at once), removed at exit.
# It is the caller's local "out", so the trap gets the path itself.
scratch() {
	out=$(mktemp -d "${TMPDIR:-/tmp}/$1-hosttest.XXXXXX")
	# shellcheck disable=SC2064
	trap "rm -rf '$out'" EXIT
}

# mm: the memory code of mm/ on the host.
#
# The files of mm/ are compiled as an ordinary Linux program. "Physical
# memory" is 64 MiB of host memory mmapped at a fake direct-map base (the
# kernel's PHYS_MAP_BASE is not a user address, so a copy of include/ gets
# another value), and x86.h is replaced by stubs that record CR3 writes.
# The page tables are built exactly as in the kernel; only the CPU never
# walks them. uaccess.S runs for real: a SIGSEGV handler (segv.c) plays the
# page-fault handler and resumes at uaccess_fixup(rip), so the -EFAULT paths
# are tested. Prints "ALL OK" or the first failed check.
suite_mm() {
	local dir=$here/mm out f srcs=()
	scratch mm
	mkdir -p "$out/inc"
	cp "$repo"/include/*.h "$out/inc/"
	rm "$out/inc/string.h" # the host's is compatible
	sed -i 's/^#define PHYS_MAP_BASE .*/#define PHYS_MAP_BASE 0x200000000000UL/' "$out/inc/kernel.h"
	cp "$dir/x86.h" "$out/inc/x86.h"
	local cflags=(-std=gnu11 -O1 -g -Wall -Wextra -Wno-unused-parameter -fsanitize=undefined -DHOST_PERCPU)
	# segv.c uses the host's <signal.h>, which a kernel header of the same
	# name would hide: it is compiled apart, without the copy of include/.
	gcc "${cflags[@]}" -c -o "$out/segv.o" "$dir/segv.c"
	# Not the kernel's own mappings (they need the real machine: ioremap too), nor the
	# OOM killer (it needs processes), nor memfd (it needs the VFS).
	for f in "$repo"/mm/*.c; do
		case $(basename "$f") in kernel_map.c | kstack.c | vmalloc.c | ioremap.c | oom_kill.c | kasan.c | memfd.c) ;; *) srcs+=("$f") ;; esac
	done
	gcc "${cflags[@]}" -I"$out/inc" -o "$out/mmtest" "$dir/test.c" "$out/segv.o" \
		"${srcs[@]}" "$repo/mm/uaccess.S"
	"$out/mmtest"
}

# fs [ARCHIVE.cpio]: the filesystem code on the host, against Linux.
#
# The files of fs/ (all but exec and the binfmt handlers) are compiled for
# the host with AddressSanitizer, on top of stubs.c (kmalloc is malloc, the
# uaccess helpers treat addresses below 64 KiB as faults, one fake task).
# test.c is one list of system calls built twice: against this kernel's
# sys_* functions, and against the host's real Linux in a tmpfs directory
# (/dev/shm, since our ramfs mimics tmpfs). The two transcripts must agree
# line for line. ktest.c then checks what user space cannot see (leaks,
# ETXTBSY, the tty line discipline, cpio parsing) against kernel.expected;
# given an archive, it also unpacks it and lists the result.
# shellcheck disable=SC2120 # (unit runs it without an archive)
suite_fs() {
	local dir=$here/fs out f b objs=()
	scratch fs
	mkdir -p "$out/obj"
	local san=(-fsanitize=address,undefined -fno-omit-frame-pointer) kf
	kf=(-std=gnu11 -O1 -g -Wall -Wextra -Werror -Wno-unused-parameter -nostdinc -ffreestanding -DHOST_PERCPU
		-isystem "$(gcc -print-file-name=include)" -I"$dir/inc" -I"$repo/include" "${san[@]}")
	# kernel/log_buf.c: the kernel log behind /dev/kmsg (fs/kmsg.c);
	# lib/radix_tree.c: where ramfs keeps a file's pages.
	for f in "$repo"/fs/*.c "$repo"/fs/proc/*.c "$repo"/kernel/log_buf.c "$repo"/lib/radix_tree.c; do
		b=$(basename "$f" .c)
		case $b in exec | exec_* | binfmt_* | exports) continue ;; esac
		b=$(basename "$(dirname "$f")")_$b
		gcc "${kf[@]}" -c "$f" -o "$out/obj/$b.o"
		objs+=("$out/obj/$b.o")
	done
	gcc "${kf[@]}" -Wno-builtin-declaration-mismatch -c "$dir/stubs.c" -o "$out/obj/stubs.o"
	gcc "${kf[@]}" -Wno-builtin-declaration-mismatch -Wno-format -c "$dir/ktest.c" -o "$out/obj/ktest.o"
	gcc -O1 -g -Wno-int-conversion -Wno-unused-result "${san[@]}" -c "$dir/test.c" -o "$out/obj/test.o"
	gcc "${san[@]}" -o "$out/fstest" "$out/obj/test.o" "$out/obj/stubs.o" "$out/obj/ktest.o" "${objs[@]}"
	gcc -O1 -g -DREAL -Wno-int-conversion -Wno-unused-result -o "$out/fsreal" "$dir/test.c"

	"$out/fsreal" > "$out/linux.out"
	"$out/fstest" > "$out/ours.out"
	if ! diff -u "$out/linux.out" "$out/ours.out"; then
		echo "FAIL: the transcripts differ (- Linux, + ours)"
		return 1
	fi
	echo "syscalls: same as Linux ($(grep -c '^[0-9]' "$out/ours.out") calls)"
	"$out/fstest" k > "$out/kernel.out"
	if ! diff -u "$dir/kernel.expected" "$out/kernel.out"; then
		echo "FAIL: kernel-side tests differ from kernel.expected"
		return 1
	fi
	echo "kernel-side: as expected (leaks, ETXTBSY, O_PATH, tty, cpio)"
	if [ $# -gt 0 ]; then
		"$out/fstest" k "$1"
	fi
}

# fuzz [RUNS [NAME...]]: build the host fuzzers of the kernel's parsers
# and run each for RUNS iterations (make fuzz; FUZZ_RUNS, default 100000).
#
# Each parser is compiled from its own kernel file, as it is, into an
# ordinary Linux program with libFuzzer (which mutates inputs to reach new
# code), AddressSanitizer (any out-of-bounds access, use after free or
# leak) and UBSan (any undefined behaviour): Debian's clang. The harness
# fuzz/fuzz_NAME.c stands in for the rest of the kernel and checks what
# the parser hands on (see each file):
#
#   cmdline   the kernel command line        kernel/cmdline.c
#   script    the "#!" line                  fs/binfmt_script.c
#   cpio      the initramfs unpacker         fs/initramfs.c
#   elf       the ELF header and segments    fs/binfmt_elf.c
#   binfmt_misc  registrations and matching fs/binfmt_misc.c
#
# Runs start from the seeds of fuzz/corpus/NAME (fuzz/make-seeds.sh made
# them) with a fixed random seed, so a run is reproducible; the inputs
# libFuzzer finds go to build/fuzz/corpus/NAME, a fresh directory each
# time. A crash leaves its input in build/fuzz/crash-NAME-*: reproduce it
# with build/fuzz/fuzz_NAME FILE. For a long run by hand:
#   tests/host/run.sh fuzz 10000000 cpio
suite_fuzz() {
	local dir=$here/fuzz out=$repo/build/fuzz runs=${1:-100000} n log failed=0
	[ $# -gt 0 ] && shift
	local names=("$@")
	[ ${#names[@]} = 0 ] && names=(cmdline script cpio elf binfmt_misc)
	local cc=${CLANG:-clang}
	command -v "$cc" > /dev/null || { echo "fuzz: no $cc (scripts/setup.sh fuzz installs it)" >&2; return 1; }

	local flags=(-g -O1 -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=undefined -DHOST_PERCPU
		-nostdinc -isystem "$("$cc" -print-file-name=include)"
		-I"$dir/inc" -I"$repo/include" -I"$repo/fs"
		-Wall -Wextra -Werror -Wno-unused-parameter
		-Wno-incompatible-library-redeclaration -Wno-builtin-requires-header)
	mkdir -p "$out"
	for n in "${names[@]}"; do
		[ -f "$dir/fuzz_$n.c" ] || { echo "fuzz: no fuzzer $n" >&2; return 2; }
		echo "  CLANG   fuzz_$n"
		"$cc" "${flags[@]}" -o "$out/fuzz_$n" "$dir/fuzz_$n.c" "$dir/host.c" \
			"$dir/unreached.c"
		rm -rf "$out/corpus/$n"
		mkdir -p "$out/corpus/$n"
		log=$out/$n.log
		if (cd "$out" && ./"fuzz_$n" -runs="$runs" -seed=1 -timeout=10 \
			-artifact_prefix="$out/crash-$n-" "corpus/$n" "$dir/corpus/$n") > "$log" 2>&1; then
			local done_line cov
			done_line=$(grep -a '^Done ' "$log" | tail -1)
			cov=$(grep -aoE 'cov: [0-9]+' "$log" | tail -1)
			echo "fuzz $n: ${done_line#Done }, $cov edges, $(ls "$out/corpus/$n" | wc -l) new inputs, no crash"
		else
			failed=1
			echo "FAIL fuzz $n (log: $log)"
			grep -a -E 'ERROR|check failed|SUMMARY|Test unit written' "$log" | head -8 | sed 's/^/    /'
		fi
	done
	return $failed
}

suite=${1:-}
[ $# -gt 0 ] && shift
case $suite in
unit)
	# Each suite in a subshell: its own scratch directory and EXIT trap.
	(suite_mm)
	(suite_fs) ;;
mm | fs | fuzz) "suite_$suite" "$@" ;;
*)
	echo "usage: tests/host/run.sh unit | mm | fs [ARCHIVE.cpio] | fuzz [RUNS [NAME...]]" >&2
	exit 2 ;;
esac
