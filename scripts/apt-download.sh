# apt-download.sh - sourced by the scripts that fetch Debian's packages
# (fetch-busybox.sh, fetch-qemu-user.sh, fetch-debian.sh, oracle.sh).
#
# apt_download DIR PKG... downloads the packages' .deb files into DIR
# without installing them. The first try uses the package lists as they
# are; if they are missing or stale, root updates them once and tries
# again. Quiet, as apt warns that root downloads "unsandboxed" into build/.
# Fails (status 1) when the packages cannot be had.
apt_download() {
	local dir=$1
	shift
	mkdir -p "$dir"
	# apt-get download writes into the current directory.
	(cd "$dir" && apt-get download -qq "$@" 2> /dev/null) && return 0
	if [ "$(id -u)" = 0 ]; then
		apt-get update -qq > /dev/null 2>&1 || true
	fi
	(cd "$dir" && apt-get download -qq "$@" 2> /dev/null)
}
