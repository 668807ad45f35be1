# status.sh - $? after builtins, programs, subshells, errors and signals.
true; echo "true: $?"
false; echo "false: $?"
(exit 7); echo "(exit 7): $?"
sh -c 'exit 42'; echo "sh -c 'exit 42': $?"
/nonexistent 2> /dev/null; echo "not found: $?"
/etc/passwd 2> /dev/null; echo "not executable: $?"
/proc 2> /dev/null; echo "a directory: $?"
! false; echo "! false: $?"
if false; then :; else echo "if false: else branch, $?"; fi
false || echo "false || ...: $?"
true && echo "true && ...: $?"
x=$(exit 3); echo "x=\$(exit 3): $?"
sh -c 'kill -TERM $$'; echo "killed by SIGTERM: $?"
