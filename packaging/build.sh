#!/usr/bin/env bash
# Build the desktop app from this checkout, on a fresh Debian (as root or with sudo):
#   dist/koikoi/koikoi                         the one-dir bundle (PyInstaller)
#   dist/koikoi-VERSION-linux-x86_64.tar.gz    that bundle as a tarball
#   dist/koikoi_VERSION_amd64.deb              /opt/koikoi, /usr/bin/koikoi, desktop files
# It installs what it needs and is missing (Debian packages with apt-get, PyInstaller, mypy
# and koikoi's dependencies from PyPI into build/venv), builds the engine's compiled core
# (packaging/accel.py: a C compiler is needed), validates the desktop files, and prints
# the sizes and the time taken. `bash packaging/check.sh` then tests what it built.
#
# PYTHON picks the interpreter (default python3); KOIKOI_APT_LOCK_WAIT how long to wait for
# another apt or dpkg to let go of the package manager's lock (default 600 s).
set -euo pipefail
cd "$(dirname "$0")/.."
started=$SECONDS
py=${PYTHON:-python3}
say() { echo "build: $*" >&2; }

# -- Debian packages ------------------------------------------------------------------------
apt_pkgs=(binutils desktop-file-utils appstream dpkg
  # what the bundle's Qt links against or loads (so the freezer can find and copy it)
  libegl1 libgl1 libfontconfig1 libfreetype6 libxkbcommon0 libxkbcommon-x11-0 libdbus-1-3
  libglib2.0-0 libx11-6 libx11-xcb1 libxcb-cursor0 libxcb-icccm4 libxcb-keysyms1
  libxcb-image0 libxcb-render-util0 libxcb-randr0 libxcb-shape0 libxcb-xkb1
  libwayland-client0 libwayland-cursor0 libwayland-egl1
  gcc)  # mypyc's C for the engine's compiled core (packaging/accel.py)
if ! command -v "$py" >/dev/null 2>&1; then
  apt_pkgs+=(python3 python3-venv libpython3-dev)
  py=python3
elif ! "$py" -c 'import ctypes.util, ensurepip, os, sys, sysconfig
so = os.path.join(sysconfig.get_config_var("LIBDIR"), sysconfig.get_config_var("INSTSONAME"))
found = os.path.exists(so) or ctypes.util.find_library("python%d.%d" % sys.version_info[:2])
sys.exit(0 if found else 1)' >/dev/null 2>&1; then
  # Debian's python3 has no venv module without python3-venv, and its shared libpython,
  # which PyInstaller puts in the bundle, comes in libpython3.X
  ver=$("$py" -c 'import sys; print("%d.%d" % sys.version_info[:2])')
  apt_pkgs+=(python3-venv "python$ver-venv" "libpython$ver")
fi
if command -v "$py" >/dev/null 2>&1 && ! "$py" -c 'import os, sys, sysconfig
sys.exit(not os.path.exists(os.path.join(sysconfig.get_paths()["include"], "Python.h")))'; then
  # the compiled core's C includes Python.h: Debian's python3 keeps it in python3.X-dev
  apt_pkgs+=("python$("$py" -c 'import sys; print("%d.%d" % sys.version_info[:2])')-dev")
