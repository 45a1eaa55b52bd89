#!/usr/bin/env bash
# How long the built binary takes to show its first window: start it on a fresh virtual X
# display (Xvfb) with an empty home, and time until a window of its title is mapped
# (xwininfo). Prints one line per run; usage: bash packaging/first-window.sh [RUNS] [BINARY]
set -euo pipefail
cd "$(dirname "$0")/.."
runs=${1:-5}
binary=${2:-dist/koikoi/koikoi}
for tool in Xvfb xwininfo; do
  command -v "$tool" >/dev/null || { echo "first-window: $tool is missing (apt-get install xvfb x11-utils)" >&2; exit 1; }
done
display=:$((90 + RANDOM % 9))
Xvfb "$display" -screen 0 1280x800x24 -nolisten tcp >/dev/null 2>&1 &
xvfb=$!
work=$(mktemp -d)
trap 'kill "$xvfb" 2>/dev/null || true; rm -rf "$work"' EXIT
until DISPLAY=$display xwininfo -root >/dev/null 2>&1; do sleep 0.05; done
for run in $(seq "$runs"); do
  rm -rf "$work/home" && mkdir "$work/home"
  start=$(date +%s%N)
  env -i DISPLAY="$display" HOME="$work/home" LANG=C.UTF-8 PATH=/usr/bin:/bin "$binary" &
  app=$!
  until DISPLAY=$display xwininfo -root -tree 2>/dev/null | grep -q 'Koi-Koi'; do
    kill -0 "$app" 2>/dev/null || { echo "first-window: the app exited" >&2; exit 1; }
    sleep 0.01
  done
  end=$(date +%s%N)
  echo "run $run: first window after $(((end - start) / 1000000)) ms"
  kill -TERM "$app"
  wait "$app" || true
done
