#!/usr/bin/env bash
# mkinitramfs.sh OUT.cpio USERLAND_DIR [OVERLAY_DIR...]
#
# Build the initramfs: a cpio "newc" archive, made by the real cpio tool,
# that boots our kernel and Linux alike. Its root is laid out as a Debian
# user expects it (bin dev etc home lib proc root sbin sys tmp usr var):
# /init, and every other program of USERLAND_DIR in /usr/lib/exec-tests
# (the test programs, where a distribution puts a package's installed
# tests), the article's do_execve, show_info and show_info.sh also in
# /root (the shell's home: ./do_execve ./show_info.sh), the device nodes
# /dev/console (5,1) and /dev/null (1,3), the symlink /dev/fd ->
# /proc/self/fd, the empty directories,
# the files of userland/rootfs/ as they are, and then each OVERLAY_DIR copied
# on top, in order (make run OVERLAY=dir; Debian's packages for
# ROOTFS=debian). The root is
# staged beside OUT.cpio: build/initramfs.cpio's in build/initramfs-root/.
#
# An archive is remade only when what it is made of changed: OUT.inputs
# keeps the names, sizes, times and modes of every input (the fingerprint
# below); when they are the same as last time, OUT is left as it is, and
# so is its time stamp, and make does not remake what depends on it (the
# ISO image).
#
# PROGRAMS="NAME..." takes only those programs of USERLAND_DIR (the
# Debian image has init and the article's few, not the test programs).
#
# MODULES_TREE=DIR (the build's modules, laid out by modules-install.sh)
# is copied in before the overlay: DIR/lib/modules/RELEASE/...
# MUSL_LDSO=PATH and GLIBC_ROOT=DIR add the dynamic loaders, SHLIBS=PATHS
# shared libraries into /lib (see below).
#
# BUSYBOX=PATH (the binary of Debian's busybox-static, see fetch-busybox.sh)
# adds /bin/busybox and its applet links as Debian's initramfs-tools does
# (its hook zz-busybox): the binary is asked for its list of applets
# (busybox --list-full, run on the host), /usr is stripped from each path,
# a bare name goes to /bin, and each applet is a hard link to /bin/busybox
# unless that path already exists. /bin/sh is one of them.
#
# QEMU_USER_ROOT=DIR (Debian's qemu-user-static as fetch-qemu-user.sh
# keeps it) adds its aarch64 emulator where the package installs it,
# /usr/bin/qemu-aarch64-static, with the package's files that register it
# with binfmt_misc (/usr/libexec/qemu-binfmt/aarch64-binfmt-P,
# /usr/lib/binfmt.d/qemu-aarch64.conf, /usr/share/binfmts/qemu-aarch64):
# /usr/lib/exec-tests/hello-aarch64 and /usr/lib/exec-tests/args-aarch64 run through it.
#
# SYSTEM_MAP=PATH (the kernel's symbols, as the build writes them) goes to
# /boot/System.map, and READPROFILE=PATH (util-linux's readprofile, from
# Debian's package) to /usr/sbin/readprofile, where Debian puts them: the
# profiler's tools (docs/measuring.md).
#
# Every file gets the same time stamp, MTIME (seconds since the epoch;
# default 1421625600, 2015-01-19 UTC, the month of LWN's "How programs get
# run"): the archive is then the same from build to build, and `ls -l`
# prints the same on every boot.
set -euo pipefail

