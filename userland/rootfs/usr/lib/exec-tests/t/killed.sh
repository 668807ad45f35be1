# killed.sh - children that die by a signal, as the shell reports them:
# its message, and $? = 128 + the signal number.
/usr/lib/exec-tests/segv
echo "segv: status $?"
sh -c 'kill -KILL $$'
echo "SIGKILL: status $?"
sh -c 'kill -SEGV $$'
echo "SIGSEGV sent by kill: status $?"
sh -c 'kill -ABRT $$'
echo "SIGABRT: status $?"
# A background job's end is reported (on stderr) only if the wait builtin
# is what reaps it; whether the shell reaps it earlier, while it runs its
# next command, depends on when the killed process gets to exit: a race.
sleep 10 &
kill -9 $!
wait $! 2> /dev/null
echo "background sleep after kill -9: status $?"
sh -c 'kill -INT $$'
echo "SIGINT: status $?"
