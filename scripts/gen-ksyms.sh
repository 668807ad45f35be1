#!/usr/bin/env bash
# gen-ksyms.sh NM KERNEL - emit an assembly file holding the kernel's function
# symbols, sorted by address, for backtraces (kernel/ksyms.c reads it).
# Layout of section .ksyms: a count, then {address, name offset} pairs, then the
# NUL-terminated names.
set -euo pipefail
nm_tool=$1
kernel=$2
syms=$("$nm_tool" -n "$kernel" | awk '$2 ~ /^[tT]$/ { print $1, $3 }')
count=$(printf '%s\n' "$syms" | grep -c . || true)
echo '	.section .ksyms, "a"'
echo '	.balign 8'
echo '	.globl ksyms_count, ksyms_table, ksyms_names'
echo "ksyms_count: .quad $count"
echo 'ksyms_table:'
printf '%s\n' "$syms" | awk 'NF == 2 { printf "\t.quad 0x%s, .Lname%d - ksyms_names\n", $1, NR }'
echo 'ksyms_names:'
printf '%s\n' "$syms" | awk 'NF == 2 { printf ".Lname%d: .asciz \"%s\"\n", NR, $2 }'
