#!/usr/bin/env bash
# Debian packages the suite needs beyond Python: Chromium for the browser tests, libmagic for CKAN uploads.
set -euo pipefail
missing=()
for pkg in chromium libmagic1; do dpkg -s "$pkg" >/dev/null 2>&1 || missing+=("$pkg"); done
[ ${#missing[@]} -eq 0 ] && exit 0
sudo=""; [ "$(id -u)" -eq 0 ] || sudo=sudo
$sudo apt-get update -qq
DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq "${missing[@]}" >/dev/null
