# forkbomb.sh - a fork bomb stopped by RLIMIT_NPROC, and the kernel stays up.
# Root is exempt from RLIMIT_NPROC, so the bomb runs as "user" (uid 1000,
# see /etc/passwd) with at most 20 processes: it starts sleepers until fork
# fails with EAGAIN, which ends that shell. Root then kills the sleepers.
su -s /bin/sh user -c '
	ulimit -u 20
	n=0
	trap "echo \"the bomb started \$n sleepers before fork failed\"" EXIT
	while :; do sleep 1000 & n=$((n + 1)); done
'
echo "the bomb exited with status $?"
kill -9 -1
sleep 0.5
echo "after kill -9 -1 the kernel is still up: $(echo forks again)"
su -s /bin/sh user -c 'ulimit -u 20; sleep 0 & wait $!; echo "user can fork again: status $?"'
