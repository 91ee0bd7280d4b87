#!/usr/bin/env bash
# Installs what building, running and testing Ubiquity needs on Debian 12, and only what is
# missing: the C libraries the Swift targets link, the tools the tests drive as a user
# would (vim, sed, rsync), and the third-party archive decoders the interop tests compare
# with. Safe to run again; does nothing when everything is there.
set -euo pipefail

APT_PACKAGES=(
  libinotifytools0-dev   # CInotifyTools: the watcher
  libmagic-dev           # CMagic: content sniffing
  libmagic-mgc           # libmagic's database
  shared-mime-info       # ContentTypes: the MIME database
  libsqlite3-dev         # GRDB builds against the system SQLite
  vim sed rsync          # integration tests save files the way editors and tools do
  python3-pip            # interop tests run Python decoders
  systemd                # systemd-analyze checks the unit
  zsh fish               # the install test loads the completion scripts (bash is there)
  groff-base             # ... and renders the manual pages
  exfat-fuse exfatprogs  # a sync test puts the mirror on exFAT, as most USB disks are
)
PIP_PACKAGES=(bpylist2 nskeyedunarchiver)

missing=()
for package in "${APT_PACKAGES[@]}"; do
  dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q "install ok installed" || missing+=("$package")
done
if [ ${#missing[@]} -gt 0 ]; then
  echo "bootstrap: installing ${missing[*]}"
  SUDO=""
  [ "$(id -u)" -eq 0 ] || SUDO="sudo"
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi

PYTHON=${PYTHON:-python3}
for package in "${PIP_PACKAGES[@]}"; do
  module=$package
  [ "$package" = nskeyedunarchiver ] && module=NSKeyedUnArchiver
  "$PYTHON" -c "import $module" 2>/dev/null || {
    echo "bootstrap: pip installing $package"
    "$PYTHON" -m pip install -q "$package" 2>/dev/null || "$PYTHON" -m pip install -q --break-system-packages "$package"
  }
done

command -v swift >/dev/null || { echo "bootstrap: the Swift toolchain (6.1 or later) must be on PATH" >&2; exit 1; }
