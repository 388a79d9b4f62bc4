#!/usr/bin/env bash
# prepare.sh [DIR]: the inputs of targets/linux TestVM, which boots a stock
# Debian kernel under qemu to run the generated host script's VLAN steps
# (this machine's own kernel has no 802.1Q support).
#
# Writes into DIR (default $FABRICC_VM_DIR, else ~/.cache/fabricc-vm):
#   vmlinuz          the kernel linux-image-amd64 points to
#   base.cpio.gz     initramfs: busybox, the host's bash, iproute2 (ip, dcb)
#                    and the GNU tools the script calls, with their shared
#                    libraries, and the kernel's 802.1Q and veth modules
#   version          the kernel package, to skip the work next time
# The test appends /init (testdata/vm/init) and the rendered scripts.
#
# Needs: apt-get, dpkg-deb, cpio, gzip, busybox-static, iproute2.
set -euo pipefail

dir=${1:-${FABRICC_VM_DIR:-${XDG_CACHE_HOME:-$HOME/.cache}/fabricc-vm}}

# The kernel package the linux-image-amd64 metapackage depends on.
pkg=$(apt-cache depends linux-image-amd64 | awk '$1 == "Depends:" && $2 ~ /^linux-image-/ { print $2; exit }')
if [[ -z $pkg ]]; then
	if [[ -f $dir/vmlinuz && -f $dir/base.cpio.gz ]]; then
		echo "prepare.sh: apt-cache knows no linux-image-amd64; keeping $(cat "$dir/version") in $dir"
		exit 0
	fi
	echo "prepare.sh: apt-cache knows no linux-image-amd64; run apt-get update" >&2
	exit 1
fi
kver=${pkg#linux-image-}
if [[ -f $dir/version && $(cat "$dir/version") == "$pkg" && -f $dir/vmlinuz && -f $dir/base.cpio.gz ]]; then
	echo "prepare.sh: $dir already holds $pkg"
	exit 0
fi
mkdir -p "$dir"

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
root=$work/root

# Only the kernel and six modules; installing the package would run the
# initramfs and grub hooks on this machine.
# As root, apt fetches as _apt, which cannot write into mktemp's 0700 dir.
apt_opts=()
if [[ $EUID -eq 0 ]]; then
	apt_opts=(-o APT::Sandbox::User=root)
fi
(cd "$work" && apt-get download -q "${apt_opts[@]}" "$pkg")
mods=(net/llc/llc.ko net/802/stp.ko net/802/garp.ko net/802/mrp.ko net/8021q/8021q.ko drivers/net/veth.ko)
paths=("./boot/vmlinuz-$kver")
for m in "${mods[@]}"; do
	paths+=("./lib/modules/$kver/kernel/$m")
done
mkdir -p "$work/deb"
dpkg-deb --fsys-tarfile "$work"/linux-image-*.deb | tar -x -C "$work/deb" "${paths[@]}"

mkdir -p "$root"/{bin,usr/bin,usr/sbin,lib/modules,proc,sys,dev,run,tmp,var,fabricc}
ln -s ../run "$root/var/run"
for m in "${mods[@]}"; do
	cp "$work/deb/lib/modules/$kver/kernel/$m" "$root/lib/modules/"
done

# /init (bash) takes mount, insmod and poweroff from busybox; the script
# itself gets the host's real tools.
for a in mount insmod poweroff; do
	ln -s ../usr/bin/busybox "$root/bin/$a"
done
tools=(busybox bash ip dcb cat sed awk tr sort mountpoint env)
for t in "${tools[@]}"; do
	if ! command -v "$t" >/dev/null 2>&1; then
		echo "prepare.sh: $t not found; install it (busybox-static, iproute2, coreutils, sed, mawk, util-linux)" >&2
		exit 1
	fi
	src=$(readlink -f "$(command -v "$t")")
	bin=$(basename "$(dirname "$(command -v "$t")")") # bin or sbin
	cp "$src" "$root/usr/$bin/$t"
	# The shared libraries and the loader, at the paths ldd names (none
	# for busybox-static: ldd then fails, which is fine).
	{ ldd "$src" 2>/dev/null || true; } | awk '$2 == "=>" && $3 ~ /^\// { print $3 } $1 ~ /^\// { print $1 }' |
		while read -r lib; do
			mkdir -p "$root$(dirname "$lib")"
			cp -L "$lib" "$root$lib"
		done
done

(cd "$root" && find . | LC_ALL=C sort | cpio -o -H newc -R 0:0 --quiet) | gzip -9 >"$dir/base.cpio.gz"
cp "$work/deb/boot/vmlinuz-$kver" "$dir/vmlinuz"
printf '%s\n' "$pkg" >"$dir/version"
echo "prepare.sh: $dir holds $pkg ($(du -h "$dir/base.cpio.gz" | cut -f1) initramfs)"
