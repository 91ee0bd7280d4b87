#!/usr/bin/env bash
# Installs ubqd and ubq for one user, or removes exactly what an install put there.
#
#   scripts/install.sh install [--bin-from DIR] [--home DIR]   (make install builds, then runs this)
#   scripts/install.sh uninstall [--home DIR]                  (make uninstall)
#
# What goes where (each overridable through the environment, as make passes them):
#   BINDIR  ($PREFIX/bin, PREFIX=~/.local)      ubqd, ubq
#   UNITDIR ($XDG_CONFIG_HOME/systemd/user)     ubqd.service, ExecStart pointing at BINDIR/ubqd
#   DATADIR ($PREFIX/share)                     bash-completion/completions/ubq, zsh/site-functions/_ubq,
#                                               man/man1/ubq.1 and ubqd.1, doc/ubiquity/
#   FISHDIR ($XDG_CONFIG_HOME/fish/completions) ubq.fish
# DESTDIR, when set, is put in front of every path (a staged install); the unit still names
# the final BINDIR. --home DIR installs into another home (XDG_* variables are then ignored),
# which is how the tests install into a temporary one. Every path written is listed in
# DATADIR/ubiquity/install-manifest, with the folders the install created; uninstall removes
# those and nothing else (never config.toml, the index or the containers).
set -euo pipefail

here=$(cd "$(dirname "$0")/.." && pwd)

die() { echo "install.sh: $*" >&2; exit 1; }

usage() {
  sed -n '2,5p' "$0" | sed 's/^# \{0,1\}//'
  exit 2
}

action=${1:-}
[ -n "$action" ] || usage
shift
bin_from="$here/.build-release/release"
other_home=""
while [ $# -gt 0 ]; do
  case "$1" in
    --bin-from) bin_from=${2:?--bin-from needs a folder}; shift 2 ;;
    --home) HOME=${2:?--home needs a folder}; other_home=yes; unset XDG_CONFIG_HOME XDG_DATA_HOME; shift 2 ;;
    -h|--help) usage ;;
    *) die "unknown argument '$1' (try --help)" ;;
  esac
done

[ -n "${HOME:-}" ] && [ "${HOME#/}" != "$HOME" ] || die "HOME must be an absolute path"
config_home=${XDG_CONFIG_HOME:-$HOME/.config}
PREFIX=${PREFIX:-$HOME/.local}
BINDIR=${BINDIR:-$PREFIX/bin}
DATADIR=${DATADIR:-$PREFIX/share}
MANDIR=${MANDIR:-$DATADIR/man}
UNITDIR=${UNITDIR:-$config_home/systemd/user}
FISHDIR=${FISHDIR:-$config_home/fish/completions}
DESTDIR=${DESTDIR:-}
manifest="$DATADIR/ubiquity/install-manifest"
case "$BINDIR" in *[[:space:]]*) die "BINDIR '$BINDIR' has spaces; systemd's ExecStart would need quoting: choose another" ;; esac

# The final path of every file, one per line ("dir" lines are folders the install created).
files=(
  "$BINDIR/ubqd" "$BINDIR/ubq"
  "$UNITDIR/ubqd.service"
  "$DATADIR/bash-completion/completions/ubq"
  "$DATADIR/zsh/site-functions/_ubq"
  "$FISHDIR/ubq.fish"
  "$MANDIR/man1/ubq.1" "$MANDIR/man1/ubqd.1"
  "$DATADIR/doc/ubiquity/README.md" "$DATADIR/doc/ubiquity/API.md" "$DATADIR/doc/ubiquity/config.sample.toml"
)

created_dirs=()

# Creates the folder (and missing parents) under DESTDIR, remembering each one it made.
make_dir() {
  local dir=$1 missing=()
  while [ ! -d "$DESTDIR$dir" ]; do
    missing=("$dir" "${missing[@]}")
    dir=$(dirname "$dir")
  done
  for dir in "${missing[@]}"; do
    mkdir -m 0755 "$DESTDIR$dir"
    created_dirs+=("$dir")
  done
}

# put MODE FINAL_PATH < content
put() {
  local mode=$1 path=$2
  make_dir "$(dirname "$path")"
  local temp
  temp=$(mktemp "$DESTDIR$(dirname "$path")/.ubq-install.XXXXXX")
  cat > "$temp"
  chmod "$mode" "$temp"
  mv -f "$temp" "$DESTDIR$path"
}

# The unit, with ExecStart naming the installed ubqd (the file names %h/.local/bin/ubqd).
unit_text() {
  if [ "$BINDIR" = "$HOME/.local/bin" ]; then
    cat "$here/systemd/ubqd.service"
  else
    sed "s|^ExecStart=%h/.local/bin/ubqd\$|ExecStart=$BINDIR/ubqd|" "$here/systemd/ubqd.service"
  fi
}

