package freebsd

// prelude is the fixed part of every script (POSIX sh: FreeBSD has no bash
// by default): option parsing and the helpers the per-NIC steps call. Each
// change goes through ensure, which compares first, so runs are idempotent.
const prelude = `MODE=apply
CHANGED_EXIT=0
ANY_HOST=0
if [ "${FABRICC_ANY_HOST:-}" = 1 ]; then
	ANY_HOST=1
fi

usage() {
	cat <<EOF
Usage: $0 [--check | --dry-run] [--any-host] [--changed-exit N] [--help]

Applies the host side of the fabric's lossless RoCE contract, now and in
/etc/rc.conf, /boot/loader.conf and /etc/sysctl.conf for the next boot.
  (no option)  apply every step whose current value differs (run as root)
  --check      only read (root not needed); print one line per difference
               (interface, what, intended, actual) and exit 3 if any
  --dry-run    print the commands a run would execute; change nothing;
               where a run would stop on an error, print "would stop:"
               and its message, and exit 1 as that run would
  --any-host   run on a host whose name is not $HOST_NAME (the same as
               FABRICC_ANY_HOST=1 in the environment): by default the
               script stops before its first change (exit 1), and --check
               reports a difference, where uname -n (its first label, case
               ignored) is another name
  --changed-exit N
               exit N (3-125) instead of 0 when a run changed something
               (with --dry-run: would change something), for configuration
               management that tells "changed" from "unchanged" by status
  --help       show this text
The fabric's addresses are the only global IPv4/IPv6 addresses of the
interface that carries them: any other is a difference, which a run
removes (ifconfig IF inet|inet6 ADDR -alias). Link-local addresses
(fe80::/10), CARP addresses (vhid, carp(4)) and the interfaces the fabric
does not name are left alone.
Each NIC's steps run on their own: before its first change the script
checks that the NIC is there, is not a lagg(4) port, has every driver
sysctl its steps set, and that no file read at boot after the ones the
script edits (/boot/loader.conf.d, /boot/loader.conf.local,
/etc/rc.conf.d, /etc/sysctl.conf.local) sets one of its variables to
another value; a NIC that fails a check, or a step that fails,
stops that NIC's steps only, the other NICs are still set, and the run
ends naming the NICs that stopped.
Each change a run applies is also logged to the system log (logger -t
fabricc-host-settings).
Exit status: 0 done, nothing to do, or (--check) no difference; 1 error
(a failed step prints "fabricc: error:" with the interface, the step and
the command), or (--dry-run) a run would stop on one; 2 bad option; 3 --check found differences; N a run that
changed something, with --changed-exit N.
EOF
}

while [ $# -gt 0 ]; do
	arg=$1
	shift
	case "$arg" in
	--check | --dry-run)
		if [ "$MODE" != apply ]; then
			echo "fabricc: use only one of --check and --dry-run" >&2
			exit 2
		fi
		MODE=${arg#--}
		;;
	--any-host) ANY_HOST=1 ;;
	--changed-exit=*) CHANGED_EXIT=${arg#--changed-exit=} ;;
	--changed-exit)
		CHANGED_EXIT=${1:-}
		[ $# -eq 0 ] || shift
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
# --changed-exit N: digits only, at most three, without leading zeros
# (sh would read 010 as octal), 0 or 3-125.
case $CHANGED_EXIT in
'' | *[!0-9]* | ????*) CHANGED_EXIT=bad ;;
*)
	CHANGED_EXIT=$(echo "$CHANGED_EXIT" | sed 's/^0*//')
	CHANGED_EXIT=${CHANGED_EXIT:-0}
	if [ "$CHANGED_EXIT" -ne 0 ] && { [ "$CHANGED_EXIT" -lt 3 ] || [ "$CHANGED_EXIT" -gt 125 ]; }; then
		CHANGED_EXIT=bad
	fi
	;;
esac
if [ "$CHANGED_EXIT" = bad ]; then
	echo "fabricc: --changed-exit takes a number from 3 to 125 (0, 1 and 2 are taken; 126 and up are the shell's)" >&2
	exit 2
fi
if [ "$MODE" = check ] && [ "$CHANGED_EXIT" -ne 0 ]; then
	echo "fabricc: --check changes nothing; use --changed-exit with a run or --dry-run" >&2
	exit 2
fi

DIFFS=0
CHANGES=0
# 1 in a dry run whose run would stop on the host name (host_guard).
HOST_STOP=0
# 1 in a NIC's dry run where the NIC's interface is not there because its
# driver is not loaded yet (missing_link): every step is shown, as the run
# loads the driver first.
SHOW_EVERY=0
# The interfaces whose steps stopped (nic_leave), for finish.
FAILED=

die() {
	echo "fabricc: error: $*" >&2
	exit 1
}
note() { echo "note: $*"; }

# would_stop MESSAGE: in a dry run, where a run would stop the NIC's steps
# with "fabricc: error: MESSAGE": the same MESSAGE, after "would stop:",
# and the NIC's steps end there, as the run's would (status 1: nic_leave
# names the NIC for finish).
would_stop() {
	echo "would stop: $*"
	exit 1
}

# journal TEXT: TEXT to the system log, tagged fabricc-host-settings
# (logger(1)), so that a manual or configuration-management run leaves a
# trace in /var/log/messages of what it changed; nothing where logger is
# absent.
journal() {
	command -v logger >/dev/null 2>&1 || return 0
	logger -t fabricc-host-settings -- "$*" >/dev/null 2>&1 || true
}
skip() { echo "skipped: $*"; }
manual() { echo "manual: $*"; }

diff_line() {
	echo "DIFF $1 $2: intended $3; actual $4"
	DIFFS=$((DIFFS + 1))
}

# sysctl_stops OID: true when OID, the first of a step's driver sysctls,
# is absent, so that a run stops on it (unavailable), and a dry run with
# it; false in a dry run that shows every step (missing_link).
sysctl_stops() {
	[ "$(sysctl_get "$1")" = absent ] && [ "$SHOW_EVERY" = 0 ]
}

# unavailable IF WHAT NEED FIX: a setting whose driver interface is not
# there; a difference in --check, an error otherwise.
unavailable() {
	case $MODE in
	check) diff_line "$1" "$2" "$3 present" absent ;;
	dry-run) would_stop "$1 $2: $3 absent: $4" ;;
	*) die "$1 $2: $3 absent: $4" ;;
	esac
}

# shq WORD: WORD as sh reads it back: bare when it has only safe
# characters, else in single quotes (a quote in it as '\'').
shq() {
	case $1 in
	'' | *[!A-Za-z0-9_./:,=+@%-]*)
		printf "'%s'" "$(printf '%s' "$1" | sed "s/'/'\\\\''/g")"
		;;
	*) printf '%s' "$1" ;;
	esac
}

# cmd_text CMD...: the command as one could paste it into a root shell:
# rc_set as the sysrc it runs, conf_set as the copy beside the file,
# grep, echo and rename that do its edit.
cmd_text() {
	case $1 in
	rc_set)
		printf 'sysrc %s' "$(shq "$2=$3")"
		return 0
		;;
	rc_add)
		printf 'sysrc %s' "$(shq "$2+=$3")"
		return 0
		;;
	conf_set)
		_re=$(printf '%s' "$3" | sed 's/\./\\./g')
		# shellcheck disable=SC2016 # the text of a command, shown, not run
		printf 't=$(mktemp %s) && cp -p %s "$t" && { grep -v %s %s >"$t"; [ $? -le 1 ]; } && echo %s >>"$t" && mv -f "$t" %s' \
			"$(shq "$2.XXXXXX")" "$(shq "$2")" "$(shq "^$_re=")" "$(shq "$2")" "$(shq "$(conf_line "$2" "$3" "$4")")" "$(shq "$2")"
		return 0
		;;
	esac
	_line=
	for _a in "$@"; do
		_line="$_line $(shq "$_a")"
	done
	printf '%s' "${_line# }"
}

# ensure IF WHAT WANT HAVE CMD...: runs CMD only when HAVE differs from WANT.
# A CMD that fails stops the run with status 1, naming the step and CMD.
ensure() {
	_if=$1 _what=$2 _want=$3 _have=$4
	shift 4
	[ "$_have" = "$_want" ] && return 0
	case $MODE in
	check) diff_line "$_if" "$_what" "$_want" "$_have" ;;
	dry-run)
		echo "would run: $(cmd_text "$@")"
		CHANGES=$((CHANGES + 1))
		;;
	*)
		echo "set $_if $_what: $_have -> $_want"
		"$@" >/dev/null || {
			_rc=$?
			journal "failed: $_if $_what: $(cmd_text "$@") exit status $_rc"
			die "$_if $_what: $(cmd_text "$@") failed with exit status $_rc"
		}
		journal "set $_if $_what: $_have -> $_want ($(cmd_text "$@"))"
		CHANGES=$((CHANGES + 1))
		;;
	esac
}

# need_root: a run changes the host; --check and --dry-run only read
# (sysctl -n, sysrc -n, ifconfig and the 0644 loader.conf), so that an
# unprivileged account can verify a host.
need_root() {
	if [ "$MODE" = apply ] && [ "$(id -u)" -ne 0 ]; then
		die "run as root (or use --dry-run to only print the commands, --check to compare)"
	fi
}

# lower WORD: WORD in lower case (ASCII), for names compared with case
# ignored.
lower() { printf '%s' "$1" | tr '[:upper:]' '[:lower:]'; }

# host_guard: stops before the first change on a host whose name (uname -n,
# its first label or the whole name, case ignored) is not HOST_NAME: the
# script is for one host, and identical hosts have identical interface
# names, so on another (a copied script, a mis-mapped configuration
# management run) it would delete that host's addresses and add this
# one's. --check reports the difference and reads on, --dry-run notes it;
# --any-host (FABRICC_ANY_HOST=1) goes on with a note, for a host whose
# name is set later in its boot. uname(1) -n and hostname(1) both print
# the kernel's kern.hostname (gethostname(3)).
host_guard() {
	_hn=$(uname -n 2>/dev/null) || _hn=$(hostname 2>/dev/null) || _hn=
	_lc=$(lower "$_hn")
	_hw=$(lower "$HOST_NAME")
	if [ -n "$_lc" ] && { [ "$_lc" = "$_hw" ] || [ "${_lc%%.*}" = "$_hw" ]; }; then
		return 0
	fi
	_why="this host's name (uname -n) is $(shq "${_hn:-unknown}"), not $(shq "$HOST_NAME"), the host this script is for"
	if [ "$ANY_HOST" = 1 ]; then
		note "$_why; going on (--any-host)"
		return 0
	fi
	_fix="use this host's own script, or, where the name is set later (a shared image), run with --any-host (or FABRICC_ANY_HOST=1)"
	case $MODE in
	check) diff_line system "host name" "$(shq "$HOST_NAME")" "$(shq "${_hn:-unknown}")" ;;
	dry-run)
		echo "would stop: $_why; nothing was changed: $_fix"
		HOST_STOP=1
		;;
	*) die "$_why; nothing was changed: $_fix" ;;
	esac
}

# Each NIC's steps run in a command substitution, a subshell, so that a
# step that stops (die) ends that NIC's steps only and the other NICs are
# still set:
#   { set +e; NIC_COUNTS=$(nic_enter; nic_N >&3); nic_leave IF $?; } 3>&1
# The steps' output goes to fd 3, the script's standard output; the
# subshell hands the counters back on its own (fd 4, since a die inside
# "nic_N >&3" still has fd 1 on 3). nic_leave names a NIC that stopped
# for finish, which then exits 1.
NIC_COUNTS=
nic_enter() {
	exec 4>&1
	trap 'printf "%d %d" "$CHANGES" "$DIFFS" >&4' EXIT
	set -e
}

# nic_leave IF STATUS: takes the counters back and notes a NIC that
# stopped.
nic_leave() {
	set -e
	case $NIC_COUNTS in
	*' '*)
		CHANGES=${NIC_COUNTS%% *}
		DIFFS=${NIC_COUNTS#* }
		;;
	esac
	if [ "$2" -ne 0 ]; then
		FAILED="${FAILED:+$FAILED }$1"
	fi
}

link_exists() { ifconfig "$1" >/dev/null 2>&1; }

# nic_stop IF WHAT INTENDED ACTUAL MESSAGE: a NIC whose steps must not
# run: an error that stops the NIC's steps in a run, and the same message
# where a dry run stops them (would_stop); in --check a difference, and
# true, so that the check goes on to read each of the NIC's settings.
nic_stop() {
	case $MODE in
	check)
		diff_line "$1" "$2" "$3" "$4"
		return 0
		;;
	dry-run) would_stop "$1: $5" ;;
	esac
	die "$1: $5"
}

# mellanox_pci IF DRIVER: false (nic_stop) when pciconf(8) lists no
# Mellanox device (PCI vendor 0x15b3) at all, so that a host that is not
# the fabric's gets no driver loaded and no loader.conf line; pciconf -l
# prints "vendor=0x15b3" for each ConnectX, with or without its driver.
mellanox_pci() {
	command -v pciconf >/dev/null 2>&1 || return 0
	_pci=$(pciconf -l 2>/dev/null) || return 0
	case $_pci in
	*vendor=0x15b3*) return 0 ;;
	esac
	nic_stop "$1" device 'Mellanox PCI device' absent "no Mellanox device (PCI vendor 0x15b3) in pciconf -l, so $2 has nothing to drive: is this the host the fabric names, with its ConnectX installed?"
}

# driver_units PREFIX: the interfaces named PREFIX<N> (ifconfig -l).
driver_units() {
	ifconfig -l 2>/dev/null | tr ' ' '\n' | grep -E "^$1[0-9]+\$" | tr '\n' ' ' | sed 's/ $//' || true
}

# missing_link IF DRIVER PREFIX FAMILY: false when the NIC's steps must
# be left out. --check reports the difference. A run, which has loaded
# the driver by now (the module step), stops here with why (link_why); a
# dry run stops with the same message where the driver is loaded already
# (kmod_state: its module, or for mlx5en, which declares none, its
# interfaces' sysctl tree dev.mce, dev.PREFIX), and else shows every
# step, since the run's kldload may yet create the interface.
missing_link() {
	case $MODE in
	check)
		diff_line "$1" link present absent
		return 1
		;;
	dry-run)
		if [ "$(kmod_state "$2" "dev.$3")" = loaded ]; then
			would_stop "$(link_why "$@")"
		fi
		note "$1 is not present here and $2 is not loaded; showing every step"
		SHOW_EVERY=1
		return 0
		;;
	*) die "$(link_why "$@")" ;;
	esac
}

# link_why IF DRIVER PREFIX FAMILY: why IF is not there: rc.conf renames
# it, the driver has other interfaces here, or none at all.
link_why() {
	# rc.conf(5) ifconfig_<if>_name renames the interface at boot.
	_rn=$(rc_get "ifconfig_$1_name")
	if [ "$_rn" != unset ]; then
		echo "interface $1 not found; rc.conf renames it (ifconfig_$1_name=$_rn): write the new name as the nic's interface in the fabric and $1 as its driver_interface"
		return 0
	fi
	_units=$(driver_units "$3")
	if [ -n "$_units" ]; then
		echo "interface $1 not found; $2 is loaded and has $_units: fix the nic's interface attribute in the fabric"
	else
		echo "interface $1 not found, and no $2 interface ($3<N>) on this host: is its NIC a $4, with its driver loaded?"
	fi
}

# renamed_from IF DRVIF: IF, which rc.conf renames, is the interface the
# driver named DRVIF, whose sysctls the steps set (the driver names them
# when it attaches, and a rename keeps them). ifconfig -D prints the
# driver's name and unit (ifconfig(8), -D, FreeBSD 13 and later:
# "drivername: mce0"); where it prints none, rc.conf's
# ifconfig_DRVIF_name (rc.conf(5)) must name IF. Otherwise the steps could
# set another port's sysctls: false (nic_stop). A missing IF is
# nic_ready's to report.
renamed_from() {
	link_exists "$1" || return 0
	_drv=$(ifconfig -D "$1" 2>/dev/null | awk '$1 == "drivername:" { print $2; exit }') || true
	# A name without its unit cannot tell the ports apart: rc.conf decides.
	case $_drv in
	*[0-9]) ;;
	*) _drv= ;;
	esac
	if [ -z "$_drv" ]; then
		_rn=$(rc_get "ifconfig_$2_name")
		[ "$_rn" != "$1" ] || return 0
		nic_stop "$1" 'driver interface' "$2" "unknown (no ifconfig -D; ifconfig_$2_name $_rn)" "ifconfig -D $1 names no driver interface (FreeBSD 12 and earlier) and rc.conf does not rename $2 to $1 (ifconfig_$2_name is $_rn), so nothing shows that $1 is $2, whose sysctls the steps set: rename it with ifconfig_$2_name=\"$1\" in rc.conf, or fix the nic's driver_interface in the fabric"
		return
	fi
	[ "$_drv" != "$2" ] || return 0
	nic_stop "$1" 'driver interface' "$2" "$_drv" "$1 is the driver's $_drv (ifconfig -D), not $2 as the nic's driver_interface says, so the steps would set $2's sysctls for another port: write driver_interface = \"$_drv\" in the fabric"
}

# lagg_of IF: the lagg(4) interface IF is a port of, or nothing.
# ifconfig prints it on the port as "laggdev: lagg0" (FreeBSD 14,
# sbin/ifconfig iflagg.c lagg_status) or within "lagg: laggproto lacp
# laggdev lagg0" (earlier releases).
lagg_of() {
	ifconfig "$1" 2>/dev/null | awk '
		$1 == "laggdev:" { print $2; exit }
		$1 == "lagg:" { for (i = 2; i < NF; i++) if ($i == "laggdev") { print $(i + 1); exit } }' || true
}

# oids_missing OID...: the OIDs sysctl -N does not know, one line.
oids_missing() {
	_miss=
	for _o in "$@"; do
		sysctl -N "$_o" >/dev/null 2>&1 || _miss="${_miss:+$_miss }$_o"
	done
	echo "$_miss"
}

# nic_ready IF DRIVER PREFIX FAMILY OID...: before the NIC's first
# change: the interface is there (missing_link), is not a lagg(4) port,
# and has every driver sysctl its steps set; false when its steps must
# not run. In a dry run without the interface every step is shown.
nic_ready() {
	_ifc=$1 _drv=$2 _pre=$3 _fam=$4
	shift 4
	if ! link_exists "$_ifc"; then
		missing_link "$_ifc" "$_drv" "$_pre" "$_fam"
		return
	fi
	_lagg=$(lagg_of "$_ifc")
	if [ -n "$_lagg" ]; then
		# if_lagg.c refuses an MTU change on a port (lagg_port_ioctl,
		# SIOCSIFMTU), and the addresses belong on the lagg.
		nic_stop "$_ifc" lagg 'not a lagg(4) port' "port of $_lagg" "$_ifc is a port of $_lagg (lagg(4)); fabricc does not configure lagg ports (their MTU and addresses belong on $_lagg): take $_ifc out of $_lagg, or out of the fabric"
		return
	fi
	_miss=$(oids_missing "$@")
	if [ -n "$_miss" ]; then
		nic_stop "$_ifc" 'driver sysctls' present "absent: $_miss" "$_drv lacks $_miss, so nothing is set on $_ifc (PFC without the trust and DSCP map would be half the contract, and loader.conf would hold tunables for nodes that are not there); mlx5en creates its conf.qos nodes only where the firmware answers the DSCP, buffer and priority-to-TC queries, and older releases lack them: update FreeBSD and the NIC firmware"
		return
	fi
}

# shadow_files FILE: the files FreeBSD reads at boot after FILE, the one
# the script edits, and that can set a variable of FILE's kind, in the
# order it reads them (the last setting wins); one a line.
#   /boot/loader.conf: loader.conf(5): the *.conf files of loader_conf_dirs
#     (/boot/loader.conf.d, FreeBSD 13 and later) after loader_conf_files
#     (/boot/loader.conf), then local_loader_conf_files
#     (/boot/loader.conf.local), which older releases list last in
#     loader_conf_files.
#   /etc/rc.conf: rc.conf(5): load_rc_config reads rc_conf_files (/etc/rc.conf,
#     /etc/rc.conf.local, which sysrc reads and edits too), then
#     /etc/rc.conf.d/<service> and /usr/local/etc/rc.conf.d/<service>,
#     each a file or a directory whose files are all read; rc.d/netif,
#     which sets up the interfaces and their VLANs, reads its own (netif)
#     and network's.
#   /etc/sysctl.conf: rc.d/sysctl reads /etc/sysctl.conf, then /etc/sysctl.conf.local
#     (sysctl.conf(5)).
shadow_files() {
	case $1 in
	/boot/loader.conf) set -- /boot/loader.conf.d/*.conf /boot/loader.conf.local ;;
	/etc/rc.conf) set -- /etc/rc.conf.d/netif /usr/local/etc/rc.conf.d/netif /etc/rc.conf.d/network /usr/local/etc/rc.conf.d/network ;;
	*) set -- /etc/sysctl.conf.local ;;
	esac
	for _sf in "$@"; do
		if [ -d "$_sf" ]; then
			for _sg in "$_sf"/*; do
				[ ! -f "$_sg" ] || echo "$_sg"
			done
		elif [ -f "$_sf" ]; then
			echo "$_sf"
		fi
	done
}

# conf_scan: the last assignment to each variable in each file, all of
# them in one pass; the one reader of loader.conf(5), sysctl.conf(5) and
# rc.conf.d lines (shadowed, conf_get). It reads on its input, fields
# apart by US (\037), the files, "f ED FILE" (for shadowed, FILE is one
# of those boot reads after ED, shadow_files), and the variables, "v ED
# NAME MATCH WANT OWNS", and prints for each variable, in input order,
# and each file of its ED, in input order, where that file last assigns
# NAME: "FILE:LINE NAME VALUE WANT ED MATCH OWNS", US apart. An
# assignment is NAME=VALUE with VALUE bare, "quoted" or 'quoted', as
# sh(1) reads rc.conf.d files and the loader reads loader.conf(5) lines
# (blanks around = allowed there, a leading export here). Each file is
# read once, whatever the number of variables.
conf_scan() {
	awk -v sq="'" '
		BEGIN { FS = "\037" }
		$1 == "f" { nf[$2]++; fl[$2, nf[$2]] = $3 }
		$1 == "v" { nv++; ved[nv] = $2; vn[nv] = $3; vm[nv] = $4; vw[nv] = $5; vo[nv] = $6; want[$2, $3] = 1 }
		END {
			for (ed in nf) for (j = 1; j <= nf[ed]; j++) scan(ed, fl[ed, j])
			for (i = 1; i <= nv; i++) for (j = 1; j <= nf[ved[i]]; j++) {
				k = fl[ved[i], j] SUBSEP vn[i]
				if (k in at) printf "%s:%s\037%s\037%s\037%s\037%s\037%s\037%s\n", fl[ved[i], j], at[k], vn[i], val[k], vw[i], ved[i], vm[i], vo[i]
			}
		}
		# scan(ED, F): at[F, NAME] and val[F, NAME], the line and value of
		# the last assignment in F to each NAME wanted for ED.
		function scan(ed, f,    l, n, r, q, i, v, nr) {
			while ((getline l < f) > 0) {
				nr++
				sub(/^[ \t]+/, "", l)
				if (substr(l, 1, 7) == "export ") { l = substr(l, 8); sub(/^[ \t]+/, "", l) }
				n = l; sub(/[ \t=].*$/, "", n)
				if (!((ed, n) in want)) continue
				r = substr(l, length(n) + 1); sub(/^[ \t]*/, "", r)
				if (substr(r, 1, 1) != "=") continue
				r = substr(r, 2); sub(/^[ \t]*/, "", r)
				q = substr(r, 1, 1)
				if (q == "\"" || q == sq) { r = substr(r, 2); i = index(r, q); v = i ? substr(r, 1, i - 1) : r }
				else { v = r; sub(/[ \t;#].*$/, "", v) }
				at[f, n] = nr; val[f, n] = v
			}
			close(f)
		}'
}

# shadow_ok MATCH WANT VALUE [OWNS]: VALUE gives the variable what the
# fabric needs: WANT itself (whole), WANT among its words (member), or
# WANT's words, as rc_words merges them with OWNS (words).
shadow_ok() {
	case $1 in
	member)
		case " $3 " in
		*" $2 "*) return 0 ;;
		esac
		return 1
		;;
	words) [ "$(rc_merge "$3" "$2" "$4")" = "$3" ] ;;
	*) [ "$3" = "$2" ] ;;
	esac
}

# shadowed IF [FILE NAME MATCH WANT [OWNS]]...: before the NIC's first
# change, each NAME the NIC's steps write to FILE (/boot/loader.conf,
# /etc/rc.conf, /etc/sysctl.conf) is looked for in the files read at
# boot after that one (shadow_files, listed once per FILE), OWNS
# following a words MATCH, all in one pass (conf_scan): one that sets
# NAME to a value without the fabric's (shadow_ok) wins at boot over what
# the script writes, so --check reports each, naming the file and line,
# and a run changes nothing on IF (nic_stop).
shadowed() {
	_ifc=$1
	shift
	# Fields apart by US (\037), which, unlike a blank, keeps an empty
	# value a field of its own.
	_us=$(printf '\037')
	_in='' _eds=''
	while [ $# -ge 4 ]; do
		_own='' _step=4
		[ "$3" != words ] || _own=$5 _step=5
		case $_eds in
		*"$_us$1$_us"*) ;;
		*)
			_eds="$_eds$_us$1$_us"
			_in="$_in$(shadow_files "$1" | while IFS= read -r _f; do printf 'f\037%s\037%s\n' "$1" "$_f"; done)
"
			;;
		esac
		_in="${_in}v$_us$1$_us$2$_us$3$_us$4$_us$_own
"
		shift $_step
	done
	_found=$(printf '%s' "$_in" | conf_scan)
	_msg=
	while IFS=$_us read -r _at _n _v _w _ed _m _o; do
		[ -n "$_at" ] || continue
		if shadow_ok "$_m" "$_w" "$_v" "$_o"; then
			continue
		fi
		if [ "$MODE" = check ]; then
			diff_line "$_ifc" "$_n at boot ($_at)" "$_w" "$_v"
		fi
		_msg="${_msg:+$_msg; }$_at sets $_n=\"$_v\", which boot reads after $_ed and so wins over the fabric's \"$_w\""
	done <<SHADOWS
$_found
SHADOWS
	[ -n "$_msg" ] || return 0
	[ "$MODE" != check ] || return 0
	nic_stop "$_ifc" 'boot files' '' '' "$_msg: make it the fabric's value there or remove it, then run again"
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

# nd6_state IF: IFDISABLED when IPv6 is off on IF, enabled, or absent:
# ifconfig IF inet6 prints "nd6 options=" with IFDISABLED among the flags
# (sbin/ifconfig af_inet6.c; ifconfig(8), "ifdisabled").
nd6_state() {
	_nd=$(ifconfig "$1" inet6 2>/dev/null) || {
		echo absent
		return 0
	}
	case $_nd in
	*nd6\ options=*IFDISABLED*) echo IFDISABLED ;;
	*) echo enabled ;;
	esac
}

# addr_extra IF ADDR...: "inet A/N" or "inet6 A/N" per address of IF other
# than the ADDRs; link-local ones (fe80::/10, printed with their %scope)
# and CARP ones never: carp(4) owns an address ifconfig prints with
# " vhid N" (sbin/ifconfig af_inet.c, af_inet6.c), and adds and removes
# it as the host becomes master or backup.
addr_extra() {
	_ifc=$1
	shift
	ifconfig -f inet:cidr,inet6:cidr "$_ifc" 2>/dev/null | awk -v keep="$*" '
		BEGIN { n = split(keep, k, " "); for (i = 1; i <= n; i++) want[k[i]] = 1 }
		($1 == "inet" || $1 == "inet6") && !($2 in want) && tolower($2) !~ /^fe[89ab][0-9a-f]:/ && $2 !~ /%/ && $0 !~ / vhid [0-9]/ { print $1, $2 }' || true
}

# addr_carp IF: "A/N N" per CARP address of IF and its vhid.
addr_carp() {
	ifconfig -f inet:cidr,inet6:cidr "$1" 2>/dev/null | awk '
		($1 == "inet" || $1 == "inet6") { for (i = 3; i < NF; i++) if ($i == "vhid") print $2, $(i + 1) }' || true
}

# addr_prune IF ADDR...: removes the addresses addr_extra finds, before the
# model's are added; notes the CARP ones it leaves.
addr_prune() {
	_ifc=$1
	shift
	addr_carp "$_ifc" | while read -r _a _v; do
		note "$_ifc: $_a is a CARP address (vhid $_v), left alone"
	done
	_extra=$(addr_extra "$_ifc" "$@")
	[ -n "$_extra" ] || return 0
	set -f
	# shellcheck disable=SC2086 # words of ifconfig's output, globbing off
	set -- $_extra
	set +f
	while [ $# -ge 2 ]; do
		ensure "$_ifc" "address $2" absent present ifconfig "$_ifc" "$1" "$2" -alias
		shift 2
	done
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

# media_subtype IF: the configured media word of IF (ifconfig's "media:
# Ethernet autoselect (...)" or "media: Ethernet 100GBase-CR4 <...>"),
# autoselect when none is shown.
media_subtype() {
	_m=$(ifconfig "$1" 2>/dev/null | awk '$1 == "media:" { print $3; exit }') || true
	echo "${_m:-autoselect}"
}

# pause_off IF WANT HAVE [MEDIAOPT]: 802.3x global pause off through the
# media options (ifconfig(8) media, mediaopt), which re-sets the media:
# mlx5en takes the port down and up to do so (mlx5_en_main.c,
# mlx5e_media_change), so the run says so first, and the configured media
# subtype stays (a pinned 100GBase-CR4 is not turned into autoselect).
# A pause state that cannot be read while the link is down is noted,
# neither a difference nor a change, since every run would repeat it.
pause_off() {
	case $3 in
	unknown*)
		note "$1: its 802.3x pause cannot be read while the link is down ($3); run again once it is up"
		return 0
		;;
	esac
	[ "$3" != "$2" ] || return 0
	_sub=$(media_subtype "$1")
	if [ "$MODE" != check ]; then
		note "$1: turning 802.3x pause off re-sets its media ($_sub), which takes the link down and up"
	fi
	if [ -n "${4:-}" ]; then
		ensure "$1" 'global pause' "$2" "$3" ifconfig "$1" media "$_sub" mediaopt "$4"
	else
		ensure "$1" 'global pause' "$2" "$3" ifconfig "$1" media "$_sub"
	fi
}

# sysctl_get NAME: the value, arrays as comma lists, or absent.
sysctl_get() {
	_v=$(sysctl -n "$1" 2>/dev/null) || {
		echo absent
		return 0
	}
	echo "$_v" | tr -s ' ,' ',,' | sed 's/^,//; s/,$//'
}

# cnp_prio OIDBASE: the CNP priority in force, OIDBASE's np_cnp_prio,
# which the NIC uses only while np_cnp_prio_mode is 0 (FreeBSD
# sys/dev/mlx5/mlx5_ib/mlx5_ib_cong.c: a write of np_cnp_prio sets the mode
# 0); absent without mlx5ib.
cnp_prio() {
	_m=$(sysctl_get "${1}np_cnp_prio_mode")
	case $_m in
	0 | absent) sysctl_get "${1}np_cnp_prio" ;;
	*) echo "not used (np_cnp_prio_mode $_m)" ;;
	esac
}

# cnp_default IF OIDBASE DSCP PRIO: the CNP marking the fabric shares with
# the firmware default, read through mlx5ib's congestion sysctls (OIDBASE
# ends in cong.conf.), which hold the firmware's values from attach:
# firmware set otherwise (mlxconfig CNP_DSCP_P1, CNP_802P_PRIO_P1) marks
# CNPs otherwise. A difference is set now (a DIFF in --check), with the
# firmware fix that outlasts the next attach; "not read" where mlx5ib is
# not loaded.
cnp_default() {
	_cd=$(sysctl_get "${2}np_cnp_dscp")
	if [ "$_cd" = absent ]; then
		note "$1: CNP marking, wanted DSCP $3 priority $4 (the firmware default), not read: ${2}np_cnp_dscp is absent (kldload mlx5ib to read it; mlxconfig -d DEV query CNP_DSCP_P1 CNP_802P_PRIO_P1 shows the firmware's)"
		return 0
	fi
	_cp=$(cnp_prio "$2")
	[ "$_cd" = "$3" ] && [ "$_cp" = "$4" ] && return 0
	ensure "$1" "${2}np_cnp_dscp" "$3" "$_cd" sysctl "${2}np_cnp_dscp=$3"
	ensure "$1" "${2}np_cnp_prio" "$4" "$_cp" sysctl "${2}np_cnp_prio=$4"
	manual "$1: the firmware marks CNPs DSCP $_cd priority $_cp, not the fabric's $3/$4, and takes its own again at the next attach: mlxconfig -d DEV set CNP_DSCP_P1=$3 CNP_802P_PRIO_P1=$4 and a reboot keep the fabric's"
}

# route_state FAMILY PREFIX: "GATEWAY on IF" of the route to exactly PREFIX
# (route(8) get; with a netmask the kernel looks the prefix up exactly,
# without one, as for a /32 or /128, it takes the longest match, which is
# the prefix's own only when it is a HOST route: FreeBSD sys/net/rtsock.c,
# handle_rtm_get), the gateway without its %scope; "absent" when there is
# none.
route_state() {
	case $2 in
	*/32 | */128) _host=1 ;;
	*) _host=0 ;;
	esac
	_rs=$(route -n get "$1" -net "$2" 2>/dev/null) || {
		echo absent
		return 0
	}
	printf '%s\n' "$_rs" | awk -v d="${2%/*}" -v host="$_host" '
		$1 == "destination:" { dst = $2 }
		$1 == "gateway:" { gw = $2; sub(/%.*/, "", gw) }
		$1 == "interface:" { ifc = $2 }
		$1 == "flags:" { fl = $2 }
		END {
			if (dst != d || gw == "" || (host == 1 && fl !~ /HOST/)) print "absent"
			else print gw " on " ifc
		}'
}

# route_verb STATE: route(8)'s command for a route whose route_state is
# STATE: add where there is none, else change.
route_verb() {
	if [ "$1" = absent ]; then
		echo add
	else
		echo change
	fi
}

rc_get() { sysrc -n "$1" 2>/dev/null || echo unset; }
rc_set() { sysrc "$1=$2"; }
rc_add() { sysrc "$1+=$2"; }

# rc_member VAR WORD: VAR, a list (rc.conf(5): the VLANs of a parent), holds
# WORD; the other words stay: sysrc VAR+=WORD adds it (sysrc(8),
# "APPENDING VALUES").
rc_member() {
	_cur=$(rc_get "$1")
	case " $_cur " in
	*" $2 "*) _has="has $2" ;;
	*) _has=$_cur ;;
	esac
	ensure rc.conf "$1" "has $2" "$_has" rc_add "$1" "$2"
}

# rc_merge CURRENT WANT OWNS: the ifconfig_<if> value with WANT's words
# (an "inet A" or "inet6 A" first, then up, mtu N, media M) in CURRENT:
# a keyword of WANT already there gets WANT's argument in its place, one
# missing is added at the end, the address goes first (ifconfig(8) reads
# the address family and address before the parameters); a word of
# CURRENT among OWNS that WANT lacks is dropped, every other word stays
# in its place (-lro, -tso, description, another address on a VLAN's
# parent). A media subtype CURRENT forces stays (WANT's media, autoselect,
# is only what a line without one gets): the fabric needs the media set
# without 802.3x pause, not another subtype, so of CURRENT's mediaopt
# only rxpause and txpause go (ifconfig(8), media and mediaopt; mlx4en
# takes pause from the media options, mlx4_en_netdev.c,
# mlx4_en_media_change). Words are split at blanks, as rc(8) passes them
# to ifconfig.
rc_merge() {
	awk -v cur="$1" -v want="$2" -v owns="$3" -v args="` + wordArgs + `" 'BEGIN {
		n = split(args, a, " "); for (i = 1; i <= n; i++) arg[a[i]] = 1
		n = split(owns, a, " "); for (i = 1; i <= n; i++) own[a[i]] = 1
		nw = split(want, w, " "); nk = 0; lead = ""
		for (i = 1; i <= nw; i++) {
			k = w[i]; v = ""; if (k in arg) v = w[++i]
			if (k == "inet" || k == "inet6") { lead = k " " v; own[k] = 1; continue }
			key[++nk] = k; val[k] = v; own[k] = 1
		}
		nc = split(cur, c, " "); out = ""
		for (i = 1; i <= nc; i++) {
			k = c[i]; v = ""; if ((k in arg) && i < nc) v = c[++i]
			if (k == "media" && ("media" in val) && v != "" && !(k in done)) { out = out " media " v; done[k] = 1; continue }
			if (k == "mediaopt" && ("media" in val)) {
				no = split(v, o, ","); v = ""
				for (j = 1; j <= no; j++) if (o[j] != "rxpause" && o[j] != "txpause") v = v (v != "" ? "," : "") o[j]
				if (v != "") out = out " mediaopt " v
				continue
			}
			if ((k in val) && !(k in done)) { out = out " " k (val[k] != "" ? " " val[k] : ""); done[k] = 1; continue }
			if (k in own) continue
			out = out " " k (v != "" ? " " v : "")
		}
		for (j = 1; j <= nk; j++) if (!(key[j] in done)) out = out " " key[j] (val[key[j]] != "" ? " " val[key[j]] : "")
		if (lead != "") out = " " lead out
		print substr(out, 2)
	}'
}

# rc_words VAR WANT OWNS: VAR holds WANT's words and keeps the others
# (rc_merge); a difference names the whole value before and after.
rc_words() {
	_cur=$(rc_get "$1")
	[ "$_cur" != unset ] || _cur=
	_new=$(rc_merge "$_cur" "$2" "$3")
	ensure rc.conf "$1" "$_new" "${_cur:-unset}" rc_set "$1" "$_new"
}

# routes_forget LIST VARPREFIX NAMES PREFIXES: rc.conf's LIST
# (static_routes, or ipv6_static_routes with VARPREFIX ipv6_route_) as
# the fabric has it, before the NICs' steps rewrite it. Each name in LIST
# that starts fabricc_, the script's own mark, is the script's: its live
# route goes where its prefix is none of the fabric's PREFIXES
# (route_forget), and a name not among NAMES, a route the fabric no
# longer has that rc.d/routing would add again at every boot, leaves
# LIST (sysrc(8), NAME-=VALUE) and VARPREFIX<name> goes (sysrc -x). A
# name without that mark is the host's and stays.
routes_forget() {
	_fl=$(rc_get "$1")
	[ "$_fl" != unset ] || return 0
	set -f
	# shellcheck disable=SC2086 # rc.conf's list words, globbing off
	set -- "$1" "$2" "$3" "$4" $_fl
	set +f
	_flist=$1 _fpre=$2 _fkeep=$3 _fpfx=$4
	shift 4
	for _fn in "$@"; do
		case $_fn in
		fabricc_*[!A-Za-z0-9_]* | fabricc_) continue ;;
		fabricc_*) ;;
		*) continue ;;
		esac
		_fv=$(rc_get "$_fpre$_fn")
		route_forget "$_flist" "$_fn" "$_fv" "$_fpfx"
		case " $_fkeep " in
		*" $_fn "*) continue ;;
		esac
		ensure rc.conf "$_flist" "no $_fn" "has $_fn" sysrc "$_flist-=$_fn"
		[ "$_fv" = unset ] || ensure rc.conf "$_fpre$_fn" unset "$_fv" sysrc -x "$_fpre$_fn"
	done
}

# route_forget LIST NAME VALUE PREFIXES: deletes the live route that
# rc.conf's entry NAME of LIST said, VALUE ("-net PREFIX GW", or "-net
# PREFIX -inet6 GW" for an IPv4 prefix via an IPv6 gateway, the forms the
# script writes), when PREFIX is none of the fabric's PREFIXES and route
# get shows that route, to exactly PREFIX via GW (and on GW's interface
# where GW has a %scope): route delete with the entry's arguments, as
# rc.d/routing's stop does (FreeBSD libexec/rc/rc.d/routing, static_inet
# and static_inet6). A route another gateway now carries, or a value not
# in those forms, is not the entry's and stays.
route_forget() {
	_gkeep=$4
	set -f
	# shellcheck disable=SC2086 # rc.conf's value, globbing off
	set -- "$1" "$2" $3
	set +f
	_gl=$1 _gn=$2
	shift 2
	_gfam=-inet
	[ "$_gl" != ipv6_static_routes ] || _gfam=-inet6
	case $#:${1:-}:${3:-} in
	3:-net:*) _gp=$2 _ggw=$3 ;;
	4:-net:-inet6) [ "$_gfam" = -inet ] || return 0; _gp=$2 _ggw=$4 ;;
	*) return 0 ;;
	esac
	case " $_gkeep " in
	*" $_gp "*) return 0 ;;
	esac
	_gst=$(route_state "$_gfam" "$_gp")
	[ "$_gst" != absent ] || return 0
	[ "${_gst%% on *}" = "${_ggw%%\%*}" ] || return 0
	case $_ggw in
	*%*) [ "${_gst#* on }" = "${_ggw#*%}" ] || return 0 ;;
	esac
	if [ "$_gfam" = -inet6 ]; then
		ensure "${_gst#* on }" "route $_gp ($_gn)" absent "$_gst" route delete -inet6 "$@"
	else
		ensure "${_gst#* on }" "route $_gp ($_gn)" absent "$_gst" route delete "$@"
	fi
}

# conf_get FILE NAME: the value of FILE's last assignment to NAME, read
# as shadowed reads the files boot reads after FILE (conf_scan: quoted or
# bare, blanks around =, a leading export, a trailing comment), or unset
# (an empty value too). A hand-written line conf_set leaves in place
# (NAME = "v") is thus read as the loader and rc.d/sysctl read it; the
# line conf_set adds comes last, and so wins.
conf_get() {
	_cg=$(printf 'f\037-\037%s\nv\037-\037%s\037whole\037\037\n' "$1" "$2" | conf_scan)
	# FILE:LINE US NAME US VALUE US ...: the third field.
	_cs=$(printf '\037')
	_cg=${_cg#*"$_cs"}
	_cg=${_cg#*"$_cs"}
	_cg=${_cg%%"$_cs"*}
	echo "${_cg:-unset}"
}

# conf_line FILE NAME VALUE: the line conf_set writes: quoted in
# loader.conf(5), bare in sysctl.conf(5).
conf_line() {
	case $1 in
	*loader.conf) echo "$2=\"$3\"" ;;
	*) echo "$2=$3" ;;
	esac
}

# conf_set FILE NAME VALUE: FILE with its NAME= lines replaced by one
# NAME=VALUE line. The new file is built beside FILE (same file system),
# with FILE's mode and owner (cp -p), and renamed over it, which rename(2)
# makes atomic: FILE is always either the old or the new whole file. grep
# -v exits 1 when it leaves no line, which is fine, and 2 on a read or
# write error (a full disk), which stops the step with FILE untouched, as
# does a new file whose line count is not the old one's less the lines
# removed plus one.
conf_set() {
	_n=$(echo "$2" | sed 's/\./\\./g')
	_t=$(mktemp "$1.XXXXXX") || return 1
	_rc=0
	if [ -e "$1" ]; then
		cp -p "$1" "$_t" || _rc=2
		[ "$_rc" -ne 0 ] || grep -v "^$_n=" "$1" >"$_t" || _rc=$?
	fi
	if [ "$_rc" -gt 1 ]; then
		echo "fabricc: $1 not changed: reading it or writing $_t failed (status $_rc)" >&2
		rm -f "$_t"
		return "$_rc"
	fi
	_old=0 _gone=0
	if [ -e "$1" ]; then
		_old=$(grep -c '' "$1") || true
		_gone=$(grep -c "^$_n=" "$1") || true
	fi
	if ! conf_line "$1" "$2" "$3" >>"$_t" || [ "$(grep -c '' "$_t")" -ne $((_old - _gone + 1)) ]; then
		echo "fabricc: $1 not changed: the new copy $_t came out incomplete" >&2
		rm -f "$_t"
		return 1
	fi
	# fsync(1), in FreeBSD's base system: the new file's data on disk
	# before the rename makes it the only copy.
	if command -v fsync >/dev/null 2>&1; then fsync "$_t" || true; fi
	mv -f "$_t" "$1" || {
		rm -f "$_t"
		return 1
	}
}

# failed_text: the summary's words for the NICs whose steps stopped (in
# a dry run: would stop), so that a run in which a NIC failed never says
# the host already matches, nor its dry run that there is nothing to do.
failed_text() {
	_n=0
	for _f in $FAILED; do _n=$((_n + 1)); done
	if [ "$MODE" = dry-run ]; then
		printf '%d NIC(s) would fail, a run would stop their steps on an error: %s' "$_n" "$FAILED"
	else
		printf '%d NIC(s) failed, their steps stopped on an error: %s' "$_n" "$FAILED"
	fi
}

finish() {
	case $MODE in
	check)
		if [ "$DIFFS" -gt 0 ]; then
			echo "fabricc: $DIFFS difference(s) from the model"
		elif [ -z "$FAILED" ]; then
			echo "fabricc: host matches the model"
		fi
		;;
	dry-run)
		if [ "$HOST_STOP" = 1 ]; then
			echo "fabricc: a run would stop on the host name before its first change (see would stop: above)"
		elif [ -n "$FAILED" ]; then
			echo "fabricc: $CHANGES change(s) would be made; $(failed_text)"
		elif [ "$CHANGES" -eq 0 ]; then echo "fabricc: nothing to do"; else echo "fabricc: $CHANGES change(s) would be made"; fi
		;;
	*)
		if [ -n "$FAILED" ]; then
			echo "fabricc: $CHANGES change(s) applied; $(failed_text)"
		elif [ "$CHANGES" -eq 0 ]; then echo "fabricc: nothing to do; the host already matches"; else echo "fabricc: $CHANGES change(s) applied"; fi
		;;
	esac
	if [ "$HOST_STOP" = 1 ]; then
		echo "fabricc: error: a run would stop on the host name (see would stop: above)" >&2
		exit 1
	fi
	if [ -z "$FAILED" ] && [ "$MODE" != check ] && [ "$CHANGES" -gt 0 ] && [ "$CHANGED_EXIT" -ne 0 ]; then
		exit "$CHANGED_EXIT"
	fi
	if [ -n "$FAILED" ] && [ "$MODE" = dry-run ]; then
		echo "fabricc: error: a run would stop the steps of these NICs (see would stop: above; the other NICs' steps would run): $FAILED" >&2
		exit 1
	fi
	case $FAILED in
	'')
		# 3, not 1, for differences alone: 1 is an error (a NIC's steps
		# stopped), as the Linux script has it, so that fabricc verify
		# and configuration management tell the two apart.
		if [ "$MODE" = check ] && [ "$DIFFS" -gt 0 ]; then exit 3; fi
		;;
	*)
		echo "fabricc: error: the steps of these NICs stopped (see fabricc: error: above; the other NICs' steps ran): $FAILED" >&2
		exit 1
		;;
	esac
}
`
