#!/usr/bin/env bash
# modules-install.sh OBJCOPY NM DEST RELEASE MODDIR [BUILTIN...] - lay out
# the modules as Linux's "make modules_install" does, for the initramfs:
#
#   DEST/lib/modules/RELEASE/kernel/DIR/NAME.ko   every .ko under MODDIR,
#                                                 at its source's path
#   DEST/lib/modules/RELEASE/modules.builtin      BUILTIN: what could be a
#                                                 module but is built in
#                                                 (kernel/fs/binfmt_elf.ko)
#   DEST/lib/modules/RELEASE/modules.{dep,alias,symbols}   scripts/depmod.sh
#
# Then, if Debian's Linux has been fetched for the oracle (build/oracle),
# a few of its own modules go to DEST/lib/modules/ITS-RELEASE/, so that the
# tests that load modules can run on Linux too: each kernel's busybox
# modprobe looks in /lib/modules/$(uname -r) and finds its own.
set -euo pipefail

if [ $# -lt 5 ]; then
	echo "usage: $0 OBJCOPY NM DEST RELEASE MODDIR [BUILTIN...]" >&2
	exit 2
fi
objcopy_tool=$1 nm_tool=$2 dest=$3 release=$4 moddir=$5
shift 5
here=$(cd "$(dirname "$0")" && pwd)

# Laid out in DEST.new, then put in place only if it differs from DEST:
# unchanged, DEST keeps its time stamps and the initramfs is not remade.
final=$dest
dest=$final.new
rm -rf "$dest"
tree=$dest/lib/modules/$release
mkdir -p "$tree"
(cd "$moddir" && find . -name '*.ko' | sed 's,^\./,,') | while read -r ko; do
	mkdir -p "$tree/kernel/$(dirname "$ko")"
	# without debug information, as INSTALL_MOD_STRIP=1 (build/mod keeps it)
	"$objcopy_tool" --strip-debug "$moddir/$ko" "$tree/kernel/$ko"
	chmod 0644 "$tree/kernel/$ko"
done
printf '%s\n' "$@" > "$tree/modules.builtin"
"$here/depmod.sh" "$objcopy_tool" "$nm_tool" "$tree"

# Linux's modules for the oracle runs (scripts/oracle.sh):
#   kernel/fs/binfmt_misc.ko           Debian builds binfmt_misc as a module:
#                                      mount -t binfmt_misc loads it
#   kernel/fs/quota/quota_tree.ko      a module pair where the second needs
#   kernel/fs/quota/quota_v2.ko        symbols of the first: unknown symbols,
#                                      dependencies, a module in use
oracle=$here/../build/oracle/root/lib/modules
for linux in "$oracle"/*/; do
	[ -f "$linux/modules.builtin" ] || continue
	ltree=$dest/lib/modules/$(basename "$linux")
	for ko in kernel/fs/binfmt_misc.ko kernel/fs/quota/quota_tree.ko kernel/fs/quota/quota_v2.ko; do
		[ -f "$linux/$ko" ] || continue
		mkdir -p "$ltree/$(dirname "$ko")"
		install -m 0644 "$linux/$ko" "$ltree/$ko"
	done
	cp "$linux/modules.builtin" "$ltree/"
	"$here/depmod.sh" "$objcopy_tool" "$nm_tool" "$ltree"
done

if [ -d "$final" ] && diff -r -q "$final" "$dest" > /dev/null; then
	rm -rf "$dest"
else
	rm -rf "$final"
	mv "$dest" "$final"
fi