install_all() {
  for program in ubqd ubq; do
    [ -x "$bin_from/$program" ] || die "$bin_from/$program is missing: build it first (make install does)"
  done
  local ubq=$bin_from/ubq
  put 0755 "$BINDIR/ubqd" < "$bin_from/ubqd"
  put 0755 "$BINDIR/ubq" < "$ubq"
  # Each text is made first (so a failure stops the install), then written (not in a
  # pipeline: put must run in this shell to record the folders it creates).
  local text
  text=$(unit_text) && put 0644 "$UNITDIR/ubqd.service" <<< "$text"
  text=$("$ubq" --generate-completion-script bash) && put 0644 "$DATADIR/bash-completion/completions/ubq" <<< "$text"
  text=$("$ubq" --generate-completion-script zsh) && put 0644 "$DATADIR/zsh/site-functions/_ubq" <<< "$text"
  text=$("$ubq" --generate-completion-script fish) && put 0644 "$FISHDIR/ubq.fish" <<< "$text"
  put 0644 "$MANDIR/man1/ubq.1" < "$here/docs/man/ubq.1"
  put 0644 "$MANDIR/man1/ubqd.1" < "$here/docs/man/ubqd.1"
  put 0644 "$DATADIR/doc/ubiquity/README.md" < "$here/README.md"
  put 0644 "$DATADIR/doc/ubiquity/API.md" < "$here/docs/API.md"
  put 0644 "$DATADIR/doc/ubiquity/config.sample.toml" < "$here/docs/config.sample.toml"
  write_manifest
  report_installed
}

# Files first, then the folders the install created, deepest first (so uninstall can rmdir
# them in order). A reinstall keeps what an earlier install recorded (another BINDIR, say).
write_manifest() {
  local old_files=() old_dirs=()
  if [ -f "$DESTDIR$manifest" ]; then
    mapfile -t old_files < <(sed -n 's/^file //p' "$DESTDIR$manifest")
    mapfile -t old_dirs < <(sed -n 's/^dir //p' "$DESTDIR$manifest")
  fi
  make_dir "$(dirname "$manifest")"
  local text
  text=$(
    printf '%s\n' "${files[@]}" "${old_files[@]}" "$manifest" | sed '/^$/d' | awk '!seen[$0]++' | sed 's/^/file /'
    printf '%s\n' "${old_dirs[@]}" "${created_dirs[@]}" | sed '/^$/d' | awk '{ print length($0) " " $0 }' \
      | sort -rn | cut -d' ' -f2- | awk '!seen[$0]++' | sed 's/^/dir /'
  )
  put 0644 "$manifest" <<< "$text"
}

report_installed() {
  echo "Installed ubqd and ubq in $DESTDIR$BINDIR, the unit in $DESTDIR$UNITDIR,"
  echo "completions for bash, zsh and fish, and the manual pages ubq(1) and ubqd(1)."
  case ":$PATH:" in *":$BINDIR:"*) ;; *) echo "Note: $BINDIR is not on your PATH; add it to use ubq." ;; esac
  echo "zsh: add 'fpath+=($DATADIR/zsh/site-functions)' before compinit in ~/.zshrc if it is not there."
  echo
  echo "Start ubqd now and at every login:"
  echo "  systemctl --user daemon-reload && systemctl --user enable --now ubqd"
}

# The unit must not stay enabled (or running) once its file is gone.
disable_service() {
  [ -z "$DESTDIR" ] && [ -z "$other_home" ] && command -v systemctl >/dev/null || return 0
  if systemctl --user --quiet is-enabled ubqd 2>/dev/null || systemctl --user --quiet is-active ubqd 2>/dev/null; then
    echo "Stopping and disabling ubqd: systemctl --user disable --now ubqd"
    systemctl --user disable --now ubqd || echo "install.sh: could not disable ubqd; run the line above yourself" >&2
  fi
}

uninstall_all() {
  local entries=()
  if [ -f "$DESTDIR$manifest" ]; then
    mapfile -t entries < "$DESTDIR$manifest"
  else
    echo "No install manifest at $DESTDIR$manifest; removing the files an install puts in place."
    for path in "${files[@]}"; do entries+=("file $path"); done
  fi
  disable_service
  local removed=0
  for entry in "${entries[@]}"; do
    local kind=${entry%% *} path=${entry#* }
    case "$kind" in
      file) [ -e "$DESTDIR$path" ] || [ -L "$DESTDIR$path" ] && rm -f "$DESTDIR$path" && removed=$((removed + 1)) ;;
      dir) rmdir "$DESTDIR$path" 2>/dev/null || true ;;  # only if nothing else lives there now
    esac
  done
  echo "Removed $removed files. Your configuration, the index and your containers are untouched."
  [ -z "$DESTDIR" ] && [ -z "$other_home" ] && command -v systemctl >/dev/null && echo "Then: systemctl --user daemon-reload"
  return 0
}

case "$action" in
  install) install_all ;;
  uninstall) uninstall_all ;;
  *) usage ;;
esac
