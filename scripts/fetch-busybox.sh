#!/usr/bin/env bash
# fetch-busybox.sh DIR - get Debian's busybox-static into DIR (build/busybox).
#
# The userland shell is Debian's own statically linked (glibc) busybox,
# unmodified: `apt-get download busybox-static` fetches the package (it is
# never installed on the host) and `dpkg-deb -x` unpacks it. Afterwards:
#   DIR/root/bin/busybox   the binary that mkinitramfs.sh puts in the archive
#   DIR/version            the package version, e.g. 1:1.35.0-4+deb12u1+b1
# The result is cached: with DIR/root/bin/busybox present, nothing is done.
#
# Without network (or apt), the build must still work: the reason is written
# to DIR/unavailable, a warning is printed, and the script exits 0. The
# initramfs is then made without busybox and tests/run.sh skips the tests
# that need it. `rm -r DIR` tries again. BUSYBOX_PKG names another package.
set -euo pipefail
. "$(dirname "$0")/apt-download.sh"

if [ $# != 1 ]; then
	echo "usage: $0 DIR" >&2
	exit 2
fi
dir=$1
pkg=${BUSYBOX_PKG:-busybox-static}

[ -x "$dir/root/bin/busybox" ] && exit 0
if [ -f "$dir/unavailable" ]; then
	echo "busybox: not available ($(cat "$dir/unavailable")); rm -r $dir to try again" >&2
	exit 0
fi

# give_up REASON: remember why there is no busybox, and carry on without it.
give_up() {
	mkdir -p "$dir"
	echo "$1" > "$dir/unavailable"
	echo "busybox: WARNING: $1; building the initramfs without busybox" >&2
	exit 0
}

command -v apt-get > /dev/null && command -v dpkg-deb > /dev/null ||
	give_up "apt-get or dpkg-deb is missing"

echo "busybox: fetching Debian's $pkg" >&2
rm -rf "$dir"
mkdir -p "$dir/deb"
apt_download "$dir/deb" "$pkg" || give_up "apt-get download $pkg failed (no network?)"

debs=("$dir"/deb/*.deb)
dpkg-deb -x "${debs[0]}" "$dir/root" || give_up "dpkg-deb -x ${debs[0]} failed"
[ -x "$dir/root/bin/busybox" ] || give_up "$pkg has no /bin/busybox"
dpkg-deb -f "${debs[0]}" Version > "$dir/version"
echo "busybox: $pkg $(cat "$dir/version")" >&2
