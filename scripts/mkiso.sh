#!/usr/bin/env bash
# mkiso.sh OUT.iso KERNEL INITRAMFS "APPEND" - build a GRUB rescue ISO (make
# iso, make run) that boots KERNEL with multiboot2, INITRAMFS as its first
# module and APPEND as its command line, with GRUB on the serial port. The
# ISO tree is staged in the directory of OUT.iso, as iso/.
set -euo pipefail

if [ $# != 4 ]; then
	echo "usage: $0 OUT.iso KERNEL INITRAMFS \"APPEND\"" >&2
	exit 2
fi
out=$1 kernel=$2 initramfs=$3 append=$4

# Quote each word for GRUB's script parser, which would otherwise take
# init's ";" separators and "$" for its own syntax. (GRUB still puts a
# backslash before any quote character it passes on to the kernel.)
read -ra list <<< "$append"
words=
for w in "${list[@]}"; do
	words+=" '${w//\'/\'\\\'\'}'"
done

stage=$(dirname "$out")/iso
rm -rf "$stage"
mkdir -p "$stage/boot/grub"
cp "$kernel" "$stage/boot/kernel"
cp "$initramfs" "$stage/boot/initramfs.cpio"
cat > "$stage/boot/grub/grub.cfg" <<CFG
set timeout=0
set default=0
serial --unit=0 --speed=115200
terminal_input serial
terminal_output serial

menuentry "teaching kernel" {
	multiboot2 /boot/kernel$words
	module2 /boot/initramfs.cpio
	boot
}
CFG

# grub-mkrescue (through xorriso) is chatty: show its output only on failure.
if ! grub-mkrescue -o "$out" "$stage" > "$out.log" 2>&1; then
	cat "$out.log" >&2
	exit 1
fi
rm -f "$out.log"
