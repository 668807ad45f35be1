# killed.sh - children that die by a signal, as the shell reports them:
# its message, and $? = 128 + the signal number.
/segv
echo "segv: status $?"
sh -c 'kill -KILL $$'
echo "SIGKILL: status $?"
sh -c 'kill -SEGV $$'
echo "SIGSEGV sent by kill: status $?"
sh -c 'kill -ABRT $$'
echo "SIGABRT: status $?"
sleep 10 &
kill -9 $!
wait $!
echo "background sleep after kill -9: status $?"
sh -c 'kill -INT $$'
echo "SIGINT: status $?"
