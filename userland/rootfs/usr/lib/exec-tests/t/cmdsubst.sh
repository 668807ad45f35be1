# cmdsubst.sh - command substitution: $( ), backquotes, nesting, trailing
# newlines removed, exit status, and large output.
echo "today is $(echo a day)"
echo "backquotes: `echo old style`"
echo "nested: $(echo $(echo $(echo three deep)))"
x=$(printf 'a\nb\n\n\n'); echo "trailing newlines removed: [$x]"
n=$(seq 1 20000 | wc -l); echo "lines counted: $n"
big=$(seq 1 20000); echo "bytes kept: ${#big}"
set -- $(echo one two three); echo "words: $# ($2)"
echo "arithmetic: $(( $(echo 6) * $(echo 7) ))"
echo "status of the last command substitution: $(false)$?"
