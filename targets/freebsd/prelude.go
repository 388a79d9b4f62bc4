package freebsd

// prelude is the fixed part of every script (POSIX sh: FreeBSD has no bash
// by default): option parsing and the helpers the per-NIC steps call. Each
// change goes through ensure, which compares first, so runs are idempotent.
const prelude = `MODE=apply

usage() {
	cat <<EOF
Usage: $0 [--check | --dry-run] [--help]

Applies the host side of the fabric's lossless RoCE contract, now and in
/etc/rc.conf, /boot/loader.conf and /etc/sysctl.conf for the next boot.
  (no option)  apply every step whose current value differs (run as root)
  --check      only read; print one line per difference (interface, what,
               intended, actual) and exit 1 if any
  --dry-run    print the commands a run would execute; change nothing
  --help       show this text
EOF
}

for arg in "$@"; do
	case "$arg" in
	--check | --dry-run)
		if [ "$MODE" != apply ]; then
			echo "fabricc: use only one of --check and --dry-run" >&2
			exit 2
		fi
		MODE=${arg#--}
		;;
	--help | -h)
		usage
		exit 0
		;;
	*)
		echo "fabricc: unknown option $arg; see --help" >&2
		exit 2
		;;
	esac
done

DIFFS=0
CHANGES=0

die() {
	echo "fabricc: error: $*" >&2
	exit 1
}
note() { echo "note: $*"; }
skip() { echo "skipped: $*"; }
manual() { echo "manual: $*"; }

diff_line() {
	echo "DIFF $1 $2: intended $3; actual $4"
	DIFFS=$((DIFFS + 1))
}

# unavailable IF WHAT NEED FIX: a setting whose driver interface is not
# there; a difference in --check, an error otherwise.
unavailable() {
	case $MODE in
	check) diff_line "$1" "$2" "$3 present" absent ;;
	*) die "$1 $2: $3 absent: $4" ;;
	esac
}

# ensure IF WHAT WANT HAVE CMD...: runs CMD only when HAVE differs from WANT.
ensure() {
	_if=$1 _what=$2 _want=$3 _have=$4
	shift 4
	[ "$_have" = "$_want" ] && return 0
	case $MODE in
	check) diff_line "$_if" "$_what" "$_want" "$_have" ;;
	dry-run)
		echo "would run: $*"
		CHANGES=$((CHANGES + 1))
		;;
	*)
		echo "set $_if $_what: $_have -> $_want"
		"$@" >/dev/null
		CHANGES=$((CHANGES + 1))
		;;
	esac
}

need_root() {
	if [ "$MODE" != dry-run ] && [ "$(id -u)" -ne 0 ]; then
		die "run as root (or use --dry-run to only print the commands)"
	fi
}

link_exists() { ifconfig "$1" >/dev/null 2>&1; }

# missing_link IF: false when the NIC's steps must be left out.
missing_link() {
	case $MODE in
	check)
		diff_line "$1" link present absent
		return 1
		;;
	dry-run)
		note "$1 is not present here; showing every step"
		return 0
		;;
	*) die "interface $1 not found: load its driver, or fix the nic's interface attribute in the fabric" ;;
	esac
}

# kmod_state KLD [SYSCTL]: loaded when a module KLD is registered (kldstat
# -m finds DECLARE_MODULE names only; mlx5en declares none, just
# MODULE_VERSION), a file KLD.ko is loaded (kldstat -n), or the driver's
# sysctl node SYSCTL exists (a driver compiled into the kernel has no file).
kmod_state() {
	if kldstat -q -m "$1" 2>/dev/null || kldstat -q -n "$1" 2>/dev/null ||
		{ [ -n "${2:-}" ] && sysctl -N "$2" >/dev/null 2>&1; }; then
		echo loaded
	else
		echo absent
	fi
}

if_mtu() {
	ifconfig "$1" 2>/dev/null | sed -n '1s/.* mtu \([0-9]*\).*/\1/p' | grep . || echo absent
}

addr_state() {
	if ifconfig -f inet:cidr,inet6:cidr "$1" 2>/dev/null | awk -v a="$2" '($1 == "inet" || $1 == "inet6") && $2 == a { f = 1 } END { exit !f }'; then
		echo present
	else
		echo absent
	fi
}

# media_pause IF: the 802.3x pause options of the active media: rxpause,
# txpause, both, off, unknown (no carrier), or absent. ifconfig prints the
# configured media word, then the active one in parentheses when the two
# differ, then "status: active" or "no carrier" (sbin/ifconfig ifmedia.c,
# "media: Ethernet autoselect (40Gbase-CR4 <full-duplex,rxpause,txpause>)");
# mlx4en shows the pause it runs with only in the active word, and none
# while the port is down (mlx4_en_netdev.c, mlx4_en_calc_media).
media_pause() {
	ifconfig "$1" 2>/dev/null | awk '
		$1 == "media:" { f = 1; m = $0; sub(/^[^(]*\(/, "", m); if (m ~ /rxpause/) p = "rxpause"; if (m ~ /txpause/) p = p (p ? "," : "") "txpause" }
		$1 == "status:" { s = $0; sub(/^[[:space:]]*status: /, "", s) }
		END { if (!f) print "absent"; else if (s != "" && s != "active") print "unknown (" s ")"; else print (p ? p : "off") }'
}

# sysctl_get NAME: the value, arrays as comma lists, or absent.
sysctl_get() {
	_v=$(sysctl -n "$1" 2>/dev/null) || {
		echo absent
		return 0
	}
	echo "$_v" | tr -s ' ,' ',,' | sed 's/^,//; s/,$//'
}

rc_get() { sysrc -n "$1" 2>/dev/null || echo unset; }
rc_set() { sysrc "$1=$2"; }

# conf_get FILE NAME / conf_set FILE NAME VALUE: one NAME=VALUE line of
# loader.conf(5) (quoted) or sysctl.conf(5) (bare), replaced in place.
conf_get() {
	_n=$(echo "$2" | sed 's/\./\\./g')
	_v=$(sed -n "s/^$_n=\"\{0,1\}\([^\"]*\)\"\{0,1\}$/\1/p" "$1" 2>/dev/null | tail -n 1)
	echo "${_v:-unset}"
}
conf_set() {
	_n=$(echo "$2" | sed 's/\./\\./g')
	_t=$(mktemp)
	grep -v "^$_n=" "$1" >"$_t" 2>/dev/null || true
	case $1 in
	*loader.conf) echo "$2=\"$3\"" >>"$_t" ;;
	*) echo "$2=$3" >>"$_t" ;;
	esac
	cat "$_t" >"$1"
	rm -f "$_t"
}

finish() {
	case $MODE in
	check)
		if [ "$DIFFS" -gt 0 ]; then
			echo "fabricc: $DIFFS difference(s) from the model"
			exit 1
		fi
		echo "fabricc: host matches the model"
		;;
	dry-run)
		if [ "$CHANGES" -eq 0 ]; then echo "fabricc: nothing to do"; else echo "fabricc: $CHANGES change(s) would be made"; fi
		;;
	*)
		if [ "$CHANGES" -eq 0 ]; then echo "fabricc: nothing to do; the host already matches"; else echo "fabricc: $CHANGES change(s) applied"; fi
		;;
	esac
}
`
