#!/usr/bin/env bash
# Test what packaging/build.sh made, as a player would get it:
#  - the size budget (docs/benchmarks.md): bundle <= 170 MB unpacked, tarball <= 70 MB;
#  - the tarball's binary and the .deb's (unpacked with dpkg-deb -x, started through a link as
#    /usr/bin/koikoi is) answer --version and pass --smoke-test and --smoke-test lan (two
#    windows meet by mDNS on 127.0.0.1 and play a round), offscreen, with no Python on PATH
#    (PATH is an empty folder);
#  - the tarball's binary plays a password-room network match with itself on 127.0.0.1;
#  - the bundle carries the engine's compiled core, and its `bench` says it runs it;
#  - the .deb holds the desktop file, metainfo and icons in their places, and they validate;
#  - installed read-only and run by a user who cannot write there (nobody, when run as root),
#    the app starts its computer's helper process and, quit by SIGTERM, saves the match in
#    that user's data folder;
#  - `pipx install .` gives a working koikoi, assets and all (skipped with KOIKOI_CHECK_PIPX=0).
set -euo pipefail
cd "$(dirname "$0")/.."
py=${PYTHON:-python3}
read -r name version app_id < <("$py" packaging/meta.py name version app_id)
bundle="dist/$name"
tarball="dist/$name-$version-linux-x86_64.tar.gz"
deb="dist/${name}_${version}_amd64.deb"
for f in "$bundle/$name" "$tarball" "$deb"; do
  [ -e "$f" ] || { echo "check: $f is missing; run packaging/build.sh first" >&2; exit 1; }
done
say() { echo "check: $*" >&2; }
fail() { echo "check: FAILED: $*" >&2; exit 1; }

work=$(mktemp -d /tmp/koikoi-check.XXXXXX)
trap 'rm -rf "$work"' EXIT
chmod 755 "$work"
nopath="$work/empty-path"  # PATH for the binary: an empty folder, so no python, no anything
mkdir "$nopath"

# -- size budget ---------------------------------------------------------------------------
bundle_bytes=$(du -sb "$bundle" | cut -f1)
tar_bytes=$(stat -c %s "$tarball")
[ "$bundle_bytes" -le 170000000 ] || fail "bundle is $bundle_bytes bytes, over 170 MB"
[ "$tar_bytes" -le 70000000 ] || fail "tarball is $tar_bytes bytes, over 70 MB"
say "size: bundle $bundle_bytes bytes (<= 170 MB), tarball $tar_bytes bytes (<= 70 MB)"

# run_bare [NAME=VALUE...] BINARY ARGS...: the binary alone, in a bare environment, offscreen
run_bare() {  # (timeout: a hung binary fails the check rather than the CI run's clock)
  timeout 180 env -i PATH="$nopath" HOME="$work/home" LANG=C.UTF-8 QT_QPA_PLATFORM=offscreen "$@"
}
mkdir -p "$work/home"
[ -z "$(PATH=$nopath command -v python3 python 2>/dev/null)" ] || fail "python on the bare PATH"

check_binary() {  # LABEL BINARY
  local label=$1 binary=$2 out
  out=$(run_bare "$binary" --version) || fail "$label: --version exited $?"
  [ "$out" = "$name $version" ] || fail "$label: --version said '$out', not '$name $version'"
  run_bare "$binary" --smoke-test 2>"$work/smoke.log" || {
    cat "$work/smoke.log" >&2
    fail "$label: --smoke-test"
  }
  say "$label: '$out'; $(grep 'smoke test' "$work/smoke.log")"
  run_bare "$binary" --smoke-test lan 2>"$work/smoke-lan.log" || {
    cat "$work/smoke-lan.log" >&2
    fail "$label: --smoke-test lan"
  }
  say "$label: $(grep 'LAN smoke test' "$work/smoke-lan.log")"
}

# -- the tarball ---------------------------------------------------------------------------
mkdir "$work/tar"
tar -xzf "$tarball" -C "$work/tar"
check_binary tarball "$work/tar/$name/$name"

