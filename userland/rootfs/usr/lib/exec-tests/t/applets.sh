# applets.sh - a tour of busybox applets whose output is the same on every
# kernel: text tools, files and directories, archives, checksums, identity.
cd /tmp
echo "text:"
printf 'b 2\na 1\nc 3\na 1\n' > in
sort in | uniq -c | sed 's/^ *//'
cut -d' ' -f2 in | paste -s -d+ | bc
awk '{ s += $2 } END { print "awk sum", s }' in
grep -n '^a' in
sed -n '2p' in | tr a-z A-Z
expr 6 \* 7
basename /a/b/c.txt .txt; dirname /a/b/c.txt
seq 3 | xargs echo xargs:
echo "files:"
mkdir -p d/e && touch d/e/f && ln -s e/f d/link && cp in d/copy && mv d/copy d/moved
find d | sort
readlink d/link; realpath d/link
rm -r d; ls d 2>&1
echo "archives and checksums:"
seq 1000 > nums
gzip -c nums > nums.gz && gunzip -c nums.gz | cmp - nums && echo "gzip round trip"
tar -cf a.tar nums in && mkdir x && tar -xf a.tar -C x && diff x/nums nums && echo "tar round trip"
md5sum nums; sha256sum nums | cut -c1-16
dd if=nums of=part bs=10 count=3 2> /dev/null; od -c part | head -n 2
echo "identity and system:"
id; whoami; uname -s; nproc
date -u -d @1421625600 '+%Y-%m-%d %H:%M:%S'
test -d /tmp && [ -x /bin/sh ] && echo "test and [ agree"
env -i FOO=bar env
rm -r nums nums.gz a.tar x in part
