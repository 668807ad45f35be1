# heredoc.sh - here-documents: expansion, quoted delimiter, <<- and a
# document bigger than a pipe's buffer.
name=world
cat <<EOT
hello $name
sum: $((2 + 3)) cmd: $(echo subst)
EOT
cat <<'EOT'
not expanded: $name $(echo no)
EOT
cat <<-EOT
	leading tabs stripped
		(all of them)
	EOT
while read -r a b; do echo "$b-$a"; done <<EOT
1 one
2 two
EOT
i=0
{
	while [ $i -lt 3000 ]; do echo "line $i of a long here-document"; i=$((i + 1)); done
} > /tmp/doc
big=$(cat /tmp/doc)
cat <<EOT | wc -c
$big
EOT
cat <<EOT | tail -n 1
$big
EOT
rm /tmp/doc
