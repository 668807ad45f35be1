# bash.sh - Debian's bash (run by /bin/bash, from Debian's package):
# functions, recursion, pipes through Debian's coreutils, arrays,
# here-strings, traps, and job control in a script (set -m).
echo "bash ${BASH_VERSINFO[0]}.${BASH_VERSINFO[1]}"
f() { local x=$1; echo "f got $x"; return 3; }
f hello; echo "f returned $?"
fact() { if (( $1 <= 1 )); then echo 1; else echo $(( $1 * $(fact $(( $1 - 1 ))) )); fi; }
echo "10! = $(fact 10)"
printf '%s\n' pear apple fig | sort | tr a-z A-Z | head -n 2
false | true | (exit 5); echo "PIPESTATUS ${PIPESTATUS[*]}"
arr=(one two three); echo "${#arr[@]} elements, the second is ${arr[1]}"
declare -A color=([sky]=blue [grass]=green); echo "grass is ${color[grass]}"
read -r first second <<< "left right"; echo "$second $first"
for i in {1..5}; do printf '%d' "$i"; done; echo
trap 'echo got USR1' USR1; kill -USR1 $$
mount -t proc proc /proc 2>/dev/null
set -m
sleep 0.2 &
jobs
wait %1; echo "sleep: $?"
(exit 7) &
wait $!; echo "background exit: $?"
sleep 10 &
kill %1; wait %1; echo "killed: $?"
sleep 0.1 &
read -r _ _ _ _ pgid _ < /proc/$!/stat 2>/dev/null || pgid=?
echo "a job is its own process group: $( [ "$pgid" = "$!" ] && echo yes || echo "no ($pgid)")"
wait
echo done
