#!/usr/bin/env bash
# scripts/pack_for_device.sh [BINARY [OUT_DIR]]: packs BINARY (build/gpumemsim) with every shared library
# it loads, and the loader, into OUT_DIR (build-device/; both relative to the repository), so that a
# device machine (16 CPU cores, none of this project's libraries) can run CPU-only work such as a whole
# scorecard. The run tool carries the folder (carry: ["build-device"]); on the device:
#   build-device/run compare --gpu configs/gpus/h100.yaml validate/results/h100/... --jobs 16 --json $OUT/c.json
# The same binary gives the same numbers there (docs/results/h100-compare.md was run so, 2026-11-27).
set -euo pipefail
cd "$(dirname "$0")/.."
bin=${1:-build/gpumemsim}
out=${2:-build-device}
rm -rf "$out"
mkdir -p "$out/lib"
cp "$bin" "$out/gpumemsim"
ldd "$bin" | awk '/=>/ {print $3} /ld-linux/ {print $1}' | xargs -I{} cp -L {} "$out/lib/"
cat > "$out/run" <<'RUN'
#!/usr/bin/env bash
here=$(cd "$(dirname "$0")" && pwd)
exec "$here/lib/ld-linux-x86-64.so.2" --library-path "$here/lib" "$here/gpumemsim" "$@"
RUN
chmod +x "$out/run"
"$out/run" --version
du -sh "$out"
