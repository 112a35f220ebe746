#!/bin/bash
# Usage: mkinitrd.sh OUT.gz INIT_SCRIPT [BINARY...]
# Builds a gzip'd cpio (newc) initramfs: static busybox with applet symlinks,
# each BINARY at /bin/<name> plus the shared libraries ldd lists (same paths,
# dynamic loader included), INIT_SCRIPT as /payload (run by busybox sh) with
# tests/vm/payload-lib.sh beside it as /payload-lib.sh, and an
# /init that mounts proc, sysfs, devtmpfs, tracefs, debugfs, bpffs, runs the
# payload, prints "LS-VM-DONE rc=<rc>" and powers off.
# LS_VM_EXTRA="src:dst ..." adds more files or directories (dst is the guest
# path; ELF files among them get their libraries too).
# LS_VM_ARCH=arm64 on another host builds a foreign guest's initramfs: the
# binaries are cross-built, LS_VM_BUSYBOX is that arch's static busybox
# (tests/vm/fetch-deb.sh busybox-static:arm64; it cannot run here, so /init
# installs its applet links at boot), and libraries are found by walking
# DT_NEEDED (readelf) in the multiarch directories /lib/<triplet>,
# /usr/lib/<triplet>, since ldd cannot run a foreign loader.
set -euo pipefail

die() { echo "lockscope-vm: failed to $*" >&2; exit 1; }

[ $# -ge 2 ] || die "parse arguments: usage: $0 OUT.gz INIT_SCRIPT [BINARY...]"
out=$1 payload=$2; shift 2
[ -f "$payload" ] || die "read init script $payload: no such file"
host_arch=$(uname -m | sed -e 's/x86_64/x86/' -e 's/aarch64/arm64/')
arch=${LS_VM_ARCH:-$host_arch}
case $arch in
x86) triplet=x86_64-linux-gnu ;;
arm64) triplet=aarch64-linux-gnu ;;
*) die "parse LS_VM_ARCH '$arch': expected x86 or arm64" ;;
esac
busybox=${LS_VM_BUSYBOX:-/bin/busybox}
if [ "$arch" = "$host_arch" ]; then
    "$busybox" --list >/dev/null 2>&1 ||
        die "run $busybox: not a working busybox (apt-get install busybox-static)"
    if ldd "$busybox" >/dev/null 2>&1; then
        die "use $busybox: dynamically linked (apt-get install busybox-static)"
    fi
else
    [ -f "$busybox" ] || die "read $busybox: no such file (tests/vm/fetch-deb.sh busybox-static:$arch)"
    readelf -l "$busybox" 2>/dev/null | grep -q 'Requesting program interpreter' &&
        die "use $busybox: dynamically linked (want busybox-static:$arch)"
fi

root=$(mktemp -d "${TMPDIR:-/tmp}/lockscope-initrd.XXXXXX") ||
    die "create staging dir: mktemp failed"
chmod 755 "$root"   # the guest's / : unprivileged processes must traverse it
trap 'rm -rf "$root"' EXIT
mkdir -p "$root"/{bin,sbin,usr/bin,usr/sbin,dev,proc,sys,tmp,run,etc,root}

# busybox and its applets as symlinks (bin/sh among them; a foreign
# busybox gets only bin/sh here, the rest from /init)
cp "$busybox" "$root/bin/busybox"
if [ "$arch" = "$host_arch" ]; then
    "$busybox" --list-full | while read -r applet; do
        mkdir -p "$root/$(dirname "$applet")"
        [ -e "$root/$applet" ] || ln -s /bin/busybox "$root/$applet"
    done
else
    ln -s /bin/busybox "$root/bin/sh"
fi

# copy_foreign_libs FILE: the interpreter and DT_NEEDED closure of a
# foreign ELF file, from the multiarch directories, at their own paths
copy_foreign_libs() {
    local f=$1 lib d p interp
    interp=$(readelf -l "$f" 2>/dev/null |
        sed -n 's/.*Requesting program interpreter: \(\/[^]]*\)\]/\1/p')
    if [ -n "$interp" ] && [ ! -e "$root$interp" ]; then   # none: static or a library
        mkdir -p "$root$(dirname "$interp")"
        cp -L "$interp" "$root$interp" || die "copy loader $interp: cp failed"
    fi
    for lib in $(readelf -d "$f" 2>/dev/null | sed -n 's/.*(NEEDED).*\[\(.*\)\]/\1/p'); do
        p=""
        for d in /lib/$triplet /usr/lib/$triplet; do
            [ -e "$d/$lib" ] && { p=$d/$lib; break; }
        done
        [ -n "$p" ] || die "find $lib for $f: not in /lib/$triplet or /usr/lib/$triplet (apt-get install <its package>:$arch)"
        [ -e "$root$p" ] && continue
        mkdir -p "$root$(dirname "$p")"
        cp -L "$p" "$root$p" || die "copy library $p: cp failed"
        copy_foreign_libs "$p"
    done
}

