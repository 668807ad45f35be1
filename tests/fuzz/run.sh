#!/usr/bin/env bash
# run.sh [RUNS [NAME...]] - build the host fuzzers of the kernel's parsers
# and run each for RUNS iterations (make fuzz; FUZZ_RUNS, default 100000).
#
# Each parser is compiled from its own kernel file, as it is, into an
# ordinary Linux program with libFuzzer (which mutates inputs to reach new
# code), AddressSanitizer (any out-of-bounds access, use after free or
# leak) and UBSan (any undefined behaviour): Debian's clang. The harness
# fuzz_NAME.c stands in for the rest of the kernel and checks what the
# parser hands on (see each file):
#
#   cmdline   the kernel command line        kernel/cmdline.c
#   script    the "#!" line                  fs/binfmt_script.c
#   cpio      the initramfs unpacker         fs/initramfs.c
#   elf       the ELF header and segments    fs/binfmt_elf.c
#   binfmt_misc  registrations and matching fs/binfmt_misc.c
#
# Runs start from the seeds of corpus/NAME (make-seeds.sh made them) with
# a fixed random seed, so a run is reproducible; the inputs libFuzzer
# finds go to build/fuzz/corpus/NAME, a fresh directory each time. A crash
# leaves its input in build/fuzz/crash-NAME-*: reproduce it with
# build/fuzz/fuzz_NAME FILE. For a long run by hand:
#   tests/fuzz/run.sh 10000000 cpio
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/../.." && pwd)
out=$repo/build/fuzz
runs=${1:-100000}
[ $# -gt 0 ] && shift
names=("$@")
[ ${#names[@]} = 0 ] && names=(cmdline script cpio elf binfmt_misc)
cc=${CLANG:-clang}
command -v "$cc" > /dev/null || { echo "fuzz: no $cc (scripts/setup.sh fuzz installs it)" >&2; exit 1; }

flags=(-g -O1 -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=undefined
	-nostdinc -isystem "$("$cc" -print-file-name=include)"
	-I"$here/inc" -I"$repo/include" -I"$repo/fs"
	-Wall -Wextra -Werror -Wno-unused-parameter
	-Wno-incompatible-library-redeclaration -Wno-builtin-requires-header)
mkdir -p "$out"
failed=0
for n in "${names[@]}"; do
	[ -f "$here/fuzz_$n.c" ] || { echo "fuzz: no fuzzer $n" >&2; exit 2; }
	echo "  CLANG   fuzz_$n"
	"$cc" "${flags[@]}" -o "$out/fuzz_$n" "$here/fuzz_$n.c" "$here/host.c"  \
		"$here/unreached.c"
	rm -rf "$out/corpus/$n"
	mkdir -p "$out/corpus/$n"
	log=$out/$n.log
	if (cd "$out" && ./"fuzz_$n" -runs="$runs" -seed=1 -timeout=10 \
		-artifact_prefix="$out/crash-$n-" "corpus/$n" "$here/corpus/$n") > "$log" 2>&1; then
		done_line=$(grep -a '^Done ' "$log" | tail -1)
		cov=$(grep -aoE 'cov: [0-9]+' "$log" | tail -1)
		echo "fuzz $n: ${done_line#Done }, $cov edges, $(ls "$out/corpus/$n" | wc -l) new inputs, no crash"
	else
		failed=1
		echo "FAIL fuzz $n (log: $log)"
		grep -a -E 'ERROR|check failed|SUMMARY|Test unit written' "$log" | head -8 | sed 's/^/    /'
	fi
done
exit $failed
