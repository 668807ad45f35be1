# coreutils.sh - Debian's coreutils (dynamically linked, glibc), run by
# Debian's bash: ls -l, sort, cat, cp and a few more, on files whose
# contents and times do not change from boot to boot.
cd /tmp || exit 1
printf 'cherry\napple\nbanana\napple\n' > fruit
/usr/bin/sort fruit
/usr/bin/sort -u -r fruit | /bin/cat -n
/bin/cp fruit fruit2 && /bin/cat fruit2 | /usr/bin/wc -l
/usr/bin/md5sum fruit fruit2
/bin/touch -d '2015-01-19 12:00:00 UTC' fruit fruit2
TZ=UTC /bin/ls -l --time-style=+%F fruit fruit2
TZ=UTC /bin/ls -l /usr/lib/exec-tests/t/bash.sh /usr/lib/exec-tests/t/coreutils.sh
/bin/ls /usr/lib/python3.11/encodings | /usr/bin/head -n 4
/usr/bin/stat -c '%n %s %a %F' fruit /tmp /dev/null
/usr/bin/seq 3 | /usr/bin/paste -sd+ | /usr/bin/expr "$(cat)" : '.*'
/usr/bin/factor 360
/bin/date -u -d @1421625600
/usr/bin/id
/bin/uname -sm
/bin/rm fruit2 && /bin/ls fruit*
echo "exit statuses: $(/bin/true; echo $?) $(/bin/false; echo $?)"
