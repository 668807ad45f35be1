# cpus.sh - how Debian's programs count the CPUs (issue 21, case
# cpus_debian): coreutils' nproc (the affinity mask) and nproc --all
# (glibc's sysconf: /sys, else /proc/stat), python3's os.cpu_count and
# os.sched_getaffinity; then the same pinned to CPU 0 (busybox taskset),
# where what counts the online CPUs must not change.
[ -e /proc/self ] || mount -t proc proc /proc
count() {
	echo "nproc: $(/usr/bin/nproc), nproc --all: $(/usr/bin/nproc --all)"
	/usr/bin/python3 -c 'import os, multiprocessing
print("python3: os.cpu_count()", os.cpu_count(), "multiprocessing.cpu_count()",
      multiprocessing.cpu_count(), "os.sched_getaffinity(0)", sorted(os.sched_getaffinity(0)))'
}
count
echo "pinned to CPU 0 (taskset 1):"
export -f count
taskset 1 /bin/bash -c count
