#!/usr/bin/env bash
# type-input.sh INPUT LOG [PID] - type a test's NAME.input on the serial
# console, as a person at the terminal would (tests/run.sh runs it, with
# its standard output connected to QEMU's serial port).
#
# INPUT is read line by line:
#   <wait TEXT>    wait until TEXT appears in LOG (the console output so
#                  far) after the place where the previous <wait> matched;
#                  TEXT may hold ^X tokens too. "<wait # ^[[6n>" waits for
#                  busybox's next prompt and the cursor-position query
#                  (ESC [ 6 n) that its line editor sends when no typed
#                  input is waiting: from then on it reads keys in raw mode,
#                  and what it echoes no longer depends on timing.
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
export LC_ALL=C # byte offsets and lengths

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

# wait_for TEXT SHOWN: poll LOG until TEXT shows up after $offset (SHOWN
# is TEXT as the input file spells it, for the error message).
wait_for() {
	local text=$1 shown=$2 start=$SECONDS at
	while :; do
		at=$({ tail -c +$((offset + 1)) "$log" 2> /dev/null || true; } |
			{ grep -aobF -- "$text" || true; } | head -n 1 | cut -d: -f1)
		if [ -n "$at" ]; then
			offset=$((offset + at + ${#text}))
			return
		fi
		[ $((SECONDS - start)) -ge "$limit" ] &&
			fail "no '$shown' on the console within $limit s"
		sleep 0.1
	done
}

# decode TEXT: set $decoded to TEXT with its ^X tokens turned into control
# characters, and $ends_in_control to 1 if the last token was one.
decode() {
	local text=$1 c n ctl
	decoded=
	ends_in_control=0
	while [ -n "$text" ]; do
		c=${text:0:1}
		n=${text:1:1}
		if [ "$c" = '^' ] && [[ $n == [A-Z\[\\\]^_?] ]]; then
			# ^A is 1, ..., ^_ is 31: the letter's code minus 64; ^? is DEL.
			printf -v ctl '%03o' $(( $(printf '%d' "'$n") ^ 64 ))
			printf -v ctl "\\$ctl"
			decoded+=$ctl
			text=${text:2}
			ends_in_control=1
		else
			decoded+=$c
			text=${text:1}
			ends_in_control=0
		fi
	done
}

# type_line LINE: write LINE, decoded, then Enter unless it ends in a
# control character.
type_line() {
	decode "$1"
	[ $ends_in_control = 1 ] || decoded+=$'\r'
	printf '%s' "$decoded"
}

while IFS= read -r line || [ -n "$line" ]; do
	case $line in
	'#'*) ;;
	'<wait '*'>')
		decode "${line:6:${#line}-7}"
		wait_for "$decoded" "${line:6:${#line}-7}"
		;;
	'<sleep '*'>') sleep "${line:7:${#line}-8}" ;;
	*) type_line "$line" ;;
	esac
done < "$input"
exec sleep infinity
