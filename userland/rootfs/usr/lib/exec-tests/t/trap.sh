# trap.sh - trap handlers: caught, ignored (also in children), reset, EXIT.
trap 'echo caught USR1' USR1
kill -USR1 $$
echo "after USR1"
trap 'echo caught TERM; trap - TERM' TERM
kill -TERM $$
echo "TERM handler ran once"
trap '' INT
sh -c 'kill -INT $$; echo "child: SIGINT stayed ignored across exec"'
trap - INT
trap 'echo "caught HUP, \$? is $?"' HUP
(exit 3)
kill -HUP $$
trap
echo "a handler interrupts sleep:"
trap 'echo caught ALRM' ALRM
( sleep 1; kill -ALRM $$ ) &
sleep 3 & wait $!
echo "wait returned $? (128 + 14)"
wait
trap 'echo "EXIT trap, status $?"' EXIT
exit 4
