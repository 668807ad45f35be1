# subshell.sh - ( ) runs in a child: its cd, variables and exit stay there.
cd /
v=outer
( cd /tmp; v=inner; echo "in the subshell: $(pwd) $v" )
echo "after it: $(pwd) $v"
( exit 5 ); echo "subshell status: $?"
( echo "nested: $( ( echo deep ) )" )
{ v=braces; }; echo "braces run in this shell: $v"
x=1; ( x=2; ( x=3; echo "x=$x" ); echo "x=$x" ); echo "x=$x"
( trap 'echo subshell EXIT trap' EXIT; echo in subshell )
echo "umask in a subshell: $( umask 027; umask ), outside: $(umask)"
