# redirect.sh - redirections: > >> < 2> 2>&1 >&- <> and exec on descriptors.
cd /tmp
echo first > out
echo second >> out
cat < out
wc -l < out
ls /nonexistent 2> err
echo "ls exit status $?; its error went to the file:"
cat err
{ echo to stdout; echo to stderr >&2; } > both 2>&1
cat both
echo gone > /dev/null
exec 3> fd3
echo "through fd 3" >&3
exec 3>&-
cat fd3
echo "writing to a closed fd:"
{ echo lost >&3; } 2> /dev/null || echo "  failed, status $?"
exec 4< out
read -r line <&4
echo "read from fd 4: $line"
exec 4<&-
echo data > rw
exec 5<> rw
read -r line <&5
echo "read-write fd: $line"
exec 5>&-
set -C
{ echo x > out; } 2> /dev/null || echo "noclobber refused to overwrite out"
set +C
rm out err both fd3 rw
