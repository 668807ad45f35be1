#!/usr/bin/env bash
# fetch-kselftests.sh DIR - Linux's own selftests, built from the source of
# the reference kernel, for `make kselftest`.
#
# Debian ships the exact source of its kernel as linux-source-6.1 (the
# oracle's, 6.1.x): `apt-get download` fetches it (never installed on the
# host) and the parts the selftests need are unpacked into DIR/src. Each
# directory of SELFTEST_DIRS is then built by its own Makefile, through
# the selftests' top-level `make install`, as a user would build it:
# linked as the Makefile says, mostly with the shared glibc, which the
# Debian image they are laid over has (statically linked, the 100 programs
# would take 90 MB of the guest's memory). The kernel headers are the
# host's (linux-libc-dev, 6.1 on Debian 12); libcap's (headers, libcap.so)
# come from Debian's libcap-dev, unpacked beside them, and the guest gets
# libcap2's and libgcc-s1's libraries. The runner, /usr/lib/kselftests/run, is
# scripts/kselftest-run.sh, which the Makefile adds.
#
# Afterwards:
#   DIR/root/usr/lib/kselftests/DIR/PROG   the tests, as `make install` lays them out
#   DIR/root/usr/lib/kselftests/list      "DIR:PROG" a line: what the runner runs
#   DIR/version                           the source package's version
#   DIR/build.log                         the build's output (a test that
#                                         does not build is missing from list)
# Cached: with DIR/version present nothing is done; `rm -r DIR` rebuilds.
# Without network the reason goes to DIR/unavailable and the script exits 0.
set -euo pipefail
. "$(dirname "$0")/apt-download.sh"

if [ $# != 1 ]; then
	echo "usage: $0 DIR" >&2
	exit 2
fi
dir=$(mkdir -p "$1" && cd "$1" && pwd)
pkg=${LINUX_SOURCE_PKG:-linux-source-6.1}

# The directories, in the order they run; those built as their Makefile
# links them (not static); and vm's standalone programs, which its
# Makefile builds but runs only through run_vmtests.sh (hugetlb, userfaultfd
# and the rest of that script need more than a test each).
SELFTEST_DIRS="exec clone3 futex vDSO proc mincore sigaltstack vm x86 core kcmp membarrier
	pidfd prctl rseq timers size splice sync ipc memfd timens nsfs"
VM_STANDALONE="map_fixed_noreplace map_populate mlock2-tests mlock-random-test mremap_dontunmap
	mremap_test memfd_secret mrelease_test on-fault-limit"
# timers: the ones that take seconds, not minutes (raw_skew, inconsistency-check
# and threadtest run for minutes on purpose).
TIMERS_QUICK="posix_timers nanosleep nsleep-lat set-timer-lat mqueue-lat rtcpie"

# Built already, for the same directories: nothing to do.
[ -f "$dir/version" ] && [ "$(cat "$dir/dirs" 2> /dev/null)" = "$(echo $SELFTEST_DIRS)" ] && exit 0
if [ -f "$dir/unavailable" ]; then
	echo "kselftest: not available ($(cat "$dir/unavailable")); rm -r $dir to try again" >&2
	exit 0
fi

give_up() {
	echo "$1" > "$dir/unavailable"
	echo "kselftest: WARNING: $1; make kselftest will skip" >&2
	exit 0
}

command -v apt-get > /dev/null && command -v dpkg-deb > /dev/null ||
	give_up "apt-get or dpkg-deb is missing"

echo "kselftest: fetching Debian's $pkg, libcap-dev" >&2
rm -rf "$dir/deb" "$dir/src" "$dir/libcap" "$dir/root" "$dir/out"
apt_download "$dir/deb" "$pkg" libcap-dev libcap2 libgcc-s1 || give_up "apt-get download $pkg failed (no network?)"
for deb in "$dir"/deb/libcap*.deb; do
	dpkg-deb -x "$deb" "$dir/libcap"
done
for deb in "$dir"/deb/libcap2_*.deb "$dir"/deb/libgcc-s1_*.deb; do
	dpkg-deb -x "$deb" "$dir/root"
done
rm -rf "$dir/root/usr/share"
src_deb=$(ls "$dir"/deb/"$pkg"_*.deb)
# compiler_types.h: memfd's Makefile puts the kernel's include/ before
# the uapi headers, whose stddef.h includes it.
echo "kselftest: unpacking the selftests of $(basename "$src_deb")" >&2
mkdir -p "$dir/src"
dpkg-deb --fsys-tarfile "$src_deb" | tar -xO --wildcards './usr/src/linux-source-*.tar.xz' |
	xz -dc | tar -x -C "$dir/src" --strip-components=1 --wildcards \
		'*/tools/testing/selftests/*' '*/tools/include/*' '*/tools/arch/x86/include/*' \
		'*/scripts/subarch.include' '*/arch/x86/include/*' '*/include/uapi/*' '*/usr/*' \
		'*/mm/gup_test.h' '*/arch/x86/entry/syscalls/syscall_64.tbl' \
		'*/include/linux/compiler_types.h' ||
	give_up "unpacking $src_deb failed"

stage=$dir/stage
root=$dir/root/usr/lib/kselftests
mkdir -p "$root" "$stage"
: > "$dir/build.log"
: > "$root/list"
caps="-I$dir/libcap/usr/include -L$dir/libcap/usr/lib/x86_64-linux-gnu"
for d in $SELFTEST_DIRS; do
	cc="gcc $caps"
	echo "kselftest: building $d" >&2
	if make -C "$dir/src/tools/testing/selftests" TARGETS="$d" CC="$cc" O="$dir/out" \
		INSTALL_PATH="$stage/$d" install >> "$dir/build.log" 2>&1; then
		cp -a "$stage/$d/$d" "$root/"
	else
		# One program that does not build stops `make install`: keep
		# what did build (vm's, which need libnuma, are not run here).
		echo "kselftest: $d: some tests did not build (see $dir/build.log)" >&2
		make -k -C "$dir/src/tools/testing/selftests/$d" CC="$cc" OUTPUT="$dir/out/kselftest/$d" \
			>> "$dir/build.log" 2>&1 || true
		cp -a "$dir/out/kselftest/$d" "$root/" 2> /dev/null || continue
	fi
	case $d in
	vm) for p in $VM_STANDALONE; do
		[ -x "$root/vm/$p" ] && echo "vm:$p"
	    done ;;
	timers) for p in $TIMERS_QUICK; do echo "timers:$p"; done ;;
	# 16 MiB alignment: 50 MB files of padding each, too big for the
	# guest's 256 MiB (the 4 KiB and 2 MiB ones run)
	exec) grep -v 'load_address.*0x1000000$' "$stage/$d/kselftest-list.txt"
	      rm -f "$root"/exec/load_address*0x1000000 ;;
	# run_param_test.sh: the param tests in every configuration, a stress
	# run of many minutes (the programs themselves run)
	rseq) grep -v 'run_param_test.sh$' "$stage/$d/kselftest-list.txt" ;;
	# memfd_test only: the fuse test needs a FUSE mount, the hugetlbfs one
	# reserved huge pages (neither exists here)
	memfd) echo "memfd:memfd_test" ;;
	*) cat "$stage/$d/kselftest-list.txt" 2> /dev/null ;;
	esac >> "$root/list"
done
rm -rf "$stage" "$dir/out"
dpkg-deb -f "$src_deb" Version > "$dir/version"
echo $SELFTEST_DIRS > "$dir/dirs"
echo "kselftest: $(wc -l < "$root/list") tests of $pkg $(cat "$dir/version")" >&2
