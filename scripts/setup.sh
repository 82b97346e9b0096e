#!/usr/bin/env bash
# Installs what gpumemsim needs from Debian's packages (only what is missing). Needs root or sudo.
set -euo pipefail
pkgs=(cmake ninja-build g++ libyaml-cpp-dev libboost-program-options-dev libeigen3-dev nlohmann-json3-dev
      libgtest-dev libgmock-dev libbenchmark-dev libcairo2-dev pkg-config fonts-dejavu-core hipcc
      chromium libopenmpi-dev openmpi-bin pybind11-dev python3-dev zlib1g-dev liblzma-dev xz-utils)
missing=()
for p in "${pkgs[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
  echo "setup: installing ${missing[*]}"
  SUDO=""; [ "$(id -u)" -ne 0 ] && SUDO=sudo
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi
