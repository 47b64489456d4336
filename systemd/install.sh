#!/usr/bin/env bash
# Install the Niagara Companion as a service on a Raspberry Pi (Raspberry Pi OS /
# Debian bookworm). Run from a checkout of the project, as root:
#
#   sudo bash systemd/install.sh                 # runs as you (the user who ran sudo)
#   sudo bash systemd/install.sh --user pi       # runs as another user (made if missing)
#   sudo bash systemd/install.sh --root          # strip on GPIO18 (PWM) / 21 (PCM): needs root
#   bash systemd/install.sh --dry-run            # print what would be done, change nothing
#
# It installs Debian's python3-opencv, gpiozero and lgpio (and picamera2 where the
# archive has it), switches SPI on, makes a venv with --system-site-packages so those
# are used instead of pip builds, installs the companion and rpi-ws281x into it, puts
# the user in the gpio/spi/video groups, and starts companion.service.
set -euo pipefail

DIR="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
SERVICE_USER="${SUDO_USER:-companion}"
if [ "$SERVICE_USER" = "root" ]; then SERVICE_USER="companion"; fi
AS_ROOT=0
DRY_RUN=0
START=1
SPI=1

usage() {
  sed -n '2,13p' "${BASH_SOURCE[0]}" | sed 's/^# \{0,1\}//'
  echo "options: --user NAME  --dir DIR  --root  --no-spi  --no-start  --dry-run  --help"
}

while [ $# -gt 0 ]; do
  case "$1" in
    --user) SERVICE_USER="${2:?--user needs a name}"; shift 2 ;;
    --dir) DIR="$(cd "${2:?--dir needs a directory}" && pwd)"; shift 2 ;;
    --root) AS_ROOT=1; shift ;;
    --no-spi) SPI=0; shift ;;
    --no-start) START=0; shift ;;
    --dry-run) DRY_RUN=1; shift ;;
    -h|--help) usage; exit 0 ;;
    *) echo "install.sh: unknown option $1 (see --help)" >&2; exit 2 ;;
  esac
done

if [ "$AS_ROOT" = 1 ]; then SERVICE_USER="root"; fi

run() {  # print each step; run it unless --dry-run
  echo "+ $*"
  if [ "$DRY_RUN" = 0 ]; then "$@"; fi
}

if [ "$DRY_RUN" = 0 ] && [ "$(id -u)" != 0 ]; then
  echo "install.sh: run as root (sudo bash $0), or with --dry-run to see the steps" >&2
  exit 1
fi
if [ ! -f "$DIR/pyproject.toml" ] || [ ! -f "$DIR/systemd/companion.service" ]; then
  echo "install.sh: $DIR is not a checkout of the companion (no pyproject.toml)" >&2
  exit 1
fi
if [ "$DRY_RUN" = 0 ] && ! command -v apt-get >/dev/null 2>&1; then
  echo "install.sh: this needs Raspberry Pi OS or Debian (apt-get not found)" >&2
  exit 1
fi

# 1. System packages: OpenCV, gpiozero and its pin library from Debian, and what
#    building rpi-ws281x needs.
#    lgpio and picamera2 come from the Raspberry Pi archive (Raspberry Pi OS has it;
#    plain Debian does not), so they are installed where the archive has them.
PACKAGES="python3-venv python3-dev gcc python3-numpy python3-opencv python3-gpiozero"
OPTIONAL="python3-lgpio python3-picamera2 python3-rpi-ws281x"
run apt-get update -qq
run env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq $PACKAGES
for pkg in $OPTIONAL; do
  if [ "$DRY_RUN" = 1 ] || apt-cache show "$pkg" >/dev/null 2>&1; then
    run env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "$pkg"
  fi
done

# 2. SPI for the LED strip on GPIO10 (no root needed; the only way on a Pi 5).
if [ "$SPI" = 1 ]; then
  if [ "$DRY_RUN" = 1 ] || command -v raspi-config >/dev/null 2>&1; then
    run raspi-config nonint do_spi 0
  else
    echo "note: raspi-config not found; switch SPI on with dtparam=spi=on in config.txt"
  fi
fi