# the engine's compiled core (packaging/accel.py) is in the bundle and is what runs
# (the module list is koikoi/engine/compiled.py's, read without importing the package)
hot=$("$py" -c 'import ast, sys
tree = ast.parse(open("koikoi/engine/compiled.py").read())
names = {t.id: n.value for n in tree.body if isinstance(n, ast.AnnAssign) for t in [n.target]}
print(*ast.literal_eval(names["HOT_MODULES"]), ast.literal_eval(names["GROUP"]).rpartition(".")[2] + "__mypyc")')
for module in $hot; do
  compgen -G "$work/tar/$name/_internal/koikoi/engine/$module.cpython-*.so" >/dev/null ||
    fail "the bundle has no compiled koikoi/engine/$module"
done
out=$(run_bare "$work/tar/$name/$name" bench --seconds 0.2) || fail "bench exited $?"
grep -q '"compiled": true' <<<"$out" || fail "the bundle's engine is not the compiled one: $out"
say "compiled engine: in the bundle and running ($(grep -o '"rounds_per_second": [0-9]*' <<<"$out"))"

# a system library the bundle does not carry (libEGL, from libegl1) is missing: one line
# naming the package, not a traceback (root only: /dev/null is bound over it, privately)
if [ "$(id -u)" -eq 0 ] && unshare --mount --propagation private true 2>/dev/null; then
  egl=$(readlink -f "$(ldconfig -p | awk '$1 == "libEGL.so.1" && /x86-64/ { print $NF; exit }')")
  rc=0
  unshare --mount --propagation private sh -c 'mount --bind /dev/null "$0" && exec "$@"' \
    "$egl" env -i PATH="$nopath" HOME="$work/home" QT_QPA_PLATFORM=offscreen \
    "$work/tar/$name/$name" 2>"$work/egl.log" || rc=$?
  [ "$rc" -eq 1 ] && [ "$(wc -l <"$work/egl.log")" -eq 1 ] && grep -q "apt install libegl1" "$work/egl.log" || {
    cat "$work/egl.log" >&2
    fail "without libEGL: exit $rc, not one line naming libegl1"
  }
  say "without libEGL: $(cat "$work/egl.log")"
fi

# the network stack frozen: a password room (SPAKE2, signatures, msgpack) on 127.0.0.1, two
# bots, one round; then the joiner's signed record verifies
t="$work/tar/$name/$name"
printf 'plum blossom' >"$work/password"
run_bare KOIKOI_HOME="$work/net-host" "$t" host --bind 127.0.0.1 --port 0 --rounds 6 \
  --bot random --password-file "$work/password" >"$work/host.out" 2>"$work/host.err" &
host=$!
port=""
for _ in $(seq 100); do
  port=$(sed -n 's/^listening [^ ]*:\([0-9]*\)$/\1/p' "$work/host.err")  # stderr: stdout is the result
  [ -n "$port" ] && break
  sleep 0.1
done
[ -n "$port" ] || { kill "$host" 2>/dev/null; cat "$work/host.err" >&2; fail "frozen host: no port"; }
run_bare KOIKOI_HOME="$work/net-join" "$t" join "127.0.0.1:$port" --bot random \
  --password-file "$work/password" --record "$work/match.json" >"$work/join.out" 2>"$work/join.err" ||
  { kill "$host" 2>/dev/null; cat "$work/join.err" >&2; fail "frozen join"; }
wait "$host" || { cat "$work/host.err" >&2; fail "frozen host"; }
run_bare "$t" verify "$work/match.json" >/dev/null 2>"$work/verify.err" ||
  { cat "$work/verify.err" >&2; fail "frozen verify of the match's record"; }
say "network, frozen: a password-room match on 127.0.0.1 played and its record verified"

# -- the .deb ------------------------------------------------------------------------------
mkdir "$work/deb"
dpkg-deb -x "$deb" "$work/deb"
d="$work/deb"
for f in "opt/$name/$name" "usr/share/applications/$app_id.desktop" \
  "usr/share/metainfo/$app_id.metainfo.xml" "usr/share/icons/hicolor/scalable/apps/$app_id.svg" \
  "usr/share/icons/hicolor/48x48/apps/$app_id.png" "usr/share/icons/hicolor/256x256/apps/$app_id.png" \
  "usr/share/doc/$name/copyright"; do
  [ -e "$d/$f" ] || fail ".deb: no /$f"
done
[ "$(readlink "$d/usr/bin/$name")" = "/opt/$name/$name" ] || fail ".deb: /usr/bin/$name is no link to /opt/$name/$name"
desktop-file-validate "$d/usr/share/applications/$app_id.desktop" || fail ".deb: desktop file"
appstreamcli validate --no-net "$d/usr/share/metainfo/$app_id.metainfo.xml" >/dev/null || fail ".deb: metainfo"
control=$(dpkg-deb -f "$deb" Package Version Architecture Depends)
grep -qx "Version: $version" <<<"$control" || fail ".deb: version"
grep -q "^Depends: .*libegl1" <<<"$control" || fail ".deb: Depends"
ln -s "$d/opt/$name/$name" "$work/deb-usr-bin-$name"  # as /usr/bin/koikoi starts it
check_binary ".deb" "$work/deb-usr-bin-$name"

# -- read-only install, a user who cannot write there ------------------------------------------
ro="$work/ro"
cp -a "$work/tar/$name" "$ro"
chmod -R a-w "$ro"
user_home="$work/user-home"
mkdir "$user_home"
as_user=()
who=$(id -un)
if [ "$(id -u)" -eq 0 ] && command -v setpriv >/dev/null 2>&1; then
  chown nobody "$user_home"
  as_user=(setpriv --reuid=nobody --regid="$(id -g nobody)" --clear-groups)
  who=nobody
fi
"${as_user[@]}" env -i PATH="$nopath" HOME="$user_home" LANG=C.UTF-8 QT_QPA_PLATFORM=offscreen \
  KOIKOI_START=practice "$ro/$name" 2>"$work/ro.log" &
app=$!
helper=""
for _ in $(seq 300); do  # the computer's helper process: the frozen binary, spawned
  helper=$(ps -o pid=,args= --ppid "$app" | grep -- '--multiprocessing-fork' || true)
  [ -n "$helper" ] && break
  sleep 0.1
done
sleep 1
kill -TERM "$app"
rc=0
wait "$app" || rc=$?
[ -n "$helper" ] || { cat "$work/ro.log" >&2; fail "read-only install: no helper process started"; }
[ "$rc" -eq 0 ] || { cat "$work/ro.log" >&2; fail "read-only install: exit $rc after SIGTERM"; }
save="$user_home/.local/share/$name/practice.json"
[ -s "$save" ] || { cat "$work/ro.log" >&2; fail "read-only install: no save at $save"; }
say "read-only install run by $who: helper process ran; saved to ~/.local/share/$name/practice.json"

# -- pipx ----------------------------------------------------------------------------------
if [ "${KOIKOI_CHECK_PIPX:-1}" != 0 ]; then
  if ! command -v pipx >/dev/null 2>&1; then
    sudo=""
    [ "$(id -u)" -eq 0 ] || sudo="sudo"
    apt=(env LC_ALL=C DEBIAN_FRONTEND=noninteractive $sudo apt-get
      -o DPkg::Lock::Timeout="${KOIKOI_APT_LOCK_WAIT:-600}")
    "${apt[@]}" update -qq
    "${apt[@]}" install -y -qq --no-install-recommends pipx >/dev/null
  fi
  export PIPX_HOME="$work/pipx" PIPX_BIN_DIR="$work/pipx-bin"
  pipx install --python "$py" . >/dev/null 2>"$work/pipx.log" || { cat "$work/pipx.log" >&2; fail "pipx install ."; }
  out=$(cd "$work" && run_bare "$PIPX_BIN_DIR/$name" --version) || fail "pipx: --version"
  [ "$out" = "$name $version" ] || fail "pipx: --version said '$out'"
  (cd "$work" && run_bare "$PIPX_BIN_DIR/$name" --smoke-test 2>"$work/smoke.log") || {
    cat "$work/smoke.log" >&2
    fail "pipx: --smoke-test"
  }
  site=$(echo "$PIPX_HOME"/venvs/"$name"/lib/python3*/site-packages)
  [ -f "$site/$name/assets/cards/matsu_crane.svg" ] || fail "pipx: no card art in the install"
  say "pipx install .: '$out'; $(grep 'smoke test' "$work/smoke.log")"
fi
say "all passed"
