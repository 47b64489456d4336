#!/usr/bin/env bash
# Prove the Raspberry Pi path on arm64 without a Pi: build a Debian bookworm arm64 root
# (debootstrap + qemu-user-static, both from Debian), run systemd/install.sh inside it
# as the README says, and check what a Pi needs:
#   - the venv sees Debian's OpenCV 4.6 (python3-opencv through --system-site-packages),
#   - `companion vision detect` reads a rendered frame there,
#   - the installed unit passes `systemd-analyze verify`.
#
#   sudo bash tools/pi-arm64-check.sh [WORKDIR]     # default /var/tmp/niagara-pi-arm64
#
# Slow (tens of minutes under emulation). The bare root is kept in WORKDIR/base.tar, so
# a second run only repeats the install and the checks on a fresh copy of it.
set -euo pipefail

SRC="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
WORK="${1:-/var/tmp/niagara-pi-arm64}"
MIRROR="${MIRROR:-http://deb.debian.org/debian}"
ROOT="$WORK/root"
APP=/opt/niagara-companion   # where the checkout lives inside the arm64 root

step() { echo; echo "=== $* ($(date -u +%H:%M:%S))"; }
fail() { echo "pi-arm64-check: FAIL: $*" >&2; exit 1; }

[ "$(id -u)" = 0 ] || fail "run as root (debootstrap and chroot need it)"
for tool in debootstrap qemu-aarch64-static; do
  command -v "$tool" >/dev/null || fail "$tool missing: apt-get install debootstrap qemu-user-static"
done
# The kernel must hand aarch64 binaries to qemu (binfmt_misc, set up by qemu-user-static).
if [ ! -e /proc/sys/fs/binfmt_misc/qemu-aarch64 ]; then
  mountpoint -q /proc/sys/fs/binfmt_misc || mount -t binfmt_misc binfmt_misc /proc/sys/fs/binfmt_misc
  update-binfmts --enable qemu-aarch64 || true
fi
[ -e /proc/sys/fs/binfmt_misc/qemu-aarch64 ] || fail "binfmt_misc has no qemu-aarch64 entry"

unmount_all() {
  for m in dev/pts dev proc sys; do
    mountpoint -q "$ROOT/$m" && umount -l "$ROOT/$m" || true
  done
}
trap unmount_all EXIT

mkdir -p "$WORK"
if [ ! -f "$WORK/base.tar" ]; then
  step "debootstrap bookworm arm64 (once; kept in $WORK/base.tar)"
  rm -rf "$WORK/base"
  # systemd for systemd-analyze, sudo because the README's commands use it; the rest
  # comes from install.sh itself.
  debootstrap --arch=arm64 --variant=minbase --include=systemd,sudo,ca-certificates \
    bookworm "$WORK/base" "$MIRROR"
  tar -C "$WORK/base" -cf "$WORK/base.tar" .
  rm -rf "$WORK/base"
fi

step "fresh root from base.tar"
unmount_all
rm -rf "$ROOT"
mkdir -p "$ROOT"
tar -C "$ROOT" -xf "$WORK/base.tar"
cp /etc/resolv.conf "$ROOT/etc/resolv.conf"
echo "127.0.1.1 $(hostname)" >> "$ROOT/etc/hosts"  # sudo looks the host name up
mount -t proc proc "$ROOT/proc"
mount -t sysfs sysfs "$ROOT/sys"
mount --bind /dev "$ROOT/dev"
mount --bind /dev/pts "$ROOT/dev/pts"
# No daemons start inside the chroot (apt's postinst scripts would try).
printf '#!/bin/sh\nexit 101\n' > "$ROOT/usr/sbin/policy-rc.d"
chmod +x "$ROOT/usr/sbin/policy-rc.d"

step "copy the checkout to $APP (tracked files only, as a clone would have)"
mkdir -p "$ROOT$APP"
git -C "$SRC" ls-files -z | (cd "$SRC" && tar --null -T - -cf -) | tar -C "$ROOT$APP" -xf -
# A user who ran sudo, as on a Pi (install.sh runs the service as $SUDO_USER).
in_root() { chroot "$ROOT" /usr/bin/env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin HOME=/root \
  LANG=C.UTF-8 PIP_CERT=/etc/ssl/certs/ca-certificates.crt "$@"; }
in_root uname -m | grep -qx aarch64 || fail "the chroot does not run arm64 binaries"
# Behind a proxy that inspects TLS, the host trusts a local CA: so must the root, or
# pip cannot reach PyPI (pip is told to use the system's CA file, PIP_CERT above).
if ls /usr/local/share/ca-certificates/*.crt >/dev/null 2>&1; then
  cp /usr/local/share/ca-certificates/*.crt "$ROOT/usr/local/share/ca-certificates/"
  in_root update-ca-certificates >/dev/null
fi
in_root useradd --create-home --shell /bin/bash pi

step "sudo bash systemd/install.sh (as the README says, from the checkout, as pi)"
in_root env SUDO_USER=pi bash -c "cd $APP && bash systemd/install.sh"

step "check: the venv sees Debian's OpenCV 4.6"
in_root sudo -u pi "$APP/.venv/bin/python" -c "
import cv2, numpy
print('cv2', cv2.__version__, cv2.__file__)
print('numpy', numpy.__version__, numpy.__file__)
assert cv2.__version__.startswith('4.6'), cv2.__version__
assert cv2.__file__.startswith('/usr/lib/python3/dist-packages'), cv2.__file__
" || fail "the venv does not use Debian's python3-opencv 4.6"

step "check: companion vision detect on a rendered frame"
in_root sudo -u pi bash -c "cd /tmp && $APP/.venv/bin/companion vision render \
  $APP/examples/worked-example.jsonl --out frame.png > truth.json \
  && $APP/.venv/bin/companion vision detect frame.png > obs.json && head -c 300 obs.json && echo" \
  || fail "companion vision detect did not read the rendered frame"

step "check: systemd-analyze verify the installed unit"
in_root systemd-analyze verify /etc/systemd/system/companion.service \
  || fail "systemd-analyze verify rejected the unit"
in_root systemctl is-enabled companion.service
grep -E '^(Type|User|SupplementaryGroups|WatchdogSec|Restart|ProtectSystem|ProtectHome|ReadWritePaths)=' \
  "$ROOT/etc/systemd/system/companion.service"

step "check: companion doctor (no camera, LEDs or network in here: it must say what to fix)"
in_root sudo -u pi "$APP/.venv/bin/companion" doctor --camera sim || true

echo
echo "pi-arm64-check: PASS (bookworm arm64: install.sh, OpenCV 4.6, vision detect, unit verified)"
