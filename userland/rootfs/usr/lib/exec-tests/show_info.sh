#!/bin/sh
# show_info.sh - the shell-script twin of /usr/lib/exec-tests/show_info, for LWN's "How programs
# get run" (2015): "./do_execve ./show_info.sh" runs it through the kernel's
# #! handler. $0 is then the script's path, not do_execve's argv[0] "zero";
# $1 and $2 are do_execve's "one" and "two"; env shows do_execve's two
# variables plus what the shell adds itself (PWD; busybox also SHLVL, PATH).
echo "\$0 = '$0'"
echo "\$1 = '$1'"
echo "\$2 = '$2'"
env