# copy_libs FILE: copy every library ldd names for FILE at its own path
copy_libs() {
    local lib
    if [ "$arch" != "$host_arch" ]; then
        copy_foreign_libs "$1"
        return
    fi
    ldd "$1" >/dev/null 2>&1 || return 0          # static or not ELF
    for lib in $(ldd "$1" | sed -n 's/.*=> \(\/[^ ]*\) (.*/\1/p; s/^[[:space:]]*\(\/[^ ]*\) (.*/\1/p'); do
        [ -e "$root$lib" ] && continue
        mkdir -p "$root$(dirname "$lib")"
        cp -L "$lib" "$root$lib" || die "copy library $lib: cp failed"
    done
}

for bin in "$@"; do
    [ -f "$bin" ] || die "read binary $bin: no such file"
    rm -f "$root/bin/$(basename "$bin")"           # replaces a same-name applet
    cp -L "$bin" "$root/bin/$(basename "$bin")" || die "copy binary $bin: cp failed"
    copy_libs "$bin"
done

for pair in ${LS_VM_EXTRA:-}; do
    src=${pair%%:*} dst=${pair#*:}
    [ "$src" != "$pair" ] && [ -n "$dst" ] || die "parse LS_VM_EXTRA entry '$pair': want src:dst"
    [ -e "$src" ] || die "read extra file $src: no such file"
    mkdir -p "$root$(dirname "$dst")"
    rm -rf "$root$dst"
    cp -aL "$src" "$root$dst" || die "copy extra file $src: cp failed"
    if [ -f "$src" ]; then copy_libs "$src"; fi
done

cp "$payload" "$root/payload"
cp "$(dirname "$0")/payload-lib.sh" "$root/payload-lib.sh"
cat > "$root/init" <<'INIT'
#!/bin/sh
export PATH=/bin:/sbin:/usr/bin:/usr/sbin HOME=/root
[ -e /bin/mount ] || /bin/busybox --install -s   # a foreign busybox's applets
mount -t devtmpfs devtmpfs /dev 2>/dev/null
exec </dev/console >/dev/console 2>&1
mnt() { mkdir -p "$3"; mount -t "$1" "$2" "$3" || echo "lockscope-vm: failed to mount $1 on $3"; }
mnt proc proc /proc
mnt sysfs sysfs /sys
mnt tmpfs tmpfs /tmp
mnt tracefs tracefs /sys/kernel/tracing
mnt debugfs debugfs /sys/kernel/debug
mnt bpf bpf /sys/fs/bpf
echo; echo "LS-VM-START $(uname -r) uptime=$(cut -d' ' -f1 /proc/uptime)s"
cd /root
sh /payload
rc=$?
# loglevel=3 hides KERN_WARNING/KERN_ERR on the console: replay what matters
dmesg | grep -E 'BUG:|WARNING:|Oops|general protection|Kernel panic' |
    sed 's/^/LS-VM-KMSG /'
echo "LS-VM-UPTIME $(cut -d' ' -f1 /proc/uptime)s"
echo "LS-VM-DONE rc=$rc"
sync
poweroff -f
INIT
chmod 755 "$root/init" "$root/payload"

mkdir -p "$(dirname "$out")"
# gzip -1: -6 took 1.8 s of the host's CPU for a 45 MB cpio, -1
# 0.6 s; the image is 10% larger and the guest unpacks it as fast
if command -v cpio >/dev/null; then
    (cd "$root" && find . | LC_ALL=C sort | cpio -o -H newc -R 0:0 --quiet) | gzip -1 > "$out"
else
    (cd "$root" && find . | LC_ALL=C sort | "$busybox" cpio -o -H newc) | gzip -1 > "$out"
fi || die "write $out: cpio/gzip failed"
echo "$out"
