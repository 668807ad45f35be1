#!/usr/bin/env bash
# setup.sh - install the Debian 12 packages that building, running and
# testing need (make setup; .ci/run). Does nothing when all are installed,
# so it is cheap to run before every make test. Needs root (or sudo) only
# when something is missing; never asks a question.
#   scripts/setup.sh fuzz   also what make fuzz needs: clang and libFuzzer
# (rsync and linux-libc-dev: building Linux's selftests, make kselftest)
set -euo pipefail

packages=(qemu-system-x86 grub-pc-bin grub-common xorriso mtools musl-tools
	cpio gcc libc6-dev make binutils xz-utils git python3 gdb socat
	rsync linux-libc-dev)
[ "${1:-}" = fuzz ] && packages+=(clang libclang-rt-dev)

missing=()
for p in "${packages[@]}"; do
	if ! dpkg-query -W -f='${Status}\n' "$p" 2>/dev/null | grep -q '^install ok installed$'; then
		missing+=("$p")
	fi
done
[ ${#missing[@]} = 0 ] && exit 0

echo "setup: installing ${missing[*]}"
sudo=()
if [ "$(id -u)" != 0 ]; then
	command -v sudo > /dev/null || { echo "setup: run as root to install packages" >&2; exit 1; }
	sudo=(sudo)
fi
export DEBIAN_FRONTEND=noninteractive
"${sudo[@]}" apt-get update -qq
"${sudo[@]}" apt-get install -y -qq --no-install-recommends "${missing[@]}" < /dev/null > /dev/null
echo "setup: done"
