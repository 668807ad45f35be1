# maps.sh - /proc/self/maps as cat sees it (a forked busybox applet of
# this shell, so its file is /bin/sh): each segment with its address range,
# permissions, file offset and path, then the heap's and the stack's
# names (device and inode numbers, and where heap and stack lie, differ
# between kernels and are left out).
mount -t proc proc /proc 2>/dev/null
cat /proc/self/maps | awk '$6 ~ /^\/bin\// { print $1, $2, $3, $6 } $6 ~ /^\[(heap|stack)\]$/ { print $6 }'
