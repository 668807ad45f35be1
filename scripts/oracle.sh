#!/usr/bin/env bash
# oracle.sh [--update] [TEST...] - check the expected outputs against Linux.
#
# Linux is the reference: every tests/cases/SUBJECT/NAME.expected must be what
# Debian's own Linux kernel prints for the same initramfs and command line.
# This script fetches Debian's kernel package into build/oracle (apt-get
# download + dpkg-deb -x: never installed), takes the uncompressed vmlinux
# out of the bzImage (it has a PVH entry note, so QEMU's -kernel boots it
# without the slow decompressor), and runs tests/run.sh with that kernel.
# Tests whose NAME.conf says nolinux are skipped; NAME.kgrep and the
# status and mem keys are ignored (they are about our kernel).
#
#   --update	write NAME.expected from what Linux printed, instead of
#		comparing (the only way expected files should be made)
#   --pending	the tests of tests/pending/ rather than tests/cases/
#   ORACLE_PKG=linux-image-6.1.0-57-amd64  pick a kernel package
#   SMP=N	boot Linux with N CPUs, as tests/run.sh boots ours (a case's
#		smp key wins: Linux gets the CPUs the case asks for)
set -euo pipefail

cd "$(dirname "$0")/.."
. scripts/apt-download.sh
dir=build/oracle
update=0
pending=()
while [ $# -gt 0 ]; do
	case $1 in
	--update) update=1 ;;
	--pending) pending=(--pending) ;;
	*) break ;;
	esac
	shift
done

# The meta package linux-image-amd64 depends on the real one.
find_pkg() {
	apt-cache depends linux-image-amd64 2>/dev/null |
		awk '/Depends: linux-image-[0-9]/ { print $2; exit }'
}

fetch() {
	local pkg=${ORACLE_PKG:-}
	if [ -z "$pkg" ]; then
		pkg=$(find_pkg)
		if [ -z "$pkg" ]; then
			apt-get update -qq
			pkg=$(find_pkg)
		fi
		[ -n "$pkg" ] || { echo "oracle: cannot find Debian's kernel package" >&2; exit 1; }
	fi
	echo "oracle: fetching $pkg" >&2
	rm -rf "$dir"
	mkdir -p "$dir/deb"
	apt_download "$dir/deb" "$pkg" || { echo "oracle: apt-get download $pkg failed" >&2; exit 1; }
	dpkg-deb -x "$dir"/deb/*.deb "$dir/root"

	# The bzImage holds an XZ stream (magic FD 37 7A 58 5A 00): the vmlinux.
	local images=("$dir"/root/boot/vmlinuz-*) vmlinuz off
	vmlinuz=${images[0]}
	for off in $(LC_ALL=C grep -obUaP '\xFD7zXZ\x00' "$vmlinuz" | cut -d: -f1); do
		# (tail is cut short by a SIGPIPE when xz stops after the stream)
		if { tail -c +$((off + 1)) "$vmlinuz" || true; } |
			xz -dc --single-stream > "$dir/vmlinux.tmp" 2>/dev/null &&
			[ "$(head -c 4 "$dir/vmlinux.tmp" | od -An -c | tr -d ' ')" = '177ELF' ]; then
			mv "$dir/vmlinux.tmp" "$dir/vmlinux"
			break
		fi
	done
	rm -f "$dir/vmlinux.tmp"
	[ -f "$dir/vmlinux" ] || { echo "oracle: no vmlinux found in $vmlinuz" >&2; exit 1; }
	basename "$vmlinuz" | sed 's/^vmlinuz-//' > "$dir/version"
	dpkg-deb -f "$dir"/deb/*.deb Version > "$dir/package-version"
}

[ -f "$dir/vmlinux" ] || fetch

# Debian's Linux has binfmt_misc as a module, which the binfmt_misc and
# module tests load from the initramfs, with a few other modules of its own
# (scripts/modules-install.sh copies them from $dir into
# /lib/modules/ITS-RELEASE): make sure each archive (the MODULES=y one
# too, if it was built) was made after the kernel was fetched.
linux_ko=lib/modules/$(cat "$dir/version")/kernel/fs/binfmt_misc.ko
for build in "" MODULES=y; do
	initrd=build/initramfs.cpio
	[ -n "$build" ] && initrd=build/modules-y/initramfs.cpio
	[ -f "$initrd" ] && [ -f "$dir/root/$linux_ko" ] || continue
	# (grep reads it all: with -q, cpio could die of SIGPIPE)
	cpio -it --quiet < "$initrd" 2> /dev/null | grep -x "$linux_ko" > /dev/null && continue
	echo "oracle: rebuilding $initrd with Linux's modules" >&2
	make -s initramfs $build
done
echo "oracle: Linux $(cat "$dir/version") (Debian $(cat "$dir/package-version"))"

KERNEL=$dir/vmlinux ORACLE=1 UPDATE=$update LOG_DIR=build/oracle-logs exec tests/run.sh "${pending[@]}" "$@"
