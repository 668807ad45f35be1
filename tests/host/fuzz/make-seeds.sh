#!/usr/bin/env bash
# make-seeds.sh - (re)make the seed corpora of the host fuzzers in
# tests/host/fuzz/corpus/NAME/: small inputs that each take the parser down a
# different path, from which libFuzzer's mutations start. Needs gcc,
# musl-gcc and cpio, and root (the cpio seeds hold device nodes). The
# seeds are committed; run this only to change them.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
c=$here/corpus
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
rm -rf "$c"
mkdir -p "$c"/{cmdline,script,cpio,elf,binfmt_misc}

# ---- kernel command lines ----
n=0
while IFS= read -r line; do
	n=$((n + 1))
	printf '%s' "$line" > "$c/cmdline/$n"
done <<'LINES'
console=ttyS0 quiet -- /hello ; /show_info a b
init=/bin/sh rdinit=/init a b c
console=ttyS0 "a b" c="d e" -- "x y" --
loglevel=7 watchdog_thresh=3 strace exectrace HOME=/root TERM=vt100
mod.param=1 other.x=y panic=10 ro rw root=/dev/sda1 nokaslr
A=1 B=2 C=3 D=4 E=5 F=6 G=7 H=8 I=9 J=10 K=11 L=12 M=13 N=14 O=15 P=16 Q=17 R=18 S=19 T=20 U=21 V=22 W=23 X=24 Y=25 Z=26 a=1 b=2 c=3 d=4 e=5 f=6 g=7
x1 x2 x3 x4 x5 x6 x7 x8 x9 x10 x11 x12 x13 x14 x15 x16 x17 x18 x19 x20 x21 x22 x23 x24 x25 x26 x27 x28 x29 x30 x31 x32 x33
init= rdinit "=" == "-- -- --" loglevel= loglevel=99999999999 watchdog_thresh=0
lsm=execguard lsm= lsm=a,b,c init=/sbin/init quiet
LINES

# ---- "#!" lines ----
printf '#!/bin/sh\necho hi\n' > "$c/script/plain"
printf '#! /usr/bin/env  python3 -u \n' > "$c/script/blanks"
printf '#!/interp\targ\twith\ttabs\r\n' > "$c/script/tabs"
printf '#!\n' > "$c/script/empty"
printf '#!' > "$c/script/bare"
printf '#!   \t  \n' > "$c/script/blank-only"
printf '#!/a/%0250d' 0 > "$c/script/long-name"
printf '#!/i %0260d\n' 0 > "$c/script/long-arg"
printf '#!/i a\0b\n' > "$c/script/nul"
printf '\177ELF\2\1\1' > "$c/script/not-a-script"

# ---- binfmt_misc registrations: 2 bytes of length, the registration,
# then a file to match and, after a NUL, its name ----
bm() { # NAME REGISTRATION FILE-AND-NAME
	local n=${#2}
	printf "\\x$(printf %02x $((n & 255)))\\x$(printf %02x $((n >> 8)))" > "$c/binfmt_misc/$1"
	printf '%s' "$2" >> "$c/binfmt_misc/$1" # \xHH stay as text: binfmt_misc decodes them
	printf "$3" >> "$c/binfmt_misc/$1"
}
bm qemu ':qemu-aarch64:M::\x7fELF\x02\x01\x01\x00\x00\x00\x00\x00\x00\x00\x00\x00\x02\x00\xb7\x00:\xff\xff\xff\xff\xff\xff\xff\x00\xff\xff\xff\xff\xff\xff\xff\xff\xfe\xff\xff\xff:/usr/bin/qemu-aarch64-static:OCF' '\177ELF\2\1\1\0\0\0\0\0\0\0\0\0\2\0\267\0'
bm jar ':jar:E::jar::/usr/bin/java:' 'PK\0/tmp/app.jar'
bm wine $':DOSWin:M::MZ::/usr/bin/wine:P\n' 'MZ\220\0'
bm offset '|off|M|4|\x01\x02|\xff\x0f|/i|P' '\0\0\0\0\1\2\3'
bm bad-flags ':x:M:255:ab::/i:PQ' ''
bm hash-delim '#n#E##ext##/i#' '\0/a.ext'

# ---- cpio archives ----
r=$tmp/root
mkdir -p "$r/dir/sub" "$r/empty"
echo hello > "$r/dir/file"
printf 'x%.0s' {1..600} > "$r/dir/sub/big"
ln "$r/dir/file" "$r/dir/hardlink"
ln -s ../dir/file "$r/dir/symlink"
mknod "$r/console" c 5 1
mknod "$r/disk" b 8 0
mkfifo "$r/fifo"
(cd "$r" && find . -mindepth 1 | LC_ALL=C sort | cpio -o -H newc -R 0:0 --quiet) > "$c/cpio/tree"
(cd "$r" && find dir | cpio -o -H crc -R 0:0 --quiet) > "$c/cpio/crc"
cat "$c/cpio/tree" "$c/cpio/crc" > "$c/cpio/two-archives"
(cd "$r" && echo dir/file | cpio -o -H newc --quiet) > "$c/cpio/one-file"
{ cat "$c/cpio/one-file"; head -c 512 /dev/zero; cat "$c/cpio/one-file"; } > "$c/cpio/padded"

# ---- ELF files ----
cat > "$tmp/tiny.S" <<'ASM'
	.globl _start
_start:	mov $60, %eax
	xor %edi, %edi
	syscall
	.data
	.quad 1
	.bss
	.skip 8192
ASM
gcc -nostdlib -static -s -Wl,-n -Wl,--build-id=none -o "$c/elf/tiny" "$tmp/tiny.S"
gcc -nostdlib -static -s -Wl,-n -Wl,--build-id=none -Wl,-z,execstack -o "$c/elf/execstack" "$tmp/tiny.S"
gcc -nostdlib -static-pie -s -Wl,--build-id=none -o "$c/elf/static-pie" "$tmp/tiny.S"
gcc -nostdlib -s -Wl,--build-id=none -Wl,-dynamic-linker,/lib/ld.so -o "$c/elf/interp" "$tmp/tiny.S"
echo 'int main(void) { return 0; }' > "$tmp/true.c"
musl-gcc -static -Os -s -o "$c/elf/musl-static" "$tmp/true.c"
echo "seeds: $(find "$c" -type f | wc -l) files in $c"
