# pipeline.sh - pipes between busybox applets and shell builtins: data
# flows, the pipeline's status is its last command's, a reader that stops
# early ends the writer with SIGPIPE, and more than a pipe's buffer passes.
echo hello | cat
printf 'pear\napple\nfig\n' | sort | head -n 2
echo one two three | tr ' ' '\n' | wc -l
seq 1 5000 | tail -n 1
echo "a pipe holds 64 KiB; 200000 bytes must flow through it:"
yes 0123456789abcdef | head -c 200000 | wc -c
echo 'yes stops when head has read its 3 lines (SIGPIPE):'
yes | head -n 3
true | false
echo "true | false: $?"
false | true
echo "false | true: $?"
! true | true
echo "! true | true: $?"
echo done | { read -r word; echo "read in a pipeline: $word"; }
