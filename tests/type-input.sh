#!/usr/bin/env bash
# type-input.sh INPUT LOG [PID] - type a test's NAME.input on the serial
# console, as a person at the terminal would (tests/run.sh runs it, with
# its standard output connected to QEMU's serial port).
#
# INPUT is read line by line:
#   <wait TEXT>    wait until TEXT appears in LOG (the console output so
#                  far) after the place where the previous <wait> matched;
#                  e.g. "<wait / # >" waits for busybox's next prompt.
#   <sleep N>      pause N seconds (N may have decimals).
#   anything else  is typed at once, followed by Enter (a carriage return,
#                  as a terminal sends it), except when the line ends in a
#                  control character. ^C, ^D, ^Z, ^\ ... (a caret and one of
#                  A-Z[\]^_ or ?) stand for control characters.
# Lines starting with "#" are comments.
#
# A <wait> that is not satisfied within INPUT_WAIT seconds (default 60)
# ends the test: the reason is written to LOG.input-error and QEMU (PID,
# if given) is stopped. After the last line, the script keeps the serial
# input open until it is killed, so the guest never sees end of input.
set -euo pipefail

if [ $# -lt 2 ] || [ $# -gt 3 ]; then
	echo "usage: $0 INPUT LOG [PID]" >&2
	exit 2
fi
input=$1
log=$2
pid=${3:-}
limit=${INPUT_WAIT:-60}
offset=0 # bytes of LOG before the end of the last <wait> match

# fail REASON: record why the typing stopped and stop QEMU.
fail() {
	echo "$1" > "$log.input-error"
	[ -n "$pid" ] && kill "$pid" 2> /dev/null
	exit 1
}

# wait_for TEXT: poll LOG until TEXT shows up after $offset.
wait_for() {
	local text=$1 start=$SECONDS at
	while :; do
		at=$({ tail -c +$((offset + 1)) "$log" 2> /dev/null || true; } |
			{ grep -aobF -- "$text" || true; } | head -n 1 | cut -d: -f1)
		if [ -n "$at" ]; then
			offset=$((offset + at + ${#text}))
			return
		fi
		[ $((SECONDS - start)) -ge "$limit" ] &&
			fail "no '$text' on the console within $limit s"
		sleep 0.1
	done
}

# type_line LINE: write LINE with its ^X tokens turned into control
# characters, then Enter unless it ends in one.
type_line() {
	local line=$1 out='' c n ctl enter=1
	while [ -n "$line" ]; do
		c=${line:0:1}
		n=${line:1:1}
		if [ "$c" = '^' ] && [[ $n == [A-Z\[\\\]^_?] ]]; then
			# ^A is 1, ..., ^_ is 31: the letter's code minus 64; ^? is DEL.
			printf -v ctl '%03o' $(( $(printf '%d' "'$n") ^ 64 ))
			printf -v ctl "\\$ctl"
			out+=$ctl
			line=${line:2}
			enter=0
		else
			out+=$c
			line=${line:1}
			enter=1
		fi
	done
	[ $enter = 1 ] && out+=$'\r'
	printf '%s' "$out"
}

while IFS= read -r line || [ -n "$line" ]; do
	case $line in
	'#'*) ;;
	'<wait '*'>') wait_for "${line:6:${#line}-7}" ;;
	'<sleep '*'>') sleep "${line:7:${#line}-8}" ;;
	*) type_line "$line" ;;
	esac
done < "$input"
exec sleep infinity