# 3. The service user and its groups.
if [ "$SERVICE_USER" != "root" ]; then
  if ! id "$SERVICE_USER" >/dev/null 2>&1; then
    run useradd --system --create-home --home-dir "/var/lib/$SERVICE_USER" \
      --shell /usr/sbin/nologin "$SERVICE_USER"
  fi
  for group in gpio spi video i2c; do
    if [ "$DRY_RUN" = 1 ] || getent group "$group" >/dev/null; then
      run usermod -aG "$group" "$SERVICE_USER"
    fi
  done
fi

# 4. The venv: --system-site-packages so Debian's python3-opencv, gpiozero, lgpio and
#    picamera2 are used (no pip build of OpenCV on a Pi).
run python3 -m venv --system-site-packages "$DIR/.venv"
run "$DIR/.venv/bin/python" -m pip install -q --upgrade pip
run "$DIR/.venv/bin/python" -m pip install -q -e "$DIR[pi]"
if [ "$SERVICE_USER" != "root" ]; then
  run chown -R "$SERVICE_USER:" "$DIR/.venv"
fi

# 5. The user's own files (companion.paths): the games in ~/.local/share/niagara-companion
#    (the only place the hardened service may write), and a copy of the LED layout in
#    ~/.config/niagara-companion to edit (the strip's pin, its length).
USER_HOME="$(getent passwd "$SERVICE_USER" | cut -d: -f6 || true)"
if [ -z "$USER_HOME" ]; then  # --dry-run for a user not made yet
  if [ "$SERVICE_USER" = "root" ]; then USER_HOME=/root; else USER_HOME="/var/lib/$SERVICE_USER"; fi
fi
DATA="$USER_HOME/.local/share/niagara-companion"
CONFIG="$USER_HOME/.config/niagara-companion"
# As the user, so that the folders on the way (~/.local, ~/.config) are theirs too.
run runuser -u "$SERVICE_USER" -- mkdir -p "$DATA" "$CONFIG"
if [ "$DRY_RUN" = 1 ] || [ ! -e "$CONFIG/leds.json" ]; then
  run runuser -u "$SERVICE_USER" -- cp "$DIR/calibration/leds.json" "$CONFIG/leds.json"
fi

# 6. The unit, with this checkout, user and data directory filled in.
UNIT=/etc/systemd/system/companion.service
echo "+ write $UNIT (User=$SERVICE_USER, WorkingDirectory=$DIR, ReadWritePaths=$DATA)"
UNIT_TEXT="$(sed -e "s|@USER@|$SERVICE_USER|g" -e "s|@DIR@|$DIR|g" -e "s|@DATA@|$DATA|g" \
  "$DIR/systemd/companion.service")"
if [ "$SERVICE_USER" = "root" ]; then  # root needs no groups; PWM/PCM need /dev/mem
  UNIT_TEXT="$(printf '%s\n' "$UNIT_TEXT" | sed -e '/^SupplementaryGroups=/d')"
fi
if [ "$DRY_RUN" = 1 ]; then
  printf '%s\n' "$UNIT_TEXT"
else
  printf '%s\n' "$UNIT_TEXT" > "$UNIT"
fi
if [ "$DRY_RUN" = 1 ] || [ -d /run/systemd/system ]; then
  run systemctl daemon-reload
  if [ "$START" = 1 ]; then
    run systemctl enable --now companion.service
  else
    run systemctl enable companion.service
  fi
else  # a chroot, or an SD card image being built: systemd is not running here
  echo "note: systemd is not running here; the service is enabled and starts on the next boot"
  run systemctl enable companion.service
fi

echo
echo "Done. Is the table ready?     sudo -u $SERVICE_USER $DIR/.venv/bin/companion doctor"
echo "Check the strip with:        sudo -u $SERVICE_USER $DIR/.venv/bin/companion leds check"
echo "Light each place in turn:    sudo -u $SERVICE_USER $DIR/.venv/bin/companion leds test"
if [ "$SPI" = 1 ] && [ "$AS_ROOT" = 0 ]; then
  echo "For SPI, wire the strip's data line to GPIO10 and set \"pin\": 10 in $CONFIG/leds.json;"
  echo "a reboot may be needed for SPI and the new groups to take effect."
fi