fi
if command -v dpkg-query >/dev/null 2>&1; then
  missing=()
  installed=$(dpkg-query -W -f='${Package} ${Status}\n' "${apt_pkgs[@]}" 2>/dev/null || true)
  for p in "${apt_pkgs[@]}"; do
    grep -qxF "$p install ok installed" <<<"$installed" || missing+=("$p")
  done
  if [ ${#missing[@]} -gt 0 ]; then
    sudo=""
    [ "$(id -u)" -eq 0 ] || sudo="sudo"
    say "installing system packages: ${missing[*]}"
    apt=(env LC_ALL=C DEBIAN_FRONTEND=noninteractive $sudo apt-get
      -o DPkg::Lock::Timeout="${KOIKOI_APT_LOCK_WAIT:-600}")
    "${apt[@]}" update -qq
    "${apt[@]}" install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
  fi
fi

# -- name, version, the build venv ------------------------------------------------------------
read -r name version < <("$py" packaging/meta.py name version)
say "$name $version"
venv=build/venv
[ -x "$venv/bin/python" ] || "$py" -m venv "$venv"
stamp="$venv/.koikoi-deps"
if [ ! -f "$stamp" ] || [ pyproject.toml -nt "$stamp" ] || [ packaging/build.sh -nt "$stamp" ]; then
  mapfile -t deps < <("$py" packaging/meta.py dependencies)
  "$venv/bin/python" -m pip install -q --disable-pip-version-check \
    "pyinstaller>=6.10,<7" "mypy>=1.10" "${deps[@]}"  # (Pillow only where the icon is converted: Windows, macOS)
  # mypy brings mypyc, which compiles the engine's core below
  touch "$stamp"
fi

# -- the engine's compiled core ----------------------------------------------------------------
# koikoi/engine/compiled.py: the hot modules compiled by mypyc beside their sources (skipped
# when current), so that the bundle carries them; packaging/check.sh checks that it does
"$venv/bin/python" packaging/accel.py

# -- the bundle -----------------------------------------------------------------------------
rm -rf "dist/$name"
"$venv/bin/python" -m PyInstaller --noconfirm --log-level WARN \
  --distpath dist --workpath build/pyinstaller packaging/koikoi.spec
bundle="dist/$name"
[ -x "$bundle/$name" ] || { say "PyInstaller made no $bundle/$name"; exit 1; }

# -- desktop files ----------------------------------------------------------------------------
app_id=$("$py" packaging/meta.py app_id)
linux=packaging/linux
desktop-file-validate "$linux/$app_id.desktop"
appstreamcli validate --no-net --pedantic "$linux/$app_id.metainfo.xml" >build/appstream.log \
  || { cat build/appstream.log >&2; say "the metainfo does not validate"; exit 1; }

# -- the tarball ------------------------------------------------------------------------------
# sorted, no owners, every date the last commit's (else now): no build machine details
epoch=${SOURCE_DATE_EPOCH:-$(git log -1 --format=%ct 2>/dev/null || date +%s)}
tar_opts=(--sort=name --owner=0 --group=0 --numeric-owner --mtime="@$epoch")
tarball="dist/$name-$version-linux-x86_64.tar.gz"
tar "${tar_opts[@]}" -C dist -cf - "$name" | gzip -n -6 >"$tarball"

# -- the .deb -----------------------------------------------------------------------------------
root=build/deb/root
rm -rf build/deb
mkdir -p "$root/DEBIAN" "$root/opt" "$root/usr/bin" "$root/usr/share/applications" \
  "$root/usr/share/metainfo" "$root/usr/share/doc/$name"
cp -a "$bundle" "$root/opt/$name"
ln -s "/opt/$name/$name" "$root/usr/bin/$name"
install -m 644 "$linux/$app_id.desktop" "$root/usr/share/applications/"
install -m 644 "$linux/$app_id.metainfo.xml" "$root/usr/share/metainfo/"
for png in assets/icons/koikoi-*.png; do
  size=${png##*-}
  size=${size%.png}
  install -D -m 644 "$png" "$root/usr/share/icons/hicolor/${size}x${size}/apps/$app_id.png"
done
install -D -m 644 assets/icons/koikoi.svg "$root/usr/share/icons/hicolor/scalable/apps/$app_id.svg"
{
  echo "koikoi: MIT licence (the code); the card art and icons: CC BY 4.0, see below."
  echo
  cat assets/LICENSE.md
} >"$root/usr/share/doc/$name/copyright"
installed_kb=$(du -sk --exclude=DEBIAN "$root" | cut -f1)
# the newest glibc symbol version any file of the bundle asks for: the libc6 it depends on
glibc=$({ find "$bundle" -type f \( -name '*.so*' -o -name "$name" \) -print0 |
  xargs -0 objdump -T 2>/dev/null || true; } | grep -o 'GLIBC_[0-9.]*[0-9]' | sed 's/GLIBC_//' |
  sort -V | tail -n 1)
[ -n "$glibc" ] || { say "no glibc version found in the bundle (objdump)"; exit 1; }
sed -e "s/@VERSION@/$version/" -e "s/@INSTALLED_SIZE@/$installed_kb/" -e "s/@GLIBC@/$glibc/" \
  "$linux/control.in" >"$root/DEBIAN/control"
find "$root" -exec touch -h -d "@$epoch" {} +
deb="dist/${name}_${version}_amd64.deb"
dpkg-deb --root-owner-group -Zgzip -z6 --build "$root" "$deb" >/dev/null

# -- what was made ----------------------------------------------------------------------------
mb() { awk -v b="$1" 'BEGIN { printf "%.1f MB", b / 1e6 }'; }
say "bundle $bundle: $(mb "$(du -sb "$bundle" | cut -f1)") unpacked"
say "tarball $tarball: $(mb "$(stat -c %s "$tarball")")"
say "package $deb: $(mb "$(stat -c %s "$deb")")"
say "built in $((SECONDS - started)) s"
