#!/usr/bin/env bash
# Regenerates cmd/fabricc/default.pgo, the CPU profile from which Go's
# compiler optimises fabricc (profile-guided optimisation: "Profile-guided
# optimization", go.dev/doc/pgo). `go build` of ./cmd/fabricc picks the
# file up by itself (-pgo=auto, the default since Go 1.21); nothing else
# reads it, and no output byte depends on it.
#
# The profile is of fabricc's heaviest work: two builds of the benchmark
# fabric (bench/fabric) at PGO_SWITCHES switches by a fabricc built
# without a profile, merged, since one build's samples are few (profiles
# of two single builds gave binaries 4-8 % and 0-7 % faster than the
# code without; docs/performance.md, "Profile-guided optimisation"). The
# default, 4,096 switches (130,944 devices), writes about 11 GB into a
# temporary folder, one build at a time: point TMPDIR at a tmpfs with
# room for it to spare the disk.
#
#	make pgo    # or: bench/pgo.sh
set -euo pipefail
cd "$(dirname "$0")/.."
GO="${GO:-go}"
switches="${PGO_SWITCHES:-4096}"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT

"$GO" build -pgo=off -o "$work/fabricc" ./cmd/fabricc
# run NAME ARGS... runs fabricc with its CPU profile in NAME.pprof, and
# shows what it printed only when it fails.
run() {
	local name="$1"
	shift
	FABRICC_CPUPROFILE="$work/$name.pprof" "$work/fabricc" "$@" >"$work/$name.log" 2>&1 ||
		{ cat "$work/$name.log" >&2; exit 1; }
}
for i in 1 2; do
	run "build$i" build --large -var "switches=$switches" -o "$work/out$i" bench/fabric
	rm -rf "$work/out$i" "$work/.out$i".*
done
"$GO" tool pprof -proto "$work/build1.pprof" "$work/build2.pprof" >"$work/default.pgo" 2>"$work/pprof.log" ||
	{ cat "$work/pprof.log" >&2; exit 1; }
mv "$work/default.pgo" cmd/fabricc/default.pgo
echo "wrote cmd/fabricc/default.pgo ($(wc -c <cmd/fabricc/default.pgo) bytes): two builds of $switches switches"
