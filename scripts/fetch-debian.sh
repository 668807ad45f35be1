#!/usr/bin/env bash
# fetch-debian.sh DIR PACKAGE... - get Debian packages unpacked into DIR/root.
#
# As fetch-busybox.sh does for busybox: `apt-get download` fetches each
# package (never installed on the host) and dpkg-deb unpacks them all into
# DIR/root, one tree, as they would lie on a Debian system. Afterwards
#   DIR/root/...        the files of the packages
#   DIR/versions        "package version" lines
# Documentation, manual pages and translations are left out, as Debian's own
# minimal images leave them out (dpkg's path-exclude): usr/share/doc, man,
# info, locale; and glibc's iconv modules (gconv, 8 MB that nothing here
# uses: the initramfs must fit, unpacked, in the guest's 256 MiB). The result is cached: if DIR/versions names the same
# packages, nothing is done. Without network (or apt) the build still works: the reason goes to
# DIR/unavailable, a warning is printed, and the script exits 0; the tests
# that need these files are then skipped. `rm -r DIR` tries again.
set -euo pipefail
. "$(dirname "$0")/apt-download.sh"

if [ $# -lt 2 ]; then
	echo "usage: $0 DIR PACKAGE..." >&2
	exit 2
fi
dir=$1
shift
pkgs=("$@")
want=$(printf '%s\n' "${pkgs[@]}" | LC_ALL=C sort -u)

if [ -f "$dir/versions" ] && [ "$(cut -d' ' -f1 "$dir/versions" | LC_ALL=C sort -u)" = "$want" ]; then
	exit 0
fi
if [ -f "$dir/unavailable" ] && [ "$(cat "$dir/wanted" 2>/dev/null)" = "$want" ]; then
	echo "debian: not available ($(cat "$dir/unavailable")); rm -r $dir to try again" >&2
	exit 0
fi

give_up() {
	mkdir -p "$dir"
	echo "$1" > "$dir/unavailable"
	echo "$want" > "$dir/wanted"
	echo "debian: WARNING: $1; building without these packages" >&2
	exit 0
}

command -v apt-get > /dev/null && command -v dpkg-deb > /dev/null ||
	give_up "apt-get or dpkg-deb is missing"

echo "debian: fetching ${pkgs[*]}" >&2
rm -rf "$dir"
mkdir -p "$dir/deb"
apt_download "$dir/deb" "${pkgs[@]}" || give_up "apt-get download ${pkgs[*]} failed (no network?)"

: > "$dir/versions.tmp"
for deb in "$dir"/deb/*.deb; do
	mkdir -p "$dir/root"
	dpkg-deb --fsys-tarfile "$deb" | tar -x -C "$dir/root" \
		--exclude='./usr/share/doc/*' --exclude='./usr/share/man/*' \
		--exclude='./usr/share/info/*' --exclude='./usr/share/locale/*' \
		--exclude='./usr/lib/x86_64-linux-gnu/gconv/*' ||
		give_up "unpacking $deb failed"
	echo "$(dpkg-deb -f "$deb" Package) $(dpkg-deb -f "$deb" Version)" >> "$dir/versions.tmp"
done
mv "$dir/versions.tmp" "$dir/versions"
echo "debian: $(tr '\n' ' ' < "$dir/versions")" >&2
