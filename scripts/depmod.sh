#!/usr/bin/env bash
# depmod.sh OBJCOPY NM DIR - write the index files of a module tree
# (Linux's depmod; DIR is a /lib/modules/RELEASE directory holding .ko
# files anywhere below it), in the formats busybox's modprobe reads:
#
#   modules.dep      "kernel/fs/a.ko: kernel/lib/b.ko kernel/lib/c.ko":
#                    each module and every module it needs, the ones to
#                    load first last (modprobe loads the list backwards)
#   modules.alias    "alias fs-binfmt_misc binfmt_misc": the other names
#                    a module answers to (its .modinfo alias= strings)
#   modules.symbols  "alias symbol:register_foo foo": who exports what
#
# A module's name and needs come from its .modinfo section (name=,
# depends=, alias=), which the build wrote (scripts/modpost.sh) or
# Linux's did. modules.builtin, if wanted, is the caller's to write.
set -euo pipefail

if [ $# != 3 ]; then
	echo "usage: $0 OBJCOPY NM DIR" >&2
	exit 2
fi
objcopy_tool=$1 nm_tool=$2 dir=$3
cd "$dir"

# modinfo KO TAG: the values of TAG= in KO's .modinfo, one a line.
modinfo() {
	"$objcopy_tool" -O binary --only-section=.modinfo "$1" /dev/stdout 2>/dev/null |
		tr '\0' '\n' | sed -n "s/^$2=//p"
}

declare -A path=() needs=()
kos=$(find . -name '*.ko' | sed 's,^\./,,' | LC_ALL=C sort)
for ko in $kos; do
	name=$(modinfo "$ko" name)
	[ -n "$name" ] || name=$(basename "$ko" .ko | tr - _)
	path[$name]=$ko
	needs[$name]=$(modinfo "$ko" depends | tr ',' ' ')
done

# closure NAME: the modules NAME needs, directly or not, each after every
# module that needs it.
closure() {
	local done=" " order=() queue=(${needs[$1]}) m
	while [ ${#queue[@]} -gt 0 ]; do
		m=${queue[0]}
		queue=("${queue[@]:1}")
		case $done in *" $m "*) continue ;; esac
		done+="$m "
		order+=("$m")
		queue+=(${needs[$m]:-})
	done
	echo "${order[@]}"
}

{
	for ko in $kos; do
		name=$(modinfo "$ko" name)
		[ -n "$name" ] || name=$(basename "$ko" .ko | tr - _)
		line="$ko:"
		for dep in $(closure "$name"); do
			if [ -z "${path[$dep]:-}" ]; then
				echo "depmod: WARNING: $ko needs unknown module $dep" >&2
				continue
			fi
			line+=" ${path[$dep]}"
		done
		echo "$line"
	done
} > modules.dep

{
	echo "# Aliases extracted from modules themselves."
	for ko in $kos; do
		name=$(modinfo "$ko" name)
		[ -n "$name" ] || name=$(basename "$ko" .ko | tr - _)
		for alias in $(modinfo "$ko" alias); do
			echo "alias $alias $name"
		done
	done
} > modules.alias

{
	echo "# Aliases for symbols, used by symbol_request()."
	for ko in $kos; do
		name=$(modinfo "$ko" name)
		[ -n "$name" ] || name=$(basename "$ko" .ko | tr - _)
		"$nm_tool" "$ko" | awk -v m="$name" '$3 ~ /^__ksymtab_/ && $3 !~ /^__ksymtab_(gpl|strings)$/ {
			sub(/^__ksymtab_/, "", $3); print "alias symbol:" $3 " " m }'
	done
} > modules.symbols