if [ $# -lt 2 ]; then
	echo "usage: $0 OUT.cpio USERLAND_DIR [OVERLAY_DIR...]" >&2
	exit 2
fi
out=$1
userland=$2
shift 2
overlays=("$@")

if [ "$(id -u)" != 0 ]; then
	echo "$0: must run as root: the archive needs device nodes made with mknod" >&2
	exit 1
fi
[ -d "$userland" ] || { echo "$0: no directory $userland" >&2; exit 1; }
for overlay in "${overlays[@]}"; do
	if [ ! -d "$overlay" ]; then
		echo "$0: overlay $overlay is not a directory" >&2
		exit 1
	fi
done
[ -x "$userland/init" ] || { echo "$0: $userland/init is missing" >&2; exit 1; }

rootfs=$(dirname "$0")/../userland/rootfs

# Everything the archive is made of, one line a file: what this script
# reads, and how it is asked to lay it out.
fingerprint() {
	local files=("$0" "$userland" "${overlays[@]}")
	[ -d "$rootfs" ] && files+=("$rootfs")
	for var in QEMU_USER_ROOT MUSL_LDSO GLIBC_ROOT MODULES_TREE BUSYBOX SYSTEM_MAP READPROFILE; do
		[ -n "${!var:-}" ] && files+=("${!var}")
	done
	# shellcheck disable=SC2206 # SHLIBS is a list of paths
	files+=(${SHLIBS:-})
	echo "$*" "${MTIME:-}" "${PROGRAMS:-}" "${QEMU_USER_ROOT:-}" "${MUSL_LDSO:-}" "${GLIBC_ROOT:-}" \
		"${MODULES_TREE:-}" "${BUSYBOX:-}" "${SHLIBS:-}" "${SYSTEM_MAP:-}" "${READPROFILE:-}"
	find -H "${files[@]}" -printf '%p %s %T@ %m %l\n' | LC_ALL=C sort
}
inputs=$(fingerprint "$out" "$userland" "${overlays[@]}")
if [ -f "$out" ] && [ "$inputs" = "$(cat "$out.inputs" 2>/dev/null)" ]; then
	exit 0
fi
echo "  CPIO    $out"

out_dir=$(dirname "$out")
mkdir -p "$out_dir"
root=${out%.cpio}-root
tests=$root/usr/lib/exec-tests
rm -rf "$root"
mkdir -p "$root"/{dev,etc,home,proc,root,sys,tmp,var} "$tests"
chmod 1777 "$root/tmp"
chmod 0700 "$root/root"

for prog in "$userland"/*; do
	[ -f "$prog" ] && [ -x "$prog" ] || continue
	name=$(basename "$prog")
	case " ${PROGRAMS:-$name} " in
	*" $name "*) ;;
	*) continue ;;
	esac
	if [ "$name" = init ]; then
		install -m 0755 "$prog" "$root/init"
	else
		install -m 0755 "$prog" "$tests/"
	fi
done

if ! mknod -m 0600 "$root/dev/console" c 5 1 || ! mknod -m 0666 "$root/dev/null" c 1 3; then
	echo "$0: mknod failed (a container without CAP_MKNOD?)" >&2
	exit 1
fi
# /dev/fd/N names descriptor N (fexecve, execveat's /dev/fd/N names, bash's
# process substitution), through procfs, as udev and initramfs-tools set it up.
ln -s /proc/self/fd "$root/dev/fd"

# Files that are not compiled (scripts for the exec tests, ...) live in
# userland/rootfs/ and are copied as they are, modes included.
if [ -d "$rootfs" ]; then
	cp -a "$rootfs/." "$root/"
fi

if [ -n "${QEMU_USER_ROOT:-}" ]; then
	cp -a "$QEMU_USER_ROOT/." "$root/"
fi

# The dynamic loaders, for dynamically linked programs: musl's (the host's
# musl-tools installs it: musl's libc.so is its own loader) as
# MUSL_LDSO=PATH, and Debian's glibc (the libc6 package, unpacked by
# fetch-debian.sh) as GLIBC_ROOT=DIR, laid out as Debian lays them out.
if [ -n "${MUSL_LDSO:-}" ]; then
	mkdir -p "$root/lib"
	install -m 0755 "$MUSL_LDSO" "$root/lib/ld-musl-x86_64.so.1"
fi
# SHLIBS: shared libraries of the test programs, into /lib.
for lib in ${SHLIBS:-}; do
	mkdir -p "$root/lib"
	install -m 0755 "$lib" "$root/lib/"
done
if [ -n "${GLIBC_ROOT:-}" ]; then
	mkdir -p "$root/lib/x86_64-linux-gnu" "$root/lib64"
	for f in ld-linux-x86-64.so.2 libc.so.6; do
		install -m 0755 "$GLIBC_ROOT/lib/x86_64-linux-gnu/$f" "$root/lib/x86_64-linux-gnu/$f"
	done
	ln -s /lib/x86_64-linux-gnu/ld-linux-x86-64.so.2 "$root/lib64/ld-linux-x86-64.so.2"
fi

if [ -n "${SYSTEM_MAP:-}" ]; then
	install -D -m 0644 "$SYSTEM_MAP" "$root/boot/System.map"
fi
if [ -n "${READPROFILE:-}" ]; then
	install -D -m 0755 "$READPROFILE" "$root/usr/sbin/readprofile"
fi

if [ -n "${MODULES_TREE:-}" ]; then
	cp -a "$MODULES_TREE/." "$root/"
fi
for overlay in "${overlays[@]}"; do
	cp -a "$overlay/." "$root/"
done

# The article's programs in root's home too (hard links: one copy).
for f in do_execve show_info show_info.sh; do
	[ -f "$tests/$f" ] && ln "$tests/$f" "$root/root/$f"
done

# Last, as initramfs-tools runs its busybox hook last: an applet link never
# replaces a file that is already there (nor writes through a hard link).
if [ -n "${BUSYBOX:-}" ]; then
	[ -x "$BUSYBOX" ] || { echo "$0: BUSYBOX=$BUSYBOX is not an executable" >&2; exit 1; }
	mkdir -p "$root/bin" "$root/sbin"
	install -m 0755 "$BUSYBOX" "$root/bin/busybox"
	for applet in $("$BUSYBOX" --list-full); do
		case $applet in
		usr/*) applet=${applet#usr/} ;;
		*/*) ;;
		*) applet=bin/$applet ;;
		esac
		mkdir -p "$root/$(dirname "$applet")"
		[ -e "$root/$applet" ] || ln "$root/bin/busybox" "$root/$applet"
	done
fi

find "$root" -exec touch -h -d "@${MTIME:-1421625600}" {} +

tmp=$out.tmp
(cd "$root" && find . -mindepth 1 | LC_ALL=C sort | cpio -o -H newc -R 0:0 --quiet) > "$tmp"
mv "$tmp" "$out"
echo "$inputs" > "$out.inputs"
