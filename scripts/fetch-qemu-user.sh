#!/usr/bin/env bash
# fetch-qemu-user.sh DIR - get Debian's qemu-user-static into DIR
# (build/qemu-user), as fetch-busybox.sh gets busybox: `apt-get download`
# (never installed on the host) and `dpkg-deb -x`. Of its 30 emulators,
# only the aarch64 one is kept, with the package's own files that register
# it with binfmt_misc; mkinitramfs.sh puts them in the archive where the
# package puts them:
#   DIR/root/usr/bin/qemu-aarch64-static                 the emulator
#   DIR/root/usr/libexec/qemu-binfmt/aarch64-binfmt-P    a symlink to it: the
#                     interpreter binfmt_misc runs (Debian's qemu takes a
#                     name ending in -binfmt-P to mean flag P's argv)
#   DIR/root/usr/lib/binfmt.d/qemu-aarch64.conf          the registration
#                     line, as systemd-binfmt writes it (flags OPF)
#   DIR/root/usr/share/binfmts/qemu-aarch64              the same entry for
#                     binfmt-support's update-binfmts (flags PF)
#   DIR/version                                          the package version
# Cached: with the emulator and the registration present, nothing is done. Without network the
# reason goes to DIR/unavailable, a warning is printed and the script exits
# 0: the initramfs is made without it and tests/run.sh skips the tests
# that need it (their requires key). `rm -r DIR` tries again.
set -euo pipefail
. "$(dirname "$0")/apt-download.sh"

if [ $# != 1 ]; then
	echo "usage: $0 DIR" >&2
	exit 2
fi
dir=$1
pkg=qemu-user-static
bin=$dir/root/usr/bin/qemu-aarch64-static
keep=(usr/bin/qemu-aarch64-static usr/libexec/qemu-binfmt/aarch64-binfmt-P
	usr/lib/binfmt.d/qemu-aarch64.conf usr/share/binfmts/qemu-aarch64)

[ -x "$bin" ] && [ -f "$dir/root/${keep[2]}" ] && exit 0
if [ -f "$dir/unavailable" ]; then
	echo "qemu-user: not available ($(cat "$dir/unavailable")); rm -r $dir to try again" >&2
	exit 0
fi

give_up() {
	mkdir -p "$dir"
	echo "$1" > "$dir/unavailable"
	echo "qemu-user: WARNING: $1; building the initramfs without qemu-aarch64-static" >&2
	exit 0
}

command -v apt-get > /dev/null && command -v dpkg-deb > /dev/null ||
	give_up "apt-get or dpkg-deb is missing"

echo "qemu-user: fetching Debian's $pkg" >&2
rm -rf "$dir"
mkdir -p "$dir/deb"
apt_download "$dir/deb" "$pkg" || give_up "apt-get download $pkg failed (no network?)"

debs=("$dir"/deb/*.deb)
dpkg-deb -x "${debs[0]}" "$dir/root" || give_up "dpkg-deb -x ${debs[0]} failed"
for f in "${keep[@]}"; do
	[ -e "$dir/root/$f" ] || give_up "$pkg has no /$f"
done
dpkg-deb -f "${debs[0]}" Version > "$dir/version"
# Only the aarch64 emulator is used: drop the other 60 MB of the package.
mv "$dir/root" "$dir/all"
for f in "${keep[@]}"; do
	mkdir -p "$dir/root/$(dirname "$f")"
	mv "$dir/all/$f" "$dir/root/$f"
done
rm -rf "$dir/all"
rm -rf "$dir/deb"
echo "qemu-user: $pkg $(cat "$dir/version")" >&2
